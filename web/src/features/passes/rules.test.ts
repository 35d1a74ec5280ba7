import { describe, expect, it } from 'vitest'
import { couponTotal, daysBetween, emptyPassenger, fitsType, todayJST } from './rules'
import { couponSchema } from './schemas'

describe('pass rules', () => {
  it('counts ages on boundary days (29 February birthdays from 1 March)', () => {
    expect(fitsType('infant', '2024-12-01', '2026-11-30')).toBe(true)
    expect(fitsType('infant', '2024-12-01', '2026-12-01')).toBe(false)
    expect(fitsType('infant', '2024-02-29', '2026-02-28')).toBe(true)
    expect(fitsType('infant', '2024-02-29', '2026-03-01')).toBe(false)
  })
  it('fits passenger types on the first boarding day', () => {
    expect(fitsType('infant', '2024-12-02', '2026-12-01')).toBe(true)
    expect(fitsType('infant', '2024-12-01', '2026-12-01')).toBe(false)
    expect(fitsType('child', '2024-12-01', '2026-12-01')).toBe(true)
    expect(fitsType('adult', '2024-12-02', '2026-12-01')).toBe(false)
  })
  it('prices seats, not infants', () => {
    expect(couponTotal(32800, ['adult', 'child', 'infant'])).toEqual({ items: 3, total: 98400, count: 4 })
  })
  it('computes Japan-time days', () => {
    expect(todayJST(new Date('2026-11-20T15:00:00Z'))).toBe('2026-11-21')
    expect(daysBetween('2026-11-21', '2026-12-01')).toBe(10)
  })
  it('labels passenger errors with their position', () => {
    const msg = (k: string, v?: Record<string, unknown>) => `${k}:${v?.position ?? ''}`
    const child = { ...emptyPassenger(), passengerType: 'child' as const, lastname: 'Lee', firstname: 'Mina', gender: 'female', dateOfBirth: '2025-01-01',
      nationalityCode: 'KR', passportNo: 'M1', dateOfEntry: '2026-12-01', inboundTransportMethod: 'air', inboundFlightNo: 'MM1' }
    const r = couponSchema(msg, '2026-12-04', '2026-11-20').safeParse({
      productId: 'p', periodId: 'q', fareType: 'lite', agreeTerms: false, additionalPassengers: [emptyPassenger(), child],
    })
    expect(r.success).toBe(false)
    const issues = Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]))
    expect(issues['additionalPassengers.0.lastname']).toBe('passengerRequired:2')
    expect(issues['additionalPassengers.1.dateOfBirth']).toBe('twoAndOver:3')
    expect(issues['agreeTerms']).toBe('terms:')
  })
})
