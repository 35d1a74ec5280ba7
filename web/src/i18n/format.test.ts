import { describe, expect, it } from 'vitest'
import { formatAmount, formatDate, formatDateTime, formatMoney, formatMonth, formatPersonName, pluralCategory, pluralKey } from './format'
import type { Lang } from './languages'
import dates from '../../../testdata/dates.json'
import amounts from '../../../testdata/amounts.json'
import plurals from '../../../testdata/plurals.json'
import names from '../../../testdata/names.json'

describe('amounts (the table shared with the server, testdata/amounts.json)', () => {
  it.each(amounts.cases.map((c) => [c.lang, c.minor, c.currency, c.want] as const))('%s %d %s → %s', (lang, minor, currency, want) => {
    expect(formatMoney(minor, currency, lang as Lang)).toBe(want)
  })
})

describe('plurals (testdata/plurals.json)', () => {
  it.each(plurals.cases.map((c) => [c.lang, c.n, c.want] as const))('%s %d → %s', (lang, n, want) => {
    expect(pluralCategory(n, lang as Lang)).toBe(want)
    expect(pluralKey('x', n, lang as Lang)).toBe(`x_${want}`)
  })
})

describe('names (testdata/names.json)', () => {
  it.each(names.cases.map((c) => [c.lang, c.given, c.family, c.want] as const))('%s %s %s → %s', (lang, given, family, want) => {
    expect(formatPersonName(given, family, lang as Lang)).toBe(want)
  })
})

describe('money formatting (amounts in minor units)', () => {
  it('JPY has no decimals and thousands separators', () => {
    expect(formatMoney(1234, 'JPY', 'en')).toBe('JPY 1,234')
    expect(formatMoney(1234567, 'JPY', 'jp')).toBe('1,234,567円')
    expect(formatMoney(1234567, 'JPY', 'th')).toBe('JPY 1,234,567')
  })
  it('SGD has two decimals', () => {
    expect(formatMoney(1234, 'SGD', 'sg')).toBe('SGD 12.34')
    expect(formatMoney(123456789, 'SGD', 'en')).toBe('SGD 1,234,567.89')
    expect(formatMoney(5, 'SGD', 'en')).toBe('SGD 0.05')
  })
  it('other currencies have no decimals', () => {
    expect(formatAmount(1500000, 'KRW', 'kr')).toBe('1,500,000')
    expect(formatAmount(9000, 'TWD', 'tw')).toBe('9,000')
  })
  it('shows a dash for a missing amount', () => {
    expect(formatAmount(Number.NaN, 'JPY', 'en')).toBe('-')
  })
})

describe('date formatting (the table shared with the server, testdata/dates.json)', () => {
  it.each(dates.cases.map((c) => [c.lang, c.date, c.want, c.weekday] as const))('%s %s → %s / %s', (lang, date, want, weekday) => {
    expect(formatDate(date, lang as Lang)).toBe(want)
    expect(formatDate(date, lang as Lang, { weekday: true })).toBe(weekday)
  })
  it('writes months the same way', () => {
    expect(formatMonth('2026-11', 'en')).toBe('Nov 2026')
    expect(formatMonth('2026-11-01', 'jp')).toBe('2026年11月')
    expect(formatMonth('2026-11', 'th')).toBe('พ.ย. 2569')
    expect(formatMonth('2026-11', 'kr')).toBe('2026. 11.')
  })
  it('reads an instant in Japan time', () => {
    expect(formatDate(new Date('2026-11-21T15:30:00Z'), 'en')).toBe('Nov 22, 2026')
    expect(formatDateTime('2026-11-21T15:30:00Z', 'th')).toBe('22 พ.ย. 2569 00:30')
  })
})
