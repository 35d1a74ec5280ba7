import type { QueryClient } from '@tanstack/react-query'

/*
 * The bookings pages' first data, asked for at startup beside the session
 * check and the page's chunk (routes.tsx, lazyPage's prefetch): api.ts
 * prefetchBookingsData and prefetchRecentData say what. The calls load in
 * chunks of their own (api.ts is in the offline chunk), which the shell's
 * bundle, and with it the login page, must not carry; one import() for
 * both, as each costs the shell's bundle its list of chunks.
 */
const load = () => import('./prefetchData')

/** /bookings: the address's search, the airports and the calendar subscription. */
export async function prefetchBookingsPage(qc: QueryClient): Promise<void> {
  await (await load()).bookingsPageData(qc)
}

/** The home page's bookings: the changed ones and the nearest. */
export async function prefetchRecentBookings(qc: QueryClient): Promise<void> {
  await (await load()).recentBookingsData(qc)
}
