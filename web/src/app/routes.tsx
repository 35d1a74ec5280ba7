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

const HomePage = lazy(() => import('./pages/HomePage'))
const LoginPage = lazy(() => import('./pages/LoginPage'))
const SorryPage = lazy(() => import('./pages/SorryPage'))
const AccountPage = lazy(() => import('@/features/account/pages/AccountPage'))
const PassengersPage = lazy(() => import('@/features/account/pages/PassengersPage'))
const ResetPasswordPage = lazy(() => import('@/features/account/pages/ResetPasswordPage'))
const ResetPasswordTokenPage = lazy(() => import('@/features/account/pages/ResetPasswordTokenPage'))
const ResetPasswordInvalidPage = lazy(() => import('@/features/account/pages/ResetPasswordInvalidPage'))
const EmailChangeLinkPage = lazy(() => import('@/features/account/pages/EmailChangeLinkPage'))
const BookingsPage = lazy(() => import('@/features/bookings/pages/BookingsPage'))
const PaymentMethodsPage = lazy(() => import('@/features/payment/pages/PaymentMethodsPage'))
const PaymentPreparedPage = lazy(() => import('@/features/payment/pages/PaymentPreparedPage'))
const PaymentResultPage = lazy(() => import('@/features/payment/pages/PaymentResultPage'))
const PaymentCompletedPage = lazy(() => import('@/features/payment/pages/PaymentCompletedPage'))
const PointsPage = lazy(() => import('@/features/points/pages/PointsPage'))
const PointsSalePage = lazy(() => import('@/features/points/pages/PointsSalePage'))
const PointsReissuePage = lazy(() => import('@/features/points/pages/PointsReissuePage'))
const PointsExchangePage = lazy(() => import('@/features/points/pages/PointsExchangePage'))
const PointsExchangeAnaPage = lazy(() => import('@/features/points/pages/PointsExchangeAnaPage'))
const SecurityCentrePage = lazy(() => import('@/features/security/pages/SecurityCentrePage'))
const PasskeysPage = lazy(() => import('@/features/security/pages/PasskeysPage'))
const YourDataPage = lazy(() => import('@/features/security/pages/YourDataPage'))
const DeleteAccountPage = lazy(() => import('@/features/security/pages/DeleteAccountPage'))
const AccountDeletedPage = lazy(() => import('@/features/security/pages/AccountDeletedPage'))
const GogoPassPage = lazy(() => import('@/features/passes/pages/GogoPassPage'))
const LotteryPage = lazy(() => import('@/features/passes/pages/LotteryPage'))
const LotteryCompletePage = lazy(() => import('@/features/passes/pages/LotteryCompletePage'))
const PassExchangePage = lazy(() => import('@/features/passes/pages/ExchangePage'))
const PassMaintenancePage = lazy(() => import('@/features/passes/pages/MaintenancePage'))
const CouponPassPage = lazy(() => import('@/features/passes/pages/CouponPassPage'))
const MyPassesPage = lazy(() => import('@/features/passes/pages/MyPassesPage'))

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

  // account / passengers / reset password
  { path: '/account', element: <AccountPage />, access: 'member' },
  { path: '/passengers', element: <PassengersPage />, access: 'member' },
  { path: '/reset-password', element: <ResetPasswordPage />, access: 'anonymous' },
  { path: '/reset-password/invalid', element: <ResetPasswordInvalidPage />, access: 'anonymous' },
  { path: '/reset-password/:token', element: <ResetPasswordTokenPage />, access: 'anonymous' },
  // e-mail change links (security fixes, issue 7): they work with or without a session
  { path: '/email-change/confirm/:token', element: <EmailChangeLinkPage kind="confirm" />, access: 'static' },
  { path: '/email-change/undo/:token', element: <EmailChangeLinkPage kind="undo" />, access: 'static' },

  // bookings
  { path: '/bookings', element: <BookingsPage />, access: 'member' },

  // payment settings (saved cards), payment pages
  { path: '/payment-methods', element: <PaymentMethodsPage />, access: 'member' },
  { path: '/payment/:productType/:processId', element: <PaymentPreparedPage />, access: 'member' },
  { path: '/payment/:productType/:processId/result', element: <PaymentResultPage />, access: 'member' },
  { path: '/payment/:productType/:processId/completed', element: <PaymentCompletedPage />, access: 'member' },

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
]
