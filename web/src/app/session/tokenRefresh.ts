/**
 * When to refresh the session token, as a pure rule:
 * - on user activity (pointer, key, focus): refresh when the last activity
 *   or the last refresh is 20 minutes old or more;
 * - when the tab becomes visible again: refresh when the last refresh is
 *   20 minutes old or more (the member may have been away while hidden);
 * - never twice within the 60-second window: focus, visibilitychange and the
 *   first click usually arrive together after a tab switch.
 */
export const IDLE_REFRESH_MS = 20 * 60_000
export const REFRESH_WINDOW_MS = 60_000

export type RefreshTrigger = 'activity' | 'visible'

export interface RefreshClock {
  /** Time of the last user activity seen (ms). */
  lastActivityAt: number
  /** Time of the last refresh or login/session check (ms). */
  lastRefreshAt: number
}

export function shouldRefreshToken(trigger: RefreshTrigger, clock: RefreshClock, now: number): boolean {
  const sinceRefresh = now - clock.lastRefreshAt
  if (sinceRefresh < REFRESH_WINDOW_MS) return false
  if (sinceRefresh >= IDLE_REFRESH_MS) return true
  return trigger === 'activity' && now - clock.lastActivityAt >= IDLE_REFRESH_MS
}
