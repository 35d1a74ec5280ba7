import { RecentBookings } from '@/features/bookings/components/RecentBookings'
import { useRecentReservations } from '@/features/bookings/api'
import { todayJST } from '@/features/bookings/searchForm'

/** SLOT for the bookings feature: the home page's recent bookings list. */
export function RecentBookingsSlot() {
  return <RecentBookings />
}

/** Whether the recent bookings have arrived or a first attempt failed (the same query, shared through the cache). */
export function useRecentBookingsSettled(): boolean {
  const q = useRecentReservations(todayJST())
  return !q.isPending || q.failureCount > 0
}
