import type { ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { sessionQuery } from '@/api/platform'
import { useLang } from '@/i18n/translation'
import { useSession } from '../session/SessionProvider'
import { LoadingOverlay } from '../layout/LoadingOverlay'
import { HOME_PATH, LOGIN_PATH, loginPathFor, sanitizeRedirect, withLang } from './paths'

export type Access = 'member' | 'anonymous' | 'static'

/**
 * The routing rules:
 * - static pages render without a session check;
 * - anonymous pages (login, reset) send a logged-in member to "/" (the login page
 *   to its sanitised ?redirect= target: that is how a login returns to where it started);
 * - member pages send a logged-out visitor to /login?redirect=<full original path>.
 * After a 403 (timed out) the member page stays behind the timeout modal.
 */
export function RouteGuard({ access, children }: { access: Access; children: ReactNode }) {
  if (access === 'static') return <>{children}</>
  return <SessionGuard access={access}>{children}</SessionGuard>
}

function SessionGuard({ access, children }: { access: Exclude<Access, 'static'>; children: ReactNode }) {
  useQuery(sessionQuery) // starts the session check on the first guarded page
  const { status, timedOut, loggingOut } = useSession()
  const location = useLocation()
  const lang = useLang()

  if (status === 'checking') return <LoadingOverlay />
  if (access === 'anonymous' && status === 'loggedIn') {
    // After a login, the login page's redirect query says where to return.
    const back = location.pathname === LOGIN_PATH ? sanitizeRedirect(new URLSearchParams(location.search).get('redirect')) : undefined
    return <Navigate to={withLang(back ?? HOME_PATH, lang)} replace />
  }
  if (access === 'member' && status === 'loggedOut' && !timedOut && !loggingOut) {
    return <Navigate to={loginPathFor(location.pathname + location.search, lang)} replace />
  }
  return <>{children}</>
}
