import { describe, expect, it } from 'vitest'
import { exchangeSchema, reissueSchema, saleSchema, searchSchema } from './schemas'

const t = (key: string, opts?: Record<string, unknown>) => (opts ? `${key} ${JSON.stringify(opts)}` : key)

describe('forms', () => {
  it('checks the search condition', () => {
    const s = searchSchema(t)
    expect(s.safeParse({ currencyCode: '', expireDate: '', travelExpireDate: '', hasBalance: true, isOnlyActive: true }).success).toBe(true)
    expect(s.safeParse({ currencyCode: 'USD', expireDate: '', travelExpireDate: '', hasBalance: true, isOnlyActive: true }).success).toBe(false)
    expect(s.safeParse({ currencyCode: 'JPY', expireDate: '2026-02-30', travelExpireDate: '', hasBalance: true, isOnlyActive: true }).success).toBe(false)
  })

  it('requires number, PIN and a well-formed e-mail for the reissue, at most 100 characters', () => {
    const s = reissueSchema(t)
    expect(s.safeParse({ pointNumber: '7100000000000003', pin: '24681357', email: 'a@example.com' }).success).toBe(true)
    const r = s.safeParse({ pointNumber: ' ', pin: '1'.repeat(101), email: 'a@' })
    expect(r.success).toBe(false)
    const issues = Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path[0], i.message]))
    expect(issues).toEqual({ pointNumber: 'validation.required', pin: 'validation.maxLength {"max":100}', email: 'validation.email' })
  })

  it('trims the exchange inputs and asks for the conversion code', () => {
    const s = exchangeSchema(t)
    expect(s.parse({ code: '  ABC  ', password: ' pw ' })).toEqual({ code: 'ABC', password: 'pw' })
    const r = s.safeParse({ code: '   ', password: '' })
    expect(r.error?.issues.map((i) => i.message)).toEqual(['validation.code', 'validation.required'])
  })

  it('requires nominee in Latin letters, currency and one of its amounts', () => {
    const s = saleSchema(t, { JPY: [1000, 3000], SGD: [1000] })
    expect(s.safeParse({ nominee: 'Hanako Yamada', currencyCode: 'JPY', amount: '3000' }).success).toBe(true)
    // what it gives is the purchase's fields as the API takes them
    expect(s.parse({ nominee: ' Hanako   Yamada ', currencyCode: 'JPY', amount: '3000' })).toEqual({ nominee: 'Hanako Yamada', currencyCode: 'JPY', amount: 3000 })
    const bad = s.safeParse({ nominee: '山田', currencyCode: 'JPY', amount: '1234' })
    expect(Object.fromEntries((bad.error?.issues ?? []).map((i) => [i.path[0], i.message]))).toEqual({ nominee: 'validation.nominee', amount: 'validation.amount' })
    expect(s.safeParse({ nominee: 'A', currencyCode: '', amount: '' }).success).toBe(false)
  })
})
