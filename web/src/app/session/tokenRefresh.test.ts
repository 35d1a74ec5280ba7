import { describe, expect, it } from 'vitest'
import { IDLE_REFRESH_MS, REFRESH_WINDOW_MS, shouldRefreshToken } from './tokenRefresh'

const MIN = 60_000
const t0 = 1_000_000_000

describe('token refresh rule', () => {
  it('does not refresh on activity within 20 minutes', () => {
    expect(shouldRefreshToken('activity', { lastActivityAt: t0, lastRefreshAt: t0 }, t0 + 19 * MIN)).toBe(false)
  })
  it('refreshes on the first activity after 20 idle minutes', () => {
    expect(shouldRefreshToken('activity', { lastActivityAt: t0 + 5 * MIN, lastRefreshAt: t0 + 5 * MIN }, t0 + 25 * MIN)).toBe(true)
  })
  it('refreshes during continuous activity once the last refresh is 20 minutes old', () => {
    expect(shouldRefreshToken('activity', { lastActivityAt: t0 + IDLE_REFRESH_MS - 1000, lastRefreshAt: t0 }, t0 + IDLE_REFRESH_MS)).toBe(true)
  })
  it('on becoming visible, refreshes only when the last refresh is 20 minutes old', () => {
    expect(shouldRefreshToken('visible', { lastActivityAt: t0, lastRefreshAt: t0 }, t0 + 10 * MIN)).toBe(false)
    expect(shouldRefreshToken('visible', { lastActivityAt: t0, lastRefreshAt: t0 }, t0 + 21 * MIN)).toBe(true)
  })
  it('never refreshes twice within the 60-second window', () => {
    const clock = { lastActivityAt: t0 - 30 * MIN, lastRefreshAt: t0 }
    expect(shouldRefreshToken('activity', clock, t0 + REFRESH_WINDOW_MS - 1)).toBe(false)
    expect(shouldRefreshToken('visible', clock, t0 + 30_000)).toBe(false)
  })
})
