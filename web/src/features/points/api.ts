/**
 * The points feature's calls: one fetcher and hook per call; query keys in
 * pointKeys. The summary answers placeholder rows on any failure
 * but 403, the search an empty list on 500.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient, useSuspenseQuery, type QueryClient } from '@tanstack/react-query'
import type { Middleware } from 'openapi-fetch'
import { api } from '@/api/client'
import { ApiError, SessionTimedOutError, unwrap } from '@/api/errors'
import { prefetchedQuery } from '@/api/prefetched'
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

// What the startup prefetch brought is not asked for again on mount
// (prefetchedQuery); a new search, the refresh button, the network's return
// and a change of month or currency still ask.
const summary = prefetchedQuery(pointKeys.key('summary'), loadSummary)
export const summaryQuery = { ...summary.query, retry: false }

/**
 * The page's first data asked for at startup, beside the session check
 * (prefetch.ts): the summary, which the page waits for, and the first search,
 * the timeline and this month's expiring points, which it otherwise asked for
 * only once rendered, a round trip later, rendering again for each answer.
 */
export async function prefetchFirstData(qc: QueryClient): Promise<void> {
  await Promise.all([summary.prefetch(qc), search(FIRST_SEARCH, 0).prefetch(qc), timeline.prefetch(qc), expiredIn(monthJST(), FIRST_CURRENCY).prefetch(qc)])
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
const search = (q: PointQuery, submission: number) =>
  prefetchedQuery(pointKeys.key('search', q, submission), (signal, middleware) => searchPoints(q, signal, middleware))

export function usePointSearch(q: PointQuery | null, submission = 0) {
  return useQuery({
    ...search(q!, submission).query,
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

const timeline = prefetchedQuery(pointKeys.key('timeline'), async (signal, middleware) => unwrap(await api.GET('/api/peachpoints/timeline', { signal, middleware })))

export function useTimeline() {
  return useQuery(timeline.query)
}

const expiredIn = (month: string, currencyCode: string) =>
  prefetchedQuery(pointKeys.key('expiredIn', month, currencyCode), async (signal, middleware) =>
    unwrap(await api.GET('/api/peachpoints/expired_in', { params: { query: { month, currencyCode } }, signal, middleware })))

export function useExpiredIn(month: string, currencyCode: string) {
  return useQuery({
    ...expiredIn(month, currencyCode).query,
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
const salePreapply = prefetchedQuery(pointKeys.key('salePreapply'), loadSalePreapply)

export function useSalePreapply() {
  return useQuery(salePreapply.query)
}

/**
 * The sale page's first data asked for at startup, beside the session check
 * (prefetch.ts): the preapply check, which the page otherwise sent only once
 * rendered, a round trip later.
 */
export async function prefetchSaleData(qc: QueryClient): Promise<void> {
  await salePreapply.prefetch(qc)
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
