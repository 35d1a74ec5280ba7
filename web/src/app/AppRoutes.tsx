import { Suspense, type ReactNode } from 'react'
import { Route, Routes, useLocation } from 'react-router'
import { routes } from './routes'
import { RouteGuard, type Access } from './routing/RouteGuard'
import { Layout } from './layout/Layout'
import { LoadingOverlay } from './layout/LoadingOverlay'
import { NotFoundPage } from './pages/NotFoundPage'
import { lazyPage } from './routing/lazyPage'
import { useOnline } from './pwa/online'
import { useSession } from './session/SessionProvider'

// Without a network: the kept trips on "/" and /bookings, elsewhere a notice (docs/offline.md).
const OfflinePage = lazyPage(() => import('@/features/bookings/offline/OfflinePage'), ['bookings'])

/** The declarative route table built from routes.tsx, each page inside its guard and layout. */
export function AppRoutes() {
  return (
    <Routes>
      {routes.map((r) => (
        <Route key={r.path} path={r.path} element={<Frame access={r.access}>{r.element}</Frame>} />
      ))}
      {/* An unknown path checks the session so a logged-in member keeps the menu. */}
      <Route path="*" element={<Frame access="static" memberChromeIfLoggedIn>{<NotFoundPage />}</Frame>} />
    </Routes>
  )
}

function Frame({ access, memberChromeIfLoggedIn = false, children }: { access: Access; memberChromeIfLoggedIn?: boolean; children: ReactNode }) {
  const { pathname } = useLocation()
  const online = useOnline()
  const { status } = useSession()
  // Without a network, or with one that does not answer the session check
  // (a captive portal, one bar): no member data and no member menu, nothing
  // that needs the server; never the login form.
  if (!online || status === 'unreachable') {
    return (
      <Layout access="static">
        <Suspense fallback={<LoadingOverlay />}>
          <OfflinePage notAnswering={online} />
        </Suspense>
      </Layout>
    )
  }
  return (
    <Layout access={access} memberChromeIfLoggedIn={memberChromeIfLoggedIn}>
      <RouteGuard access={access}>
        {/* keyed by path: a new path mounts a new boundary, so the overlay shows while its chunk/data loads */}
        <Suspense key={pathname} fallback={<LoadingOverlay />}>
          {children}
        </Suspense>
      </RouteGuard>
    </Layout>
  )
}
