import { RecentBookings } from '@/features/bookings/components/RecentBookings'

/** SLOT for the bookings feature: the home page's recent bookings list. */
export function RecentBookingsSlot() {
  return <RecentBookings />
}
