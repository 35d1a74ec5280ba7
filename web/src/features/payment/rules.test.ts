import { describe, expect, it } from 'vitest'
import { brandOf, cardSchema, cardServes, isCardExpired, luhn, sortByBrand } from './rules'

const now = new Date('2026-11-20T06:00:00Z')
const schema = cardSchema((k) => k, () => now)
const ok = { cardNumber: '4242 4242 4242 4242', expirationDate: '28/04', cvv: '123', holderName: 'TARO PEACH', saveCard: false }
function errors(v: Partial<typeof ok>) {
  const r = schema.safeParse({ ...ok, ...v })
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path[0], i.message]))
}

describe('card rules (spec §5)', () => {
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
  it('expiry is YY/MM read as 20YY, not in the past (Japan time)', () => {
    expect(errors({ expirationDate: '' }).expirationDate).toBe('required')
    expect(errors({ expirationDate: '2804' }).expirationDate).toBe('format')
    expect(errors({ expirationDate: '28/13' }).expirationDate).toBe('format')
    expect(errors({ expirationDate: '26/10' }).expirationDate).toBe('expired')
    expect(errors({ expirationDate: '26/11' })).toEqual({})
    expect(isCardExpired('26/11', new Date('2026-11-30T14:59:00Z'))).toBe(false)
    expect(isCardExpired('26/11', new Date('2026-11-30T15:00:00Z'))).toBe(true)
  })
  it('holder is required', () => {
    expect(errors({ holderName: ' ' }).holderName).toBe('required')
  })
  it('brands, Luhn, order and currency scope', () => {
    expect(brandOf('378282246310005')).toBe('amex')
    expect(brandOf('36227206271667')).toBe('diners')
    expect(brandOf('3530111333300000')).toBe('jcb')
    expect(luhn('4000000000000002')).toBe(true)
    expect(sortByBrand([{ brand: 'discover' }, { brand: 'amex' }, { brand: 'jcb' }, { brand: 'visa' }, { brand: 'mastercard' }, { brand: 'diners' }]).map((c) => c.brand))
      .toEqual(['visa', 'mastercard', 'jcb', 'amex', 'diners', 'discover'])
    expect(cardServes('JPY', 'JPY')).toBe(true)
    expect(cardServes('JPY', 'KRW')).toBe(false)
    expect(cardServes('NON_JPY', 'THB')).toBe(true)
    expect(cardServes('NON_JPY', 'JPY')).toBe(false)
    expect(cardServes('ALL', 'SGD')).toBe(true)
  })
})
