/**
 * The passes feature's calls (unlimited pass and coupon pass): one fetcher,
 * queryOptions and hook per call. Purchases go through the payment feature's
 * PaymentPanel (the generic …/buy endpoints).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
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

export const gogoPassCatalogueQuery = queryOptions({
  queryKey: passKeys.key('catalogue'),
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/gogo_pass', { signal })),
  retry: false,
})
export const useGogoPassCatalogue = (enabled = true, silent = false) => useQuery({ ...gogoPassCatalogueQuery, enabled, meta: { silent } })

export const applicableQuery = queryOptions({
  queryKey: passKeys.key('applicable'),
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/gogo_pass/applicable', { signal })),
  retry: false,
})
export const useApplicable = (enabled = true) => useQuery({ ...applicableQuery, enabled })

export const myPassesQuery = queryOptions({
  queryKey: passKeys.key('mine'),
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/user/gogo_pass', { signal })),
})
export const useMyPasses = (silent = false) => useQuery({ ...myPassesQuery, meta: { silent } })

export const myCouponsQuery = queryOptions({
  queryKey: passKeys.key('coupons'),
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/user/coupon_ticket', { signal })),
})
export const useMyCoupons = (silent = false) => useQuery({ ...myCouponsQuery, meta: { silent } })

export const couponProductsQuery = queryOptions({
  queryKey: passKeys.key('couponProducts'),
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/coupon_ticket', { signal })).couponTickets ?? [],
  retry: false,
})
export const useCouponProducts = (enabled = true) => useQuery({ ...couponProductsQuery, enabled })

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

export const countriesQuery = queryOptions({
  queryKey: passKeys.key('countries'),
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/masters/countries', { signal })),
  staleTime: Infinity,
})
export const useCountries = () => useQuery(countriesQuery)

/** The member's saved passengers, to fill a coupon passenger from. */
export const savedPassengersQuery = queryOptions({
  queryKey: passKeys.key('saved-passengers'),
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/user/passengers', { signal })).passengers,
})
export const useSavedPassengers = () => useQuery(savedPassengersQuery)
