import { afterEach, describe, expect, it } from 'vitest'
import { keepSale, keptSale } from './keptSale'

describe('the fields kept for "Start again"', () => {
  afterEach(() => sessionStorage.clear())

  it('come back only with ?again, per product', () => {
    keepSale('coupon_ticket', { productId: 'cp-kix', periodId: 'p1', fareType: 'lite', agreeTerms: true, additionalPassengers: [] })
    expect(keptSale('coupon_ticket', '?again=1&lang=en')).toEqual({ productId: 'cp-kix', periodId: 'p1', fareType: 'lite', agreeTerms: true, additionalPassengers: [] })
    expect(keptSale('coupon_ticket', '?lang=en')).toBeNull()
    expect(keptSale('gogo_pass', '?again=1')).toBeNull()
  })

  it('a damaged entry is no entry', () => {
    sessionStorage.setItem('sale-fields:gogo_pass', '{not json')
    expect(keptSale('gogo_pass', '?again=1')).toBeNull()
    sessionStorage.setItem('sale-fields:gogo_pass', '[1,2]')
    expect(keptSale('gogo_pass', '?again=1')).toBeNull()
  })
})
