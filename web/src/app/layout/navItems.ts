/** The navigation menu of spec §2 (labels are keys of the common catalogue). */
export const NAV_ITEMS = [
  { to: '/', label: 'nav.home' },
  { to: '/account', label: 'nav.account' },
  { to: '/bookings', label: 'nav.bookings' },
  { to: '/points', label: 'nav.points' },
  { to: '/payment-methods', label: 'nav.paymentMethods' },
] as const
