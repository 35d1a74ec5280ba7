import type { QueryClient } from '@tanstack/react-query'
import { prefetchBookingsData, prefetchRecentData } from './api'
import { prefetchCalendarSubscription } from './calendarApi'
import { queryOf, searchFromParams } from './searchParams'
import { todayJST } from './searchForm'

/** /bookings: the address's search (the defaults on a plain /bookings), the airports and the calendar subscription. */
export async function bookingsPageData(qc: QueryClient): Promise<void> {
  const first = queryOf(searchFromParams(new URLSearchParams(window.location.search)))
  await Promise.all([prefetchBookingsData(qc, first), prefetchCalendarSubscription(qc)])
}

/** The home page's bookings: the changed ones and the nearest. */
export async function recentBookingsData(qc: QueryClient): Promise<void> {
  await prefetchRecentData(qc, todayJST())
}
