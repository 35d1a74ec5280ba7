/**
 * "Your calendar": a booking's .ics file and the member's private
 * subscription (state, renew, stop). Kept apart from api.ts so the calendar
 * parts of the bookings page stay self-contained.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import { prefetchedQuery } from '@/api/prefetched'
import type { components } from '@/api/schema'
import { bookingKeys } from './api'

export type CalendarSubscription = components['schemas']['CalendarSubscription']
export type NewCalendarSubscription = components['schemas']['NewCalendarSubscription']

/** The booking's iCalendar file, text in the page's language. */
export function calendarFileUrl(pnr: string, lang: string): string {
  return `/api/reservations/${encodeURIComponent(pnr)}/calendar.ics?${new URLSearchParams({ lang }).toString()}`
}

/** The same address with the webcal scheme, which calendar apps open as a subscription. */
export function webcalUrl(url: string): string {
  return url.replace(/^https?:\/\//, 'webcal://')
}

const subscriptionKey = bookingKeys.key('calendar-subscription')

// The startup prefetch's answer is not asked for again on mount (prefetchedQuery); a renewal or a stop invalidates it whatever its age.
const subscription = prefetchedQuery(subscriptionKey, async (signal, middleware) => unwrap(await api.GET('/api/calendar/subscription', { signal, middleware })))

export function useCalendarSubscription() {
  return useQuery(subscription.query)
}

/** The subscription's state, asked for at startup with the bookings page's search (prefetch.ts). */
export async function prefetchCalendarSubscription(qc: QueryClient): Promise<void> {
  await subscription.prefetch(qc)
}

export function useRenewCalendarSubscription() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/calendar/subscription')),
    onSuccess: () => qc.invalidateQueries({ queryKey: subscriptionKey }),
  })
}

export function useStopCalendarSubscription() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async () => {
      unwrap(await api.DELETE('/api/calendar/subscription'))
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: subscriptionKey }),
  })
}
