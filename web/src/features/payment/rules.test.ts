import { describe, expect, it } from 'vitest'
import { apiToPrintedExpiry, brandOf, cardServes, heldElsewhere, luhn, printedToApiExpiry, sortByBrand } from './rules'

describe('card rules', () => {
  it('converts between the printed MM/YY and the API\'s YY/MM', () => {
    expect(printedToApiExpiry('11/29')).toBe('29/11')
    expect(printedToApiExpiry(' 11 / 29 ')).toBe('29/11')
    expect(printedToApiExpiry('1129')).toBe('29/11')
    expect(printedToApiExpiry('11/2029')).toBe('29/11')
    expect(printedToApiExpiry('4/29')).toBe('29/04')
    expect(printedToApiExpiry('429')).toBeNull()
    expect(printedToApiExpiry('00/29')).toBeNull()
    expect(printedToApiExpiry('11/1929')).toBeNull()
    expect(printedToApiExpiry('11')).toBeNull()
    expect(apiToPrintedExpiry('29/11')).toBe('11/29')
    expect(apiToPrintedExpiry('bad')).toBe('bad')
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
  it('a card not usable and not expired is held by another gateway', () => {
    const now = new Date('2026-11-28T00:00:00Z')
    expect(heldElsewhere({ usable: false, expirationDate: '30/12' }, now)).toBe(true)
    // not usable because it expired: the expired-card case, not this one
    expect(heldElsewhere({ usable: false, expirationDate: '26/10' }, now)).toBe(false)
    expect(heldElsewhere({ usable: true, expirationDate: '30/12' }, now)).toBe(false)
    // a server that does not send usable (the sandbox before Stripe mode)
    expect(heldElsewhere({ expirationDate: '30/12' }, now)).toBe(false)
  })
})
