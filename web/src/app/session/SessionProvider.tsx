import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useLocation, useNavigate } from 'react-router'
import { couponTicketStatusQuery, gogoPassStatusQuery, logout as apiLogout, refreshSessionToken, sessionQuery } from '@/api/platform'
import { shellUserQuery, type ShellUser } from '@/api/user'
import { platformKeys } from '@/api/queryKeys'
import { useLang } from '@/i18n/translation'
import { NotAnsweringError } from '@/api/errors'
import { LOGIN_PATH, withLang } from '../routing/paths'
import { eraseKeptTripsIfAny } from '../pwa/keptFlag'
import { forgetPushIfAny } from '../pwa/pushChoice'
import { shouldRefreshToken, type RefreshClock, type RefreshTrigger } from './tokenRefresh'

/** 'unreachable': the session check got no answer (docs/offline.md): the kept trips show, never the login form. */
export type SessionStatus = 'checking' | 'loggedIn' | 'loggedOut' | 'unreachable'

export interface Session {
  status: SessionStatus
  loggedIn: boolean
  /** A 403 happened: the session ended while the member was on a page. Cleared by login. */
  timedOut: boolean
  /** A logout is under way; member pages do not redirect themselves meanwhile (logout goes to /login). */
  loggingOut: boolean
  /** The member's record as far as the shell needs it (null until loaded or when unavailable). */
  user: ShellUser | null
  /** Call after a successful POST /api/session: sets logged in, clears timed out, loads member data. */
  onLoggedIn(): Promise<void>
  /** DELETE /api/session, forget every cached member data, go to /login. */
  logout(): Promise<void>
  /** Marks the session timed out (the shell does this on any 403). */
  markTimedOut(): void
}

/** Everything in the query cache except the shell's session and platform entries. */
function isMemberData(q: { queryKey: readonly unknown[] }): boolean {
  return q.queryKey[0] !== platformKeys.session[0] && q.queryKey[0] !== platformKeys.cookieConsent[0]
}

const SessionContext = createContext<Session | null>(null)

export function useSession(): Session {
  const ctx = useContext(SessionContext)
  if (!ctx) throw new Error('useSession outside SessionProvider')
  return ctx
}

/** Session state: checked on the first guarded page; member data loaded when logged in. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const qc = useQueryClient()
  const navigate = useNavigate()
  const lang = useLang()
  const [timedOut, setTimedOut] = useState(false)
  // The history entry a logout started on. The logout then replaces that
  // entry with the login page, so the key never comes back: on any other
  // entry (the login page, or one Back reaches, even before the login page
  // first painted) a member page finds a logged-out visitor and goes to
  // /login, with no timeout or error. Derived while rendering: nothing has
  // to see the login page render to end it.
  const [logoutFrom, setLogoutFrom] = useState<string | null>(null)
  const { key: locationKey } = useLocation()
  const loggingOut = logoutFrom !== null && logoutFrom === locationKey

  // Observed only: the route guards of member and anonymous pages start the check,
  // so static pages (/sorry) never call GET /api/session.
  const session = useQuery({ ...sessionQuery, enabled: false })
  const status: SessionStatus =
    session.data === true
      ? 'loggedIn'
      : session.data === false
        ? 'loggedOut'
        : session.isError
          ? session.error instanceof NotAnsweringError
            ? 'unreachable'
            : 'loggedOut'
          : 'checking'
  const loggedIn = status === 'loggedIn'

  const user = useQuery(shellUserQuery(loggedIn))
  useQuery(gogoPassStatusQuery(loggedIn))
  useQuery(couponTicketStatusQuery(loggedIn))

  const markTimedOut = useCallback(() => {
    setTimedOut(true)
    qc.setQueryData(platformKeys.session, false)
  }, [qc])

  const onLoggedIn = useCallback(async () => {
    setTimedOut(false)
    setLogoutFrom(null)
    // Member data of a previous member must not survive a login.
    qc.removeQueries({ predicate: isMemberData })
    qc.setQueryData(platformKeys.session, true)
    await qc.invalidateQueries({ queryKey: platformKeys.sessionInfo })
  }, [qc])

  const logout = useCallback(async () => {
    setLogoutFrom(locationKey)
    try {
      await apiLogout()
    } catch {
      // The session is forgotten here whatever the server said.
    }
    // Clears every cached member data (user, airports, countries, passengers, points, reservations…).
    // The session and platform entries stay: the shell observes them and sets them right here.
    qc.removeQueries({ predicate: isMemberData })
    // The trips kept on this device go with the session (cache storage and IndexedDB).
    await eraseKeptTripsIfAny().catch(() => undefined)
    // And this device's flight change alerts (the server switched it off with the session).
    await forgetPushIfAny().catch(() => undefined)
    // So does the tab's session storage: it holds only the orders kept for
    // "Start again" (features/payment/keptSale.ts), passengers' names among them.
    try {
      globalThis.sessionStorage?.clear()
    } catch {
      // no storage: nothing was kept
    }
    qc.setQueryData(platformKeys.session, false)
    void qc.invalidateQueries({ queryKey: platformKeys.sessionInfo })
    setTimedOut(false)
    // The login page says "Logged out." for this arrival only. It takes the
    // place of the page left: Back never returns to a member page shown
    // from before the logout.
    navigate(withLang(LOGIN_PATH, lang), { replace: true, state: { loggedOut: true } })
  }, [qc, navigate, lang, locationKey])

  useTokenRefresh(loggedIn)

  // No answer: asked again now and then (a captive portal opened, a better
  // signal) and at each reconnection; the pages come back with the answer.
  useEffect(() => {
    if (status !== 'unreachable') return
    const again = window.setInterval(() => void qc.fetchQuery(sessionQuery).catch(() => undefined), 15_000)
    return () => window.clearInterval(again)
  }, [status, qc])

  // Back online: a session check that failed for want of a network is asked
  // again (before the pages render online, so no guard takes the failure for
  // "logged out"), and every page's data is refreshed.
  // (In the capture phase: before useOnline's listeners re-render the pages, pwa/online.ts.)
  useEffect(() => {
    const reconnected = () => {
      if (qc.getQueryState(platformKeys.session)?.status === 'error') void qc.resetQueries({ queryKey: platformKeys.session })
      void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] !== platformKeys.session[0] })
    }
    window.addEventListener('online', reconnected, true)
    return () => window.removeEventListener('online', reconnected, true)
  }, [qc])

  const value = useMemo<Session>(
    () => ({ status, loggedIn, timedOut, loggingOut, user: user.data ?? null, onLoggedIn, logout, markTimedOut }),
    [status, loggedIn, timedOut, loggingOut, user.data, onLoggedIn, logout, markTimedOut],
  )
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
}

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'focus'] as const

/** Refreshes the session token on activity and visibility per the rule in tokenRefresh.ts. */
function useTokenRefresh(loggedIn: boolean) {
  const clock = useRef<RefreshClock>({ lastActivityAt: 0, lastRefreshAt: 0 })

  useEffect(() => {
    if (!loggedIn) return
    const now = Date.now()
    clock.current = { lastActivityAt: now, lastRefreshAt: now }

    const trigger = (kind: RefreshTrigger) => {
      const t = Date.now()
      if (shouldRefreshToken(kind, clock.current, t)) {
        clock.current.lastRefreshAt = t
        refreshSessionToken().catch(() => {
          // a 403 opens the timeout modal through the client; other failures are retried on the next trigger
        })
      }
      clock.current.lastActivityAt = t
    }
    const onActivity = () => trigger('activity')
    const onVisibility = () => {
      if (document.visibilityState === 'visible') trigger('visible')
    }
    for (const e of ACTIVITY_EVENTS) window.addEventListener(e, onActivity, { passive: true, capture: true })
    document.addEventListener('visibilitychange', onVisibility)
    return () => {
      for (const e of ACTIVITY_EVENTS) window.removeEventListener(e, onActivity, { capture: true })
      document.removeEventListener('visibilitychange', onVisibility)
    }
  }, [loggedIn])
}
