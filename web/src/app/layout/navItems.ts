import { usePassStatus } from '@/api/platform'

/** The navigation menu (labels are keys of the common catalogue). */
export const NAV_ITEMS = [
  { to: '/', label: 'nav.home' },
  { to: '/account', label: 'nav.account' },
  { to: '/bookings', label: 'nav.bookings' },
  { to: '/points', label: 'nav.points' },
  // the member's passes, while the operator has either pass public
  { to: '/my-passes', label: 'nav.passes', requires: 'passes' },
  { to: '/payment-methods', label: 'nav.paymentMethods' },
] as const

/** The menu's items for this member: the passes only while a pass is public. */
export function useNavItems(enabled: boolean) {
  const status = usePassStatus(enabled)
  const passes = status.isGogoPassPublic || status.isCouponTicketPublic
  return NAV_ITEMS.filter((item) => !('requires' in item) || passes)
}
