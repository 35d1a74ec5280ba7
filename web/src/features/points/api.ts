/**
 * The points feature's calls: one fetcher and hook per call; query keys in
 * pointKeys. The summary answers placeholder rows on any failure
 * but 403, the search an empty list on 500.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, useSuspenseQuery, type QueryClient } from '@tanstack/react-query'
import type { Middleware } from 'openapi-fetch'
import { api, beforeSession } from '@/api/client'
import { ApiError, SessionTimedOutError, unwrap } from '@/api/errors'
import { featureKeys } from '@/api/queryKeys'
import type { components } from '@/api/schema'
import { monthJST, placeholderRows, summaryRows, type SummaryRow } from './rules'
import { searchDefaults } from './searchForm'

export type Peachpoint = components['schemas']['Peachpoint']
export type PeachpointList = components['schemas']['PeachpointList']
export type PeachpointDetail = components['schemas']['PeachpointDetail']
export type Timeline = components['schemas']['PeachpointTimeline']
export type IssueResult = components['schemas']['PeachpointIssueResult']
export type ExchangePreview = components['schemas']['PeachpointExchangePreview']
export type SaleOptions = components['schemas']['PeachpointSaleOptions']

export const pointKeys = featureKeys('points')

/** The summary as rows; on any failure but a timed-out session, placeholder rows of NaN. */
export async function loadSummary(signal?: AbortSignal, middleware?: Middleware[]): Promise<{ rows: SummaryRow[]; failed: boolean }> {
  try {
    return { rows: summaryRows(unwrap(await api.GET('/api/peachpoints/summary', { signal, middleware }))), failed: false }
  } catch (e) {
    if (e instanceof SessionTimedOutError || (e instanceof DOMException && e.name === 'AbortError')) throw e
    return { rows: placeholderRows(), failed: true }
  }
}

// Data the startup prefetch brought a moment before the page mounts is not
// asked for again on mount (a new search, the refresh button, the network's
// return and a change of month or currency still ask).
const PREFETCHED_FRESH_MS = 10_000

export const summaryQuery = queryOptions({
  queryKey: pointKeys.key('summary'),
  queryFn: ({ signal }) => loadSummary(signal),
  retry: false,
  staleTime: PREFETCHED_FRESH_MS,
})

/**
 * The page's first data asked for at startup, beside the session check
 * (prefetch.ts): the summary, which the page waits for, and the first search,
 * the timeline and this month's expiring points, which it otherwise asked for
 * only once rendered, a round trip later, rendering again for each answer.
 */
export async function prefetchFirstData(qc: QueryClient): Promise<void> {
  const early = { meta: { silent: true }, retry: false } as const
  const sent = [beforeSession]
  await Promise.all([
    qc.prefetchQuery({ ...summaryQuery, queryFn: ({ signal }) => loadSummary(signal, sent), meta: { silent: true } }),
    qc.prefetchQuery({ ...searchOptions(FIRST_SEARCH, 0), queryFn: ({ signal }) => searchPoints(FIRST_SEARCH, signal, sent), ...early }),
    qc.prefetchQuery({ ...timelineQuery, queryFn: ({ signal }) => loadTimeline(signal, sent), ...early }),
    qc.prefetchQuery({ ...expiredInOptions(monthJST(), FIRST_CURRENCY), queryFn: ({ signal }) => loadExpiredIn(monthJST(), FIRST_CURRENCY, signal, sent), ...early }),
  ])
}

/** The search the page opens with: the form's defaults, first page. */
export const FIRST_SEARCH: PointQuery = { ...searchDefaults, page: 1 }
/** The currency the expiring check opens with. */
export const FIRST_CURRENCY = 'JPY'

/**
 * The summary; refresh() repeats the load and cancels the one in flight.
 * The page suspends until the first load is in: the table is the top of the
 * page, and its rows (a card per currency on a phone) would push everything
 * below them down on arrival.
 */
export function useSummary() {
  const qc = useQueryClient()
  const q = useSuspenseQuery(summaryQuery)
  const refresh = async () => {
    // Abort the load in flight (also the first one, which refetch alone would join).
    await qc.cancelQueries({ queryKey: summaryQuery.queryKey })
    return q.refetch()
  }
  return { ...q, refresh }
}

/** The search condition. */
export interface PointQuery {
  currencyCode?: string
  expireDate?: string
  travelExpireDate?: string
  hasBalance: boolean
  isOnlyActive: boolean
  page: number
}

const EMPTY = (page: number): PeachpointList => ({ peachpoints: [], perPage: 10, currentPage: page, total: 0, totalPages: 0 })

export async function searchPoints(q: PointQuery, signal?: AbortSignal, middleware?: Middleware[]): Promise<PeachpointList> {
  const query = Object.fromEntries(Object.entries(q).filter(([, v]) => v !== '' && v !== undefined))
  try {
    return unwrap(await api.GET('/api/peachpoints', { params: { query }, signal, middleware }))
  } catch (e) {
    // 500 gives an empty list; validation and session errors go on.
    if (e instanceof ApiError && e.status === 500) return EMPTY(q.page)
    throw e
  }
}

/**
 * The points search: `submission` counts the submits, so each one (the same
 * condition again included) is its own query and asks the server.
 */
const searchOptions = (q: PointQuery, submission: number) =>
  queryOptions({
    queryKey: pointKeys.key('search', q, submission),
    queryFn: ({ signal }) => searchPoints(q, signal),
    staleTime: PREFETCHED_FRESH_MS,
  })

export function usePointSearch(q: PointQuery | null, submission = 0) {
  return useQuery({
    ...searchOptions(q!, submission),
    enabled: q !== null,
    placeholderData: keepPreviousData,
    retry: false,
    meta: { silent: true },
  })
}

export function useVoucher(number: string, enabled: boolean) {
  return useQuery({
    queryKey: pointKeys.key('voucher', number),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/api/peachpoints/vouchers/{pointNumber}', { params: { path: { pointNumber: number } }, signal })),
    enabled,
  })
}

const loadTimeline = async (signal?: AbortSignal, middleware?: Middleware[]) => unwrap(await api.GET('/api/peachpoints/timeline', { signal, middleware }))
const timelineQuery = queryOptions({ queryKey: pointKeys.key('timeline'), queryFn: ({ signal }) => loadTimeline(signal), staleTime: PREFETCHED_FRESH_MS })

export function useTimeline() {
  return useQuery(timelineQuery)
}

const loadExpiredIn = async (month: string, currencyCode: string, signal?: AbortSignal, middleware?: Middleware[]) =>
  unwrap(await api.GET('/api/peachpoints/expired_in', { params: { query: { month, currencyCode } }, signal, middleware }))
const expiredInOptions = (month: string, currencyCode: string) =>
  queryOptions({
    queryKey: pointKeys.key('expiredIn', month, currencyCode),
    queryFn: ({ signal }) => loadExpiredIn(month, currencyCode, signal),
    staleTime: PREFETCHED_FRESH_MS,
  })

export function useExpiredIn(month: string, currencyCode: string) {
  return useQuery({
    ...expiredInOptions(month, currencyCode),
    enabled: /^\d{4}-\d{2}$/.test(month) && currencyCode !== '',
    meta: { silent: true },
  })
}

export type SalePreapply = components['schemas']['PurchasePreapply'] & { blocked: boolean }

/**
 * POST /api/peachpoints/buy/preapply, before the sale form is filled: what is
 * on sale, or blocked (a payment of the member still pending answers 409
 * payment_pending; the page says so instead of offering the form).
 */
const loadSalePreapply = async (signal?: AbortSignal, middleware?: Middleware[]): Promise<SalePreapply> => {
  try {
    return { ...unwrap(await api.POST('/api/peachpoints/buy/preapply', { signal, middleware })), blocked: false }
  } catch (e) {
    if (e instanceof ApiError && e.errorKey === 'payment_pending') return { productType: 'peachpoints', currencies: [], blocked: true }
    throw e
  }
}
// Fresh for as long as the startup prefetch's answer (prefetchSaleData) is
// taken by the mount that follows it; a visit later than that asks again (what
// is on sale may have changed, a pending payment been paid).
const salePreapplyQuery = queryOptions({
  queryKey: pointKeys.key('salePreapply'),
  queryFn: ({ signal }) => loadSalePreapply(signal),
  staleTime: PREFETCHED_FRESH_MS,
})

export function useSalePreapply() {
  return useQuery(salePreapplyQuery)
}

/**
 * The sale page's first data asked for at startup, beside the session check
 * (prefetch.ts): the preapply check, which the page otherwise sent only once
 * rendered, a round trip later.
 */
export async function prefetchSaleData(qc: QueryClient): Promise<void> {
  await qc.prefetchQuery({ ...salePreapplyQuery, queryFn: ({ signal }) => loadSalePreapply(signal, [beforeSession]), meta: { silent: true }, retry: false })
}

export interface ReissueBody {
  pointNumber: string
  pin: string
  email: string
  /** the reissue page's currency (CNY or TWD) */
  currencyCode?: string
}

export function useReissue() {
  const qc = useQueryClient()
  return {
    validate: useMutation({
      mutationFn: async (body: ReissueBody) => unwrap(await api.POST('/api/peachpoints/reissue/validate', { body })),
    }),
    reissue: useMutation({
      mutationFn: async (body: ReissueBody) => unwrap(await api.POST('/api/peachpoints/reissue/reissue', { body })),
      onSuccess: () => qc.invalidateQueries({ queryKey: pointKeys.all }),
    }),
  }
}

export interface ExchangeBody {
  code: string
  password: string
  ana: boolean
}

export function useExchange() {
  const qc = useQueryClient()
  return {
    validate: useMutation({
      mutationFn: async (body: ExchangeBody) => unwrap(await api.POST('/api/peachpoints/exchange/validate', { body })),
    }),
    exchange: useMutation({
      mutationFn: async (body: ExchangeBody) => unwrap(await api.POST('/api/peachpoints/exchange/exchange', { body })),
      onSuccess: () => qc.invalidateQueries({ queryKey: pointKeys.all }),
    }),
  }
}
