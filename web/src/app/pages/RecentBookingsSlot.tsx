/**
 * SLOT for the bookings feature: the home page's recent bookings list.
 * The bookings engineer replaces the body with
 *   import { RecentBookings } from '@/features/bookings/components/RecentBookings'
 *   return <RecentBookings />
 * Until then it renders nothing.
 */
export function RecentBookingsSlot() {
  return null
}
