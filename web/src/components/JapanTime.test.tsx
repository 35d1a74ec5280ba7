import { afterEach, describe, expect, it, vi } from 'vitest'
import { formatJapanTime } from './JapanTime'

const label = (time: string) => `${time} Japan time`

describe('an instant on a page: Japan time, 24-hour, labelled when the browser is elsewhere', () => {
  afterEach(() => vi.restoreAllMocks())

  it('is Japan time in every language, 24-hour, whatever the browser says', () => {
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(-540)
    // 05:05 UTC is 14:05 in Japan.
    expect(formatJapanTime('2026-11-22T05:05:00Z', 'en', label)).toBe('Nov 22, 2026 14:05')
    expect(formatJapanTime('2026-11-22T05:05:00Z', 'jp', label)).toBe('2026年11月22日 14:05')
    expect(formatJapanTime('2026-11-22T20:30:00Z', 'th', label)).toBe('23 พ.ย. 2569 05:30')
  })

  it('says it is Japan time when the browser is in another zone', () => {
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(-420) // Bangkok
    expect(formatJapanTime('2026-11-22T05:05:00Z', 'th', (t) => `${t} ตามเวลาญี่ปุ่น`)).toBe('22 พ.ย. 2569 14:05 ตามเวลาญี่ปุ่น')
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(0)
    expect(formatJapanTime('2026-11-22T05:05:00Z', 'en', label)).toBe('Nov 22, 2026 14:05 Japan time')
  })

  it('is empty for something that is not an instant', () => {
    expect(formatJapanTime('soon', 'en', label)).toBe('')
  })
})
