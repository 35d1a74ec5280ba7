import { describe, expect, it } from 'vitest'
import { isCardExpired } from './rules'
import { cardSchema } from './schemas'

const now = new Date('2026-11-20T06:00:00Z')
const schema = cardSchema((k) => k, () => now)
const ok = { cardNumber: '4242 4242 4242 4242', expirationDate: '04/28', cvv: '123', holderName: 'TARO PEACH', saveCard: false }
function errors(v: Partial<typeof ok>) {
  const r = schema.safeParse({ ...ok, ...v })
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path[0], i.message]))
}

describe('card form', () => {
  it('accepts every test card of the sandbox', () => {
    for (const n of ['4242424242424242', '5555555555554444', '3530111333300000', '36227206271667']) expect(errors({ cardNumber: n })).toEqual({})
    expect(errors({ cardNumber: '378282246310005', cvv: '1234' })).toEqual({})
  })
  it('refuses bad numbers with the first failing rule', () => {
    expect(errors({ cardNumber: '' }).cardNumber).toBe('required')
    expect(errors({ cardNumber: '4242x' }).cardNumber).toBe('digits')
    expect(errors({ cardNumber: '4242424242424' }).cardNumber).toBe('length')
    expect(errors({ cardNumber: '42424242424242424' }).cardNumber).toBe('length')
    expect(errors({ cardNumber: '4242424242424241' }).cardNumber).toBe('luhn')
  })
  it('CVV is 3 digits, 4 for American Express', () => {
    expect(errors({ cvv: '12' }).cvv).toBe('cvvLength')
    expect(errors({ cvv: '1234' }).cvv).toBe('cvvLength')
    expect(errors({ cardNumber: '378282246310005', cvv: '123' }).cvv).toBe('cvvAmex')
    expect(errors({ cvv: '' }).cvv).toBe('required')
  })
  it('expiry is typed MM/YY as printed, read as 20YY, not in the past (Japan time)', () => {
    expect(errors({ expirationDate: '' }).expirationDate).toBe('required')
    expect(errors({ expirationDate: '2804' }).expirationDate).toBe('format')
    expect(errors({ expirationDate: '13/28' }).expirationDate).toBe('format')
    expect(errors({ expirationDate: '28/04' }).expirationDate).toBe('format')
    expect(errors({ expirationDate: '10/26' }).expirationDate).toBe('expired')
    expect(errors({ expirationDate: '11/26' })).toEqual({})
    expect(errors({ expirationDate: '1128' })).toEqual({})
    expect(isCardExpired('26/11', new Date('2026-11-30T14:59:00Z'))).toBe(false)
    expect(isCardExpired('26/11', new Date('2026-11-30T15:00:00Z'))).toBe(true)
  })
  it('holder is required', () => {
    expect(errors({ holderName: ' ' }).holderName).toBe('required')
  })
})
