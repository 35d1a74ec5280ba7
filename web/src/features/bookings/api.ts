/**
 * The bookings feature's calls: one fetcher, queryOptions and hook per call.
 * Query keys live in bookingKeys; mutations invalidate by them.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, keepPreviousData } from '@tanstack/react-query'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import { featureKeys } from '@/api/queryKeys'
import type { components } from '@/api/schema'

export type Reservation = components['schemas']['Reservation']
export type Segment = components['schemas']['Segment']
export type ReservationResult = components['schemas']['ReservationResult']
export type OfferList = components['schemas']['OfferList']
export type Airport = components['schemas']['Airport']

export const bookingKeys = featureKeys('bookings')

/** The query of GET /api/reservations (spec §7); every field optional. */
export interface ReservationQuery {
  pnr?: string
  airportCode?: string
  departDateFrom?: string
  departDateTo?: string
  lastDepartDateFrom?: string
  lastDepartDateTo?: string
  bookingDateFrom?: string
  bookingDateTo?: string
  status?: 'ACTIVE' | 'all'
  order?: 'asc' | 'desc'
  page?: number
  perPage?: number
  withFlightStatus?: boolean
  timeZone?: string
  form?: 'search'
}

/** Drops empty strings so the server sees "not given". */
function compact(q: ReservationQuery): ReservationQuery {
  return Object.fromEntries(Object.entries(q).filter(([, v]) => v !== '' && v !== undefined)) as ReservationQuery
}

export async function searchReservations(q: ReservationQuery, signal?: AbortSignal): Promise<ReservationResult> {
  return unwrap(await api.GET('/api/reservations', { params: { query: compact(q) }, signal }))
}

/** A search; a new condition aborts the request of the previous one (react-query passes the signal). */
export const reservationSearchQuery = (q: ReservationQuery | null) =>
  queryOptions({
    queryKey: bookingKeys.key('search', q),
    queryFn: ({ signal }) => searchReservations(q ?? {}, signal),
    enabled: q !== null,
    placeholderData: keepPreviousData,
    retry: false,
  })

export function useReservationSearch(q: ReservationQuery | null) {
  return useQuery(reservationSearchQuery(q))
}

/** The home page's recent list (spec §7): from today, ACTIVE, 5, ascending, with flight status. */
export function recentQuery(today: string): ReservationQuery {
  return { lastDepartDateFrom: today, status: 'ACTIVE', perPage: 5, page: 1, order: 'asc', withFlightStatus: true, timeZone: '+09:00' }
}

export function useRecentReservations(today: string) {
  return useQuery({
    queryKey: bookingKeys.key('recent', today),
    queryFn: ({ signal }) => searchReservations(recentQuery(today), signal),
    meta: { silent: true },
  })
}

export function useAirports() {
  return useQuery({
    queryKey: ['airports'],
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/masters/airports', { signal })) as Airport[],
    staleTime: Infinity,
  })
}

export function useAddReservation() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (body: { pnr: string; lastname: string }) => unwrap(await api.POST('/api/reservations', { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: bookingKeys.all }),
  })
}

export function useSendItinerary() {
  return useMutation({
    mutationFn: async (pnr: string) => unwrap(await api.POST('/api/reservations/{PNR}/sendmail', { params: { path: { PNR: pnr } } })),
  })
}

/** Edit: asks for a signed hand-over and goes to the booking site. */
export function useEditReservation() {
  return useMutation({
    mutationFn: async (pnr: string) => unwrap(await api.POST('/api/reservations/{PNR}/edit', { params: { path: { PNR: pnr } } })),
  })
}

export function useOffers(pnr: string, key: string, kind: 'hotel' | 'rental', enabled: boolean) {
  return useQuery({
    queryKey: bookingKeys.key('offers', pnr, key, kind),
    queryFn: async ({ signal }) =>
      kind === 'hotel'
        ? unwrap(await api.GET('/api/reservations/{PNR}/{key}/widgets/hotel', { params: { path: { PNR: pnr, key } }, signal }))
        : unwrap(await api.GET('/api/reservations/{PNR}/{key}/widgets/rental', { params: { path: { PNR: pnr, key } }, signal })),
    enabled,
    staleTime: 5 * 60_000,
  })
}

/** URL of a PDF document, opened by the browser (GET with the session cookie; lang picks the language). */
export function documentUrl(path: string, lang: string, query: Record<string, string> = {}): string {
  const q = new URLSearchParams({ ...query, lang })
  return `${path}?${q.toString()}`
}
