/**
 * Every page of the app, one line each. To add a page:
 *   const MyPage = lazyPage(() => import('@/features/<feature>/pages/MyPage'), ['<feature>'])   // default export
 *   { path: '/my-path', element: <MyPage />, access: 'member' },
 * The list after import() names the catalogue namespaces the page uses
 * besides "common" (its feature's, and those of other features' components
 * it shows): they load with the page's chunk (routing/lazyPage.tsx).
 * access: 'member' (needs a session), 'anonymous' (login, reset: a logged-in
 * member is sent to "/"), 'static' (no session check).
 * Unknown paths get the 404 page (see AppRoutes).
 */
import { isValidElement, type ReactNode } from 'react'
import { matchPath } from 'react-router'
import type { QueryClient } from '@tanstack/react-query'
import { prefetchShellData, sessionQuery } from '@/api/platform'
import { hadSession } from '@/api/sessionHint'
import { prefetchAccountPage } from '@/features/account/firstData'
import { prefetchPointsPage, prefetchPointsSalePage } from '@/features/points/prefetch'
import { prefetchBookingsPage, prefetchRecentBookings } from '@/features/bookings/prefetch'
import { prefetchCouponPassPage, prefetchGogoPassPage, prefetchPassStatus } from '@/features/passes/prefetch'
import { prefetchPendingPayments } from '@/features/payment/prefetch'
import type { Access } from './routing/RouteGuard'
import { lazyPage, type LazyPage } from './routing/lazyPage'

// The home page's bookings and pass panel (the payments left for later come with every member page: preloadPage).
const prefetchHome = (qc: QueryClient) => Promise.all([prefetchRecentBookings(qc), prefetchPassStatus(qc)]).then(() => {})
const HomePage = lazyPage(() => import('./pages/HomePage'), ['bookings', 'passes', 'payment'], prefetchHome)
const LoginPage = lazyPage(() => import('./pages/LoginPage'), [])
const SorryPage = lazyPage(() => import('./pages/SorryPage'), [])
// The trips kept on this device, online too, without a session (the login page links to it: docs/offline.md).
const SavedTripsPage = lazyPage(() => import('@/features/bookings/offline/OfflinePage'), ['bookings'])
const AccountPage = lazyPage(() => import('@/features/account/pages/AccountPage'), ['account', 'security'], prefetchAccountPage)
const NotificationsPage = lazyPage(() => import('@/features/account/pages/NotificationsPage'), ['account', 'push'])
const PassengersPage = lazyPage(() => import('@/features/account/pages/PassengersPage'), ['account'])
const ResetPasswordPage = lazyPage(() => import('@/features/account/pages/ResetPasswordPage'), ['account'])
const ResetPasswordTokenPage = lazyPage(() => import('@/features/account/pages/ResetPasswordTokenPage'), ['account'])
const ResetPasswordInvalidPage = lazyPage(() => import('@/features/account/pages/ResetPasswordInvalidPage'), ['account'])
const EmailChangeLinkPage = lazyPage(() => import('@/features/account/pages/EmailChangeLinkPage'), ['account'])
const BookingsPage = lazyPage(() => import('@/features/bookings/pages/BookingsPage'), ['bookings', 'push'], prefetchBookingsPage)
const PaymentMethodsPage = lazyPage(() => import('@/features/payment/pages/PaymentMethodsPage'), ['payment'])
const PaymentPreparedPage = lazyPage(() => import('@/features/payment/pages/PaymentPreparedPage'), ['payment'])
const PaymentResultPage = lazyPage(() => import('@/features/payment/pages/PaymentResultPage'), ['payment'])
const PaymentCompletedPage = lazyPage(() => import('@/features/payment/pages/PaymentCompletedPage'), ['payment'])
const PendingPaymentsPage = lazyPage(() => import('@/features/payment/pages/PendingPaymentsPage'), ['payment'])
const PointsPage = lazyPage(() => import('@/features/points/pages/PointsPage'), ['points'], prefetchPointsPage)
const PointsSalePage = lazyPage(() => import('@/features/points/pages/PointsSalePage'), ['points', 'payment'], prefetchPointsSalePage)
const PointsReissuePage = lazyPage(() => import('@/features/points/pages/PointsReissuePage'), ['points'])
const PointsExchangePage = lazyPage(() => import('@/features/points/pages/PointsExchangePage'), ['points'])
const PointsExchangeAnaPage = lazyPage(() => import('@/features/points/pages/PointsExchangeAnaPage'), ['points'])
const SecurityCentrePage = lazyPage(() => import('@/features/security/pages/SecurityCentrePage'), ['security'])
const PasskeysPage = lazyPage(() => import('@/features/security/pages/PasskeysPage'), ['security'])
const YourDataPage = lazyPage(() => import('@/features/security/pages/YourDataPage'), ['security'])
const DeleteAccountPage = lazyPage(() => import('@/features/security/pages/DeleteAccountPage'), ['security'])
const AccountDeletedPage = lazyPage(() => import('@/features/security/pages/AccountDeletedPage'), ['security'])
const GogoPassPage = lazyPage(() => import('@/features/passes/pages/GogoPassPage'), ['passes', 'payment'], prefetchGogoPassPage)
const LotteryPage = lazyPage(() => import('@/features/passes/pages/LotteryPage'), ['passes'])
const LotteryCompletePage = lazyPage(() => import('@/features/passes/pages/LotteryCompletePage'), ['passes'])
const PassExchangePage = lazyPage(() => import('@/features/passes/pages/ExchangePage'), ['passes'])
const PassMaintenancePage = lazyPage(() => import('@/features/passes/pages/MaintenancePage'), ['passes'])
// The coupon page's block waits for the member's pending card payment.
const prefetchCouponPass = (qc: QueryClient) => Promise.all([prefetchCouponPassPage(qc), prefetchPendingPayments(qc, { card: true })]).then(() => {})
const CouponPassPage = lazyPage(() => import('@/features/passes/pages/CouponPassPage'), ['passes', 'payment'], prefetchCouponPass)
const MyPassesPage = lazyPage(() => import('@/features/passes/pages/MyPassesPage'), ['passes'])
// Another site of the airline (or a partner) signs the member in with this account (OpenID Connect).
const ConnectPage = lazyPage(() => import('@/features/connect/pages/ConnectPage'), ['connect'])

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
  { path: '/saved-trips', element: <SavedTripsPage loginLink />, access: 'static' },

  // account / passengers / reset password
  { path: '/account', element: <AccountPage />, access: 'member' },
  { path: '/account/notifications', element: <NotificationsPage />, access: 'member' },
  { path: '/passengers', element: <PassengersPage />, access: 'member' },
  { path: '/reset-password', element: <ResetPasswordPage />, access: 'anonymous' },
  { path: '/reset-password/invalid', element: <ResetPasswordInvalidPage />, access: 'anonymous' },
  { path: '/reset-password/:token', element: <ResetPasswordTokenPage />, access: 'anonymous' },
  // e-mail change links: they work with or without a session
  { path: '/email-change/confirm/:token', element: <EmailChangeLinkPage kind="confirm" />, access: 'static' },
  { path: '/email-change/undo/:token', element: <EmailChangeLinkPage kind="undo" />, access: 'static' },

  // bookings
  { path: '/bookings', element: <BookingsPage />, access: 'member' },

  // payment settings (saved cards), payment pages
  { path: '/payment-methods', element: <PaymentMethodsPage />, access: 'member' },
  { path: '/payment/:productType/:processId', element: <PaymentPreparedPage />, access: 'member' },
  { path: '/payment/:productType/:processId/result', element: <PaymentResultPage />, access: 'member' },
  { path: '/payment/:productType/:processId/completed', element: <PaymentCompletedPage />, access: 'member' },
  { path: '/payments/pending', element: <PendingPaymentsPage />, access: 'member' },

  // points
  { path: '/points', element: <PointsPage />, access: 'member' },
  { path: '/points/sale', element: <PointsSalePage />, access: 'member' },
  { path: '/points/reissue/:variant', element: <PointsReissuePage />, access: 'member' },
  { path: '/points/exchange', element: <PointsExchangePage />, access: 'member' },
  { path: '/points/exchange-ana', element: <PointsExchangeAnaPage />, access: 'member' },

  // unlimited pass, coupon pass
  { path: '/gogo-pass', element: <GogoPassPage />, access: 'member' },
  { path: '/gogo-pass/lottery', element: <LotteryPage />, access: 'member' },
  { path: '/gogo-pass/lottery/complete', element: <LotteryCompletePage />, access: 'member' },
  { path: '/gogo-pass/exchange', element: <PassExchangePage />, access: 'member' },
  { path: '/gogo-pass/maintenance', element: <PassMaintenancePage />, access: 'member' },
  { path: '/coupon-pass', element: <CouponPassPage />, access: 'member' },
  { path: '/my-passes', element: <MyPassesPage />, access: 'member' },

  // security centre, your data
  { path: '/security', element: <SecurityCentrePage />, access: 'member' },
  { path: '/security/passkeys', element: <PasskeysPage />, access: 'member' },
  { path: '/your-data', element: <YourDataPage />, access: 'member' },
  { path: '/delete-account/:token', element: <DeleteAccountPage />, access: 'member' },
  { path: '/account-deleted', element: <AccountDeletedPage />, access: 'static' },
  { path: '/connect', element: <ConnectPage />, access: 'member' },
]

/**
 * Starts what the page of the first address (main.tsx) waits for, all at
 * once, beside the shell's catalogue: the session check of a guarded page
 * (RouteGuard takes its answer from the cache), the page's chunk,
 * catalogues and data (routing/lazyPage.tsx), and the shell's data. A member page renders only
 * once the session is known; started by the first render, the check came a
 * round trip after the catalogue, and the page's chunk and data one more.
 *
 * Settles, never rejecting, once the page can render as it will be seen:
 * the session known and, if the page is the one shown (a member page with a
 * session, an anonymous page without one, a static page), its chunk,
 * catalogues and first data in, and the shell's. A page the guard redirects from is not waited for.
 */
export async function preloadPage(pathname: string, lang: string, queryClient: QueryClient): Promise<void> {
  const route = routes.find((r) => matchPath(r.path, pathname))
  if (!route) return
  const session = route.access !== 'static' ? queryClient.prefetchQuery(sessionQuery) : undefined
  const preload = () => ({
    page: isValidElement(route.element) ? (route.element.type as Partial<LazyPage<object>>).preload?.(lang, queryClient) : undefined,
    shell: Promise.all([
      prefetchShellData(queryClient, route.access === 'member'),
      // The member menu's entry for the payments left for later (and the home page's notice of them).
      route.access === 'member' ? prefetchPendingPayments(queryClient, { later: true }) : undefined,
    ]),
  })
  // A member page's data is asked for beside the check only when this
  // browser had a session (api/sessionHint.ts): a visitor sends no call
  // that would be refused.
  const early = route.access !== 'member' || hadSession() ? preload() : undefined
  if (session) {
    await session
    const loggedIn = queryClient.getQueryData(sessionQuery.queryKey) === true
    if (loggedIn !== (route.access === 'member')) return
  }
  const { page, shell } = early ?? preload()
  await Promise.all([page, shell])
}
