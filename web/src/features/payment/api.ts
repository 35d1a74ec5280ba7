/** The payment calls: one queryOptions or mutation hook per call. */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { api } from '@/api/client'
import { SessionTimedOutError, unwrap } from '@/api/errors'
import { prefetchedQuery } from '@/api/prefetched'
import { featureKeys } from '@/api/queryKeys'
import type { components } from '@/api/schema'

export type SavedCard = components['schemas']['CreditCard']
export type PaymentProcess = components['schemas']['PaymentProcess']
export type PaymentAvailability = components['schemas']['PaymentAvailability']
export type PaymentFields = components['schemas']['PaymentFields']
export type PendingPayment = components['schemas']['PendingPayment']
/** The products sold through the engine (the API's path segment). */
export type ProductType = 'peachpoints' | 'gogo_pass' | 'coupon_ticket'
export const PRODUCT_TYPES: readonly ProductType[] = ['peachpoints', 'gogo_pass', 'coupon_ticket']

export const paymentKeys = featureKeys('payment')

export const cardsQuery = queryOptions({
  queryKey: paymentKeys.key('cards'),
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/cc', { signal })).creditcards,
})
export const useCards = () => useQuery(cardsQuery)

export const availabilityQuery = (currency: string, productType: string) =>
  queryOptions({
    queryKey: paymentKeys.key('availability', currency, productType),
    queryFn: async ({ signal }) =>
      unwrap(await api.GET('/api/payment_availability', { params: { query: { currency, productType } }, signal })),
    staleTime: 5 * 60_000,
  })
export const useAvailability = (currency: string, productType: string) => useQuery({ ...availabilityQuery(currency, productType), enabled: currency !== '' })

// The member's pending card payment the startup prefetch brought is not asked for again on mount
// (prefetchedQuery); a payment sent invalidates it whatever its age.
const pending = prefetchedQuery(paymentKeys.key('pending'), async (signal, middleware) => unwrap(await api.GET('/api/cc/pending', { signal, middleware })))
export const pendingQuery = pending.query
export const usePendingPayment = (enabled = true) => useQuery({ ...pendingQuery, enabled })

/**
 * GET /api/payments/pending: the payments left for later (slip, QR,
 * challenge). Kept fresh for half a minute: the menu and the home page
 * read it on every page.
 */
const pendingPayments = prefetchedQuery(
  paymentKeys.key('pendingPayments'),
  async (signal, middleware) => unwrap(await api.GET('/api/payments/pending', { signal, middleware })).payments,
  30_000,
)
export const pendingPaymentsQuery = pendingPayments.query
export const usePendingPayments = (enabled = true) => useQuery({ ...pendingPaymentsQuery, enabled })

/**
 * A page's payment data asked for at startup, beside the session check
 * (prefetch.ts, through routes.tsx): the member's pending card payment (the
 * coupon pass page's block) and the payments left for later (the home
 * page's notice, the menu's entry). Without a session the answers are 403s
 * that nobody shows (silent, not retried, sent `beforeSession`).
 */
export async function prefetchPendingData(qc: QueryClient, which: { card?: boolean; later?: boolean }): Promise<void> {
  await Promise.all([which.card ? pending.prefetch(qc) : undefined, which.later ? pendingPayments.prefetch(qc) : undefined])
}

/** POST /api/payments/{id}/cancel: gives up a pending payment. */
export function useCancelPayment() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (paymentProcessId: string) =>
      unwrap(await api.POST('/api/payments/{paymentProcessId}/cancel', { params: { path: { paymentProcessId } } })),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: paymentKeys.key('pendingPayments') })
      void qc.invalidateQueries({ queryKey: paymentKeys.key('pending') })
    },
  })
}

export function useRegisterCard() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (body: { token: string; gateway: string; currency: string }) => unwrap(await api.POST('/api/cc/register', { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: paymentKeys.key('cards') }),
  })
}

/** DELETE /api/cc/{token}: true when the confirmation mail was sent (200), false when not (204). */
export function useDeleteCard() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (card: { token: string; gateway: string }) => {
      const res = await api.DELETE('/api/cc/{token}', { params: { path: { token: card.token }, query: { gateway: card.gateway } } })
      unwrap(res)
      return res.response.status === 200
    },
    onSettled: () => qc.invalidateQueries({ queryKey: paymentKeys.key('cards') }),
  })
}

/** Each product's purchase body as the API describes it: the payment fields and the product's own. */
export interface PurchaseBodies {
  peachpoints: components['schemas']['PurchasePeachpoints']
  gogo_pass: components['schemas']['PurchaseGogoPass']
  coupon_ticket: components['schemas']['PurchaseCouponTicket']
}
/** A product's own fields of its purchase body (the form's part; the payment panel adds the payment fields). */
export type ProductFields<P extends ProductType> = Omit<PurchaseBodies[P], keyof PaymentFields>
/** A product's purchase body as the page builds it: its form's fields and the payment panel's. */
export type PurchaseBody<P extends ProductType> = ProductFields<P> & PaymentFields

/** A product's purchase body: its own fields and the payment fields. */
export function purchaseBody<P extends ProductType>(fields: ProductFields<P>, payment: PaymentFields): PurchaseBody<P> {
  return { ...fields, ...payment }
}

/**
 * The buy calls of one product, on its own paths. Each product's entry
 * below is checked against that product's paths in the API description, and
 * the map is indexed by the product a hook was made for: a product's body
 * cannot be sent to another product's path (TypeScript's pattern for
 * correlated unions, a mapped type indexed by a generic key).
 */
interface BuyCalls<P extends ProductType> {
  validate: (body: PurchaseBody<P>) => Promise<components['schemas']['PaymentQuote']>
  buy: (body: PurchaseBody<P>) => Promise<PaymentProcess>
  continue: (paymentProcessId: string) => Promise<PaymentProcess>
}
const buyCalls: { [P in ProductType]: BuyCalls<P> } = {
  peachpoints: {
    validate: async (body) => unwrap(await api.POST('/api/peachpoints/buy/validate', { body })),
    buy: async (body) => unwrap(await api.POST('/api/peachpoints/buy', { body })),
    continue: async (paymentProcessId) =>
      unwrap(await api.POST('/api/peachpoints/buy/{paymentProcessId}/continue', { params: { path: { paymentProcessId } } })),
  },
  gogo_pass: {
    validate: async (body) => unwrap(await api.POST('/api/gogo_pass/buy/validate', { body })),
    buy: async (body) => unwrap(await api.POST('/api/gogo_pass/buy', { body })),
    continue: async (paymentProcessId) =>
      unwrap(await api.POST('/api/gogo_pass/buy/{paymentProcessId}/continue', { params: { path: { paymentProcessId } } })),
  },
  coupon_ticket: {
    validate: async (body) => unwrap(await api.POST('/api/coupon_ticket/buy/validate', { body })),
    buy: async (body) => unwrap(await api.POST('/api/coupon_ticket/buy', { body })),
    continue: async (paymentProcessId) =>
      unwrap(await api.POST('/api/coupon_ticket/buy/{paymentProcessId}/continue', { params: { path: { paymentProcessId } } })),
  },
}

export function useValidatePurchase<P extends ProductType>(productType: P) {
  const calls: BuyCalls<P> = buyCalls[productType]
  return useMutation({ mutationFn: (body: PurchaseBody<P>) => calls.validate(body) })
}

export function useBuy<P extends ProductType>(productType: P) {
  const qc = useQueryClient()
  const calls: BuyCalls<P> = buyCalls[productType]
  return useMutation({
    mutationFn: (body: PurchaseBody<P>) => calls.buy(body),
    onSuccess: (p) => qc.setQueryData(processQuery(p.paymentProcessId).queryKey, p),
  })
}

/** The continue calls' mutation key (its variables: the process id): a page can tell that this tab is paying an order. */
export const continueKey = paymentKeys.key('continue')

export function useContinue(productType: ProductType) {
  const qc = useQueryClient()
  return useMutation({
    mutationKey: continueKey,
    mutationFn: (id: string) => buyCalls[productType].continue(id),
    onSuccess: (p) => {
      qc.setQueryData(processQuery(p.paymentProcessId).queryKey, p)
      void qc.invalidateQueries({ queryKey: paymentKeys.key('pending') })
      void qc.invalidateQueries({ queryKey: paymentKeys.key('pendingPayments') })
    },
  })
}

/** Where the one-time secret of a settled process is kept for this page's life. */
export const secretKey = (paymentProcessId: string) => paymentKeys.key('secret', paymentProcessId)

/**
 * GET /api/payment_processes/{id}/status (any product). The server sends
 * the goods' secret (a voucher's PIN) in one answer only: whichever
 * request gets it keeps it under secretKey, so a later answer without it
 * cannot lose it. The request is not tied to the query's abort signal: a
 * page change must not drop the one answer that carries the secret.
 */
export const processQuery = (paymentProcessId: string) =>
  queryOptions({
    queryKey: paymentKeys.key('process', paymentProcessId),
    queryFn: async ({ client }) => {
      const p = unwrap(await api.GET('/api/payment_processes/{paymentProcessId}/status', { params: { path: { paymentProcessId } } }))
      if (p.secret) client.setQueryData(secretKey(paymentProcessId), p.secret)
      return p
    },
  })

/**
 * The status poll of the result page: every 2 s while the process is open,
 * and not after the session ended (the shell's login dialog is open; the
 * page asks again once the member is back).
 */
export const useProcessPoll = (paymentProcessId: string) =>
  useQuery({
    ...processQuery(paymentProcessId),
    refetchInterval: (q) =>
      q.state.data && (q.state.data.status === 'pending' || q.state.data.status === 'prepared') && !(q.state.error instanceof SessionTimedOutError)
        ? 2000
        : false,
  })

/**
 * Whether a payment page says the process was not found: its status call
 * failed for a reason of its own (404: missing or not the member's). A
 * session that ended is not that: the shell's login dialog opens, the page
 * keeps what it showed behind it, and reads the process again after the login.
 */
export function processMissing(q: { isError: boolean; error: unknown }): boolean {
  return q.isError && !(q.error instanceof SessionTimedOutError)
}

export function isProductType(s: string | undefined): s is ProductType {
  return s !== undefined && (PRODUCT_TYPES as readonly string[]).includes(s)
}
