/**
 * The bookings feature's calls: one fetcher, queryOptions and hook per call.
 * Query keys live in bookingKeys; mutations invalidate by them.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { Middleware } from 'openapi-fetch'
import { api } from '@/api/client'
import { ApiError, SessionTimedOutError, ValidationError, unwrap } from '@/api/errors'
import { PREFETCHED_FRESH_MS, prefetchedQuery } from '@/api/prefetched'
import { featureKeys } from '@/api/queryKeys'
import type { components } from '@/api/schema'

export type Reservation = components['schemas']['Reservation']
export type Segment = components['schemas']['Segment']
export type ReservationResult = components['schemas']['ReservationResult']
export type OfferList = components['schemas']['OfferList']
export type Airport = components['schemas']['Airport']

export const bookingKeys = featureKeys('bookings')

/** The query of GET /api/reservations; every field optional. */
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
  changed?: boolean
}

/** Drops empty strings so the server sees "not given". */
function compact(q: ReservationQuery): ReservationQuery {
  return Object.fromEntries(Object.entries(q).filter(([, v]) => v !== '' && v !== undefined)) as ReservationQuery
}

/** What a search that answered 500 shows (the booking search gives an empty list, not an error). */
export function emptyResult(q: ReservationQuery): ReservationResult {
  return { reservations: [], perPage: q.perPage ?? 10, currentPage: q.page ?? 1, total: 0, totalPages: 0 }
}

export async function searchReservations(q: ReservationQuery, signal?: AbortSignal, middleware?: Middleware[]): Promise<ReservationResult> {
  try {
    return unwrap(await api.GET('/api/reservations', { params: { query: compact(q) }, signal, middleware }))
  } catch (e) {
    if (e instanceof ApiError && e.status === 500) return emptyResult(q)
    throw e
  }
}

export interface SearchState {
  /** The last condition that the server accepted; paging reuses it. */
  condition: ReservationQuery | null
  result: ReservationResult | null
  /** The 400 of the last submit: only the errors are stored, the results and condition stay. */
  validation: ValidationError | null
  /** Any other failure of the last submit (the caller shows the generic toast). */
  failure: unknown
  pending: boolean
}

/**
 * The booking search: every submit sends a request, even with the
 * same condition, and cancels the one in flight; success stores results,
 * paging and the condition; a 400 stores only its errors; a 500 is an empty
 * list (searchReservations). `first` is searched when the page opens, with
 * the state pending from the start: the page renders again for the answer
 * only (a mutation and a pending state had re-rendered it three times
 * more; docs/speed.md). On a visit's first address the startup prefetch
 * has asked for `first` already (firstSearchOptions): its answer, when in,
 * is the state from the first render on, and when still on its way, the
 * opening search waits for that call instead of sending another.
 */
export function useReservationSearch(first?: ReservationQuery) {
  const qc = useQueryClient()
  // The first search's answer, when the startup prefetch has it already (firstSearchOptions): no search on mount.
  const [prefetched] = useState(() => (first ? freshFirstSearch(qc, first) : undefined))
  const [state, setState] = useState<SearchState>(() =>
    prefetched && first
      ? { condition: first, result: prefetched, validation: null, failure: null, pending: false }
      : { condition: null, result: null, validation: null, failure: null, pending: first !== undefined },
  )
  const inflight = useRef<AbortController | null>(null)
  const search = useCallback(async (q: ReservationQuery, opening: boolean) => {
    inflight.current?.abort()
    const ctrl = new AbortController()
    inflight.current = ctrl
    // The same state object when nothing changes: no render.
    setState((s) => (s.pending && !s.validation && !s.failure ? s : { ...s, validation: null, failure: null, pending: true }))
    try {
      // The opening search takes the startup prefetch's call if it is still under way; every other one asks the server.
      const result = opening ? await qc.fetchQuery(firstSearchOptions(q)) : await searchReservations(q, ctrl.signal)
      if (ctrl.signal.aborted) return
      setState({ condition: q, result, validation: null, failure: null, pending: false })
    } catch (e) {
      if (ctrl.signal.aborted) return
      const validation = e instanceof ValidationError ? e : null
      // A 403 is the session timeout: the shell's modal handles it, no toast.
      const failure = validation || e instanceof SessionTimedOutError ? null : e
      setState((s) => ({ ...s, pending: false, validation, failure }))
    }
  }, [qc])
  const submit = useCallback((q: ReservationQuery) => search(q, false), [search])
  const firstRef = useRef(prefetched ? undefined : first)
  useEffect(() => {
    if (firstRef.current) void search(firstRef.current, true)
    return () => inflight.current?.abort()
  }, [search])
  return { ...state, submit }
}

// What the startup prefetch brought is not asked for again on mount (prefetchedQuery); an added booking invalidates it whatever its age.

/**
 * The bookings page's opening search (the address's, searchParams.ts
 * firstSearchOf), asked for at startup and taken by the page's first search
 * (useReservationSearch) while fresh. Only the opening search goes through
 * the cache: every later one (a submit, a page) asks the server.
 */
const firstSearch = (q: ReservationQuery) =>
  prefetchedQuery(bookingKeys.key('first-search', q), (signal, middleware) => searchReservations(q, signal, middleware))
export const firstSearchOptions = (q: ReservationQuery) =>
  // The page shows its own failures (useReservationSearch).
  ({ ...firstSearch(q).query, retry: false, meta: { silent: true } })

function freshFirstSearch(qc: QueryClient, q: ReservationQuery): ReservationResult | undefined {
  const state = qc.getQueryState<ReservationResult>(firstSearchOptions(q).queryKey)
  return state?.status === 'success' && Date.now() - state.dataUpdatedAt < PREFETCHED_FRESH_MS ? state.data : undefined
}

/**
 * The bookings page's first data, asked for at startup beside the session
 * check (prefetch.ts, through routes.tsx): the opening search and the
 * airports of the search form. The page otherwise asked for them once
 * rendered, a round trip later. Without a session the answers are 403s
 * that nobody shows (silent, not retried, sent `beforeSession`).
 */
export async function prefetchBookingsData(qc: QueryClient, first: ReservationQuery): Promise<void> {
  await Promise.all([firstSearch(first).prefetch(qc), airports.prefetch(qc)])
}

/** The home page's bookings (RecentBookings): the changed and the nearest ones, asked for at startup as the bookings page's. */
export async function prefetchRecentData(qc: QueryClient, today: string): Promise<void> {
  await Promise.all([changed.prefetch(qc), recent(today).prefetch(qc)])
}

/**
 * The home page's disrupted trips: every booking with a flight the airline
 * changed that has not left yet, whatever its date (changed=true), nearest first.
 */
export const changedQuery: ReservationQuery = { changed: true, status: 'all', perPage: 50, page: 1, order: 'asc', withFlightStatus: true, timeZone: '+09:00' }

const changed = prefetchedQuery(bookingKeys.key('changed'), (signal, middleware) => searchReservations(changedQuery, signal, middleware))

export function useChangedReservations() {
  return useQuery({ ...changed.query, meta: { silent: true } })
}

/** The home page's recent list: from today, ACTIVE, 5, ascending, with flight status. */
export function recentQuery(today: string): ReservationQuery {
  return { lastDepartDateFrom: today, status: 'ACTIVE', perPage: 5, page: 1, order: 'asc', withFlightStatus: true, timeZone: '+09:00' }
}

const recent = (today: string) =>
  prefetchedQuery(bookingKeys.key('recent', today), (signal, middleware) => searchReservations(recentQuery(today), signal, middleware))

export function useRecentReservations(today: string) {
  return useQuery({ ...recent(today).query, meta: { silent: true } })
}

const airports = prefetchedQuery(['airports'], async (signal, middleware) => unwrap(await api.GET('/api/masters/airports', { signal, middleware })) as Airport[], Infinity)

export function useAirports() {
  return useQuery(airports.query)
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

/**
 * Every way to the booking site (its booking search, and "Change
 * booking" for one PNR) goes through single sign-on: POST /api/sso/booking
 * gives the booking site's page, which signs the member in silently with
 * OpenID Connect (this site is its provider), so the member arrives
 * logged in. A booking already flown is refused (409).
 */
export function useBookingSiteSSO() {
  return useMutation({
    mutationFn: async (pnr?: string) => unwrap(await api.POST('/api/sso/booking', { body: pnr ? { pnr } : {} })),
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
