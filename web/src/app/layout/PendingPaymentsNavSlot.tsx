import { Suspense, lazy } from 'react'

// The menu's "Pending payments" item, with the payment feature's calls it
// needs, comes in a chunk of its own: only a member's menu shows it, and
// only once the list has come, so the login page's first load does not
// carry it (the script budget, docs/speed.md).
const PendingPaymentsNavItem = lazy(() =>
  import('@/features/payment/components/PendingPayments').then((m) => ({ default: m.PendingPaymentsNavItem })),
)

/** The member menu's pending-payments item (nothing while none is pending). */
export function PendingPaymentsNavSlot(props: { className: string; onClick?: () => void }) {
  return (
    <Suspense fallback={null}>
      <PendingPaymentsNavItem {...props} />
    </Suspense>
  )
}
