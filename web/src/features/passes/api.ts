/**
 * The passes feature's calls (unlimited pass and coupon pass): one fetcher,
 * queryOptions and hook per call. Purchases go through the payment feature's
 * PaymentPanel (the generic …/buy endpoints).
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api } from '@/api/client'
import { couponTicketStatusQuery, gogoPassStatusQuery } from '@/api/platform'
import { unwrap } from '@/api/errors'
import { prefetchedQuery } from '@/api/prefetched'
import { featureKeys } from '@/api/queryKeys'
import type { components } from '@/api/schema'

type S = components['schemas']
export type GogoPassPlan = S['GogoPassPlan']
export type GogoPassPeriod = S['GogoPassPeriod']
export type GogoPassEntry = S['GogoPassEntry']
export type GogoPassCatalogue = S['GogoPassCatalogue']
export type GogoPassApplicable = S['GogoPassApplicable']
export type GogoPassSelection = S['GogoPassSelection']
export type GogoPassEntryConfirmation = S['GogoPassEntryConfirmation']
export type GogoPassExchangeOffer = S['GogoPassExchangeOffer']
export type PurchasedGogoPass = S['PurchasedGogoPass']
export type CouponProduct = S['CouponProduct']
export type CouponPeriod = S['CouponPeriod']
export type CouponPassenger = S['CouponPassenger']
export type CouponTicketQuote = S['CouponTicketQuote']
export type CouponPrepareRequest = S['CouponTicketPrepareRequest']
export type PurchasedCoupon = S['PurchasedCoupon']
export type FareType = 'happy' | 'happlus'
export type SavedPassenger = S['Passenger']

export const passKeys = featureKeys('passes')

// What the startup prefetch brought is not asked for again on mount (prefetchedQuery); a purchase or an entry invalidates it whatever its age.
const gogoPassCatalogue = prefetchedQuery(passKeys.key('catalogue'), async (signal, middleware) => unwrap(await api.GET('/api/gogo_pass', { signal, middleware })))
export const gogoPassCatalogueQuery = { ...gogoPassCatalogue.query, retry: false }
export const useGogoPassCatalogue = (enabled = true, silent = false) => useQuery({ ...gogoPassCatalogueQuery, enabled, meta: { silent } })

export const applicableQuery = queryOptions({
  queryKey: passKeys.key('applicable'),
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/gogo_pass/applicable', { signal })),
  retry: false,
})
export const useApplicable = (enabled = true) => useQuery({ ...applicableQuery, enabled })

const myPasses = prefetchedQuery(passKeys.key('mine'), async (signal, middleware) => unwrap(await api.GET('/api/user/gogo_pass', { signal, middleware })))
export const myPassesQuery = myPasses.query
export const useMyPasses = (silent = false) => useQuery({ ...myPassesQuery, meta: { silent } })

const myCoupons = prefetchedQuery(passKeys.key('coupons'), async (signal, middleware) => unwrap(await api.GET('/api/user/coupon_ticket', { signal, middleware })))
export const myCouponsQuery = myCoupons.query
export const useMyCoupons = (silent = false) => useQuery({ ...myCouponsQuery, meta: { silent } })

const couponProducts = prefetchedQuery(passKeys.key('couponProducts'), async (signal, middleware) =>
  unwrap(await api.GET('/api/coupon_ticket', { signal, middleware })).couponTickets ?? [])
export const couponProductsQuery = { ...couponProducts.query, retry: false }
export const useCouponProducts = (enabled = true) => useQuery({ ...couponProductsQuery, enabled })

/*
 * What a page of this feature asks for first, asked for at startup beside the
 * session check (prefetch.ts, through routes.tsx): it otherwise started only
 * once the page rendered, a round trip later, and the page rendered again
 * for each answer. Without a session the answers are 403s that nobody shows
 * (silent, not retried, sent `beforeSession`). A catalogue is asked for only
 * when the pass is on sale (the shell's pass flags, asked for at startup
 * too: the call under way is shared), as the page asks.
 */

/** The member's unlimited passes, and the catalogue when the pass is public. */
export async function prefetchGogoPassData(qc: QueryClient, { mine = true }: { mine?: boolean } = {}): Promise<void> {
  await Promise.all([
    qc.fetchQuery(gogoPassStatusQuery(true)).then((s) => (s.isGogoPassPublic ? gogoPassCatalogue.prefetch(qc) : undefined)),
    mine ? myPasses.prefetch(qc) : undefined,
  ])
}

/** The home page's pass panel: the member's passes and coupons, and the unlimited pass's catalogue when public. */
export async function prefetchPassStatusData(qc: QueryClient): Promise<void> {
  await Promise.all([prefetchGogoPassData(qc), myCoupons.prefetch(qc)])
}

/** The coupon pass page: the products when on sale, the country list and the member's saved passengers. */
export async function prefetchCouponPassData(qc: QueryClient): Promise<void> {
  await Promise.all([
    qc.fetchQuery(couponTicketStatusQuery(true)).then((s) => (s.isCouponTicketPublic ? couponProducts.prefetch(qc) : undefined)),
    countries.prefetch(qc),
    savedPassengers.prefetch(qc),
  ])
}

export function useValidateEntry() {
  return useMutation({
    mutationFn: async (body: GogoPassSelection) => unwrap(await api.POST('/api/gogo_pass/apply/validate', { body })),
  })
}

export function useApply() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (body: GogoPassSelection) => unwrap(await api.POST('/api/gogo_pass/apply', { body })).entry,
    onSuccess: () => qc.invalidateQueries({ queryKey: passKeys.all }),
  })
}

export interface ExchangeBody {
  code: string
  password: string
}

export function useValidateExchange() {
  return useMutation({
    mutationFn: async (body: ExchangeBody) => unwrap(await api.POST('/api/gogo_pass/exchange/validate', { body })),
  })
}

export function useExchange() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (body: ExchangeBody) => unwrap(await api.POST('/api/gogo_pass/exchange/exchange', { body })).purchasedGogoPass,
    onSuccess: () => qc.invalidateQueries({ queryKey: passKeys.all }),
  })
}

export function usePrepareCoupon() {
  return useMutation({
    mutationFn: async (body: CouponPrepareRequest) => unwrap(await api.POST('/api/coupon_ticket/buy/prepare', { body })).couponTicket,
  })
}

export function useRefundCoupon() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (id: string) => unwrap(await api.POST('/api/user/coupon_ticket/refund', { body: { id } })).couponTicket,
    onSettled: () => qc.invalidateQueries({ queryKey: passKeys.all }),
  })
}

const countries = prefetchedQuery(passKeys.key('countries'), async (signal, middleware) => unwrap(await api.GET('/api/masters/countries', { signal, middleware })), Infinity)
export const countriesQuery = countries.query
export const useCountries = () => useQuery(countriesQuery)

/** The member's saved passengers, to fill a coupon passenger from. */
const savedPassengers = prefetchedQuery(passKeys.key('saved-passengers'), async (signal, middleware) =>
  unwrap(await api.GET('/api/user/passengers', { signal, middleware })).passengers)
export const savedPassengersQuery = savedPassengers.query
export const useSavedPassengers = () => useQuery(savedPassengersQuery)
