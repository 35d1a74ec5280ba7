/**
 * "Your calendar": a booking's .ics file and the member's private
 * subscription (state, renew, stop). Kept apart from api.ts so the calendar
 * parts of the bookings page stay self-contained.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
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

export function useCalendarSubscription() {
  return useQuery({
    queryKey: subscriptionKey,
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/calendar/subscription', { signal })),
  })
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
