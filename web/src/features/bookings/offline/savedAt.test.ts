import { afterEach, describe, expect, it, vi } from 'vitest'
import { savedAtLabel, utcOffset } from './savedAt'

describe('savedAtLabel', () => {
  afterEach(() => vi.restoreAllMocks())

  it('gives the time zone of the clock it shows', () => {
    const now = new Date(2026, 11, 7, 12, 0)
    const label = savedAtLabel(new Date(2026, 11, 7, 10, 42).getTime(), 'en', now)
    expect(label).toBe(`10:42 (${utcOffset(now)})`)
    expect(label).toMatch(/\(UTC[+-]\d\d:\d\d\)$/)
  })

  it('writes any offset, half hours and west of UTC too', () => {
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(-540)
    expect(utcOffset(new Date())).toBe('UTC+09:00')
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(210)
    expect(utcOffset(new Date())).toBe('UTC-03:30')
  })

  it('puts the date before the clock on another day', () => {
    const label = savedAtLabel(new Date(2026, 11, 5, 8, 5).getTime(), 'en', new Date(2026, 11, 7, 12, 0))
    expect(label).toMatch(/Dec.*5.*08:05 \(UTC/)
  })
})
