import { RecentBookings } from '@/features/bookings/components/RecentBookings'
import { useChangedReservations, useRecentReservations } from '@/features/bookings/api'
import { todayJST } from '@/features/bookings/searchForm'

/** SLOT for the bookings feature: the home page's recent bookings list. */
export function RecentBookingsSlot() {
  return <RecentBookings />
}

/** Whether the recent and the changed bookings have arrived or a first attempt failed (the same queries, shared through the cache). */
export function useRecentBookingsSettled(): boolean {
  const q = useRecentReservations(todayJST())
  const changed = useChangedReservations()
  return (!q.isPending || q.failureCount > 0) && (!changed.isPending || changed.failureCount > 0)
}
