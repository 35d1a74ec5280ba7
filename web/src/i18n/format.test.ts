import { describe, expect, it } from 'vitest'
import { formatAmount, formatDate, formatMoney } from './format'

describe('money formatting (amounts in minor units)', () => {
  it('JPY has no decimals and thousands separators', () => {
    expect(formatMoney(1234, 'JPY', 'en')).toBe('JPY 1,234')
    expect(formatMoney(1234567, 'JPY', 'jp')).toBe('JPY 1,234,567')
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

describe('date formatting', () => {
  it('formats an ISO date as that calendar day in every language', () => {
    expect(formatDate('2024-03-05', 'en')).toContain('2024')
    expect(formatDate('2024-03-05', 'jp')).toBe('2024/03/05')
  })
})
