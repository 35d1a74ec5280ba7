import { describe, expect, it } from 'vitest'
import { formatAmount } from '@/i18n/format'
import { CURRENCIES, placeholderRows, ruleText, summaryRows } from './rules'

const t = (key: string, opts?: Record<string, unknown>) => (opts ? `${key} ${JSON.stringify(opts)}` : key)

describe('points summary rows', () => {
  it('pivots the entries into rows in the order KRW, CNY, JPY, TWD, HKD, THB, SGD', () => {
    const rows = summaryRows([
      { currencyCode: 'SGD', currency: 'Singapore dollar', group: 'available', amount: 5000 },
      { currencyCode: 'JPY', currency: 'Japanese yen', group: 'expireThisMonth', amount: 3000 },
      { currencyCode: 'JPY', currency: 'Japanese yen', group: 'available', amount: 8000 },
      { currencyCode: 'USD', currency: 'ignored', group: 'available', amount: 1 },
    ])
    expect(rows.map((r) => r.currencyCode)).toEqual(['KRW', 'CNY', 'JPY', 'TWD', 'HKD', 'THB', 'SGD'])
    expect(rows[2]).toEqual({ currencyCode: 'JPY', currency: 'Japanese yen', available: 8000, expireThisMonth: 3000, expireNextMonth: 0 })
    expect(rows[6].available).toBe(5000)
    expect(rows[0]).toEqual({ currencyCode: 'KRW', currency: 'KRW', available: 0, expireThisMonth: 0, expireNextMonth: 0 })
  })

  it('gives placeholder rows of NaN for every currency after a failure', () => {
    const rows = placeholderRows()
    expect(rows.map((r) => r.currencyCode)).toEqual([...CURRENCIES])
    for (const r of rows) {
      expect(Number.isNaN(r.available) && Number.isNaN(r.expireThisMonth) && Number.isNaN(r.expireNextMonth)).toBe(true)
    }
    expect(formatAmount(rows[0].available, 'KRW', 'en')).toBe('-')
  })
})

describe('amounts per language', () => {
  it('has thousands separators, two decimals for SGD and none for the others', () => {
    expect(formatAmount(1234567, 'JPY', 'jp')).toBe('1,234,567')
    expect(formatAmount(5000, 'SGD', 'sg')).toBe('50.00')
    expect(formatAmount(123456, 'SGD', 'en')).toBe('1,234.56')
    expect(formatAmount(50000, 'KRW', 'kr')).toBe('50,000')
    expect(formatAmount(2000, 'THB', 'th')).toBe('2,000')
  })
})

describe('voucher rules in words', () => {
  it('names routes, travel periods and fares', () => {
    const date = (d: string) => d
    expect(ruleText({ type: 'voucherMarketOriginDestinationRule', marketOriginDestinations: ['KIX-ICN', 'ICN-KIX'] }, t, date)).toBe(
      'rules.market {"routes":"KIX – ICN, ICN – KIX"}',
    )
    expect(ruleText({ type: 'voucherTravelDateRule', travelDates: [{ fromDate: '2026-12-01', toDate: '2026-12-31' }] }, t, date)).toBe(
      'rules.travelDates {"periods":"2026-12-01 – 2026-12-31"}',
    )
    expect(ruleText({ type: 'voucherFareClassRule', fareClassCodes: ['simplePeach'] }, (k, o) => (k.startsWith('fares.') ? 'Simple Peach' : `${k} ${JSON.stringify(o)}`), date)).toBe(
      'rules.fareClass {"fares":"Simple Peach"}',
    )
  })
})
