/**
 * Every page of the app, one line each. To add a page:
 *   const MyPage = lazy(() => import('@/features/<feature>/pages/MyPage'))   // default export
 *   { path: '/my-path', element: <MyPage />, access: 'member' },
 * access: 'member' (needs a session), 'anonymous' (login, reset: a logged-in
 * member is sent to "/"), 'static' (no session check).
 * Unknown paths get the 404 page (see AppRoutes).
 */
import { lazy, type ReactNode } from 'react'
import type { Access } from './routing/RouteGuard'
import { ComingSoonPage } from './pages/ComingSoonPage'

const HomePage = lazy(() => import('./pages/HomePage'))
const LoginPage = lazy(() => import('./pages/LoginPage'))
const SorryPage = lazy(() => import('./pages/SorryPage'))
const BookingsPage = lazy(() => import('@/features/bookings/pages/BookingsPage'))

export interface AppRoute {
  path: string
  element: ReactNode
  access: Access
}

export const routes: AppRoute[] = [
  // shell
  { path: '/', element: <HomePage />, access: 'member' },
  { path: '/login', element: <LoginPage />, access: 'anonymous' },
  { path: '/sorry', element: <SorryPage />, access: 'static' },

  // account / passengers / reset password (placeholders until the feature lands)
  { path: '/account', element: <ComingSoonPage feature="account" />, access: 'member' },
  { path: '/passengers', element: <ComingSoonPage feature="passengers" />, access: 'member' },
  { path: '/reset-password', element: <ComingSoonPage feature="resetPassword" />, access: 'anonymous' },
  { path: '/reset-password/invalid', element: <ComingSoonPage feature="resetPasswordInvalid" />, access: 'anonymous' },
  { path: '/reset-password/:token', element: <ComingSoonPage feature="resetPasswordToken" />, access: 'anonymous' },

  // bookings
  { path: '/bookings', element: <BookingsPage />, access: 'member' },

  // points, payment settings
  { path: '/points', element: <ComingSoonPage feature="points" />, access: 'member' },
  { path: '/payment-methods', element: <ComingSoonPage feature="paymentMethods" />, access: 'member' },
]
