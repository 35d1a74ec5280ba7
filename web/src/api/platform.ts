/**
 * Hooks for the platform calls the shell makes. This file is also
 * the pattern for features: one fetcher, one queryOptions and one hook per call.
 */
import { queryOptions, useMutation, useQuery, type QueryClient } from '@tanstack/react-query'
import { api } from './client'
import { ApiError, NotAnsweringError, apiError, unwrap } from './errors'
import { platformKeys } from './queryKeys'
import { prefetchShellUser } from './user'
import { followEndedElsewhere, rememberSession } from './sessionHint'
import type { components } from './schema'

export type TopicBanner = components['schemas']['TopicBanner']
export type CookieConsent = components['schemas']['CookieConsent']
export type GogoPassStatus = components['schemas']['GogoPassStatus']
export type CouponTicketStatus = components['schemas']['CouponTicketStatus']
export type LoginRequest = components['schemas']['LoginRequest']

export const TOPIC_BANNER_STALE_MS = 5 * 60_000

/**
 * The session info: the session log id the footer shows and whether a
 * session exists. 200 for a visitor too, so a visitor's first load asks
 * nothing the server refuses (the browser logs every 4xx in the console).
 */
export const sessionInfoQuery = queryOptions({
  queryKey: platformKeys.sessionInfo,
  queryFn: async ({ signal }) => {
    const info = unwrap(await api.GET('/api/session/info', { signal }))
    followEndedElsewhere(info.signedOutElsewhere === true)
    return info
  },
  staleTime: Infinity,
  retry: false,
  meta: { silent: true },
})

/**
 * The session check: true when a session exists. It reads the session info
 * (one call for both: a session info call already under way is shared,
 * otherwise a fresh one is made, since a check must not answer from an
 * older info). Failures throw.
 */
export const sessionQuery = queryOptions({
  queryKey: platformKeys.session,
  queryFn: async ({ client }) => {
    const { loggedIn } = await answeredWithin(client.fetchQuery({ ...sessionInfoQuery, staleTime: 0 }), SESSION_CHECK_TIMEOUT_MS)
    rememberSession(loggedIn)
    return loggedIn
  },
  staleTime: Infinity,
  // No answer is said at once (the kept trips show); other failures once more.
  retry: (count, error) => !(error instanceof NotAnsweringError) && count < 1,
})

/** How long the session check waits for an answer before the app says the connection is not answering. */
export const SESSION_CHECK_TIMEOUT_MS = 8_000

/** p's value, or NotAnsweringError when it fails at the network level or takes longer than ms. */
async function answeredWithin<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NotAnsweringError()), ms)
  })
  try {
    return await Promise.race([p, late])
  } catch (e) {
    // An answer the server gave (an ApiError) is an answer; a fetch that failed (TypeError) or was cut is not.
    if (e instanceof ApiError || e instanceof NotAnsweringError) throw e
    if (e instanceof TypeError || (e instanceof DOMException && (e.name === 'TimeoutError' || e.name === 'AbortError'))) throw new NotAnsweringError(e)
    throw e
  } finally {
    clearTimeout(timer)
  }
}
export const useSessionInfo = () => useQuery(sessionInfoQuery)

export const cookieConsentQuery = queryOptions({
  queryKey: platformKeys.cookieConsent,
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/cookie_consent', { signal })),
  staleTime: Infinity,
  retry: false,
  meta: { silent: true },
})
export const useCookieConsent = () => useQuery(cookieConsentQuery)

export const topicBannerQuery = queryOptions({
  queryKey: platformKeys.topicBanner,
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/topic_banner', { signal })),
  staleTime: TOPIC_BANNER_STALE_MS,
  refetchInterval: TOPIC_BANNER_STALE_MS,
  retry: false,
  meta: { silent: true },
})
export const useTopicBanner = () => useQuery(topicBannerQuery)

const NO_GOGO_PASS: GogoPassStatus = { isGogoPassPublic: false, isGogoPassPurchasable: false, isGogoPassLotteryPhase: false, isGogoPassMaintenance: false }
const NO_COUPON: CouponTicketStatus = { isCouponTicketPublic: false }

/** Unlimited-pass flags; all false when the call fails or is not 200. */
export async function fetchGogoPassStatus(signal?: AbortSignal): Promise<GogoPassStatus> {
  try {
    const { data, response } = await api.GET('/api/gogo_pass_status', { signal })
    return response.status === 200 && data ? { ...NO_GOGO_PASS, ...data } : NO_GOGO_PASS
  } catch {
    return NO_GOGO_PASS
  }
}

/** Coupon-ticket flag; false when the call fails or is not 200. */
export async function fetchCouponTicketStatus(signal?: AbortSignal): Promise<CouponTicketStatus> {
  try {
    const { data, response } = await api.GET('/api/coupon_ticket_status', { signal })
    return response.status === 200 && data ? { ...NO_COUPON, ...data } : NO_COUPON
  } catch {
    return NO_COUPON
  }
}

export const gogoPassStatusQuery = (enabled: boolean) =>
  queryOptions({ queryKey: platformKeys.gogoPassStatus, queryFn: ({ signal }) => fetchGogoPassStatus(signal), enabled, staleTime: Infinity })
export const couponTicketStatusQuery = (enabled: boolean) =>
  queryOptions({ queryKey: platformKeys.couponTicketStatus, queryFn: ({ signal }) => fetchCouponTicketStatus(signal), enabled, staleTime: Infinity })

/** Pass flags for features that show or hide pass entries (false until loaded). */
export function usePassStatus(enabled = true) {
  const gogo = useQuery(gogoPassStatusQuery(enabled))
  const coupon = useQuery(couponTicketStatusQuery(enabled))
  return { ...(gogo.data ?? NO_GOGO_PASS), ...(coupon.data ?? NO_COUPON) }
}

/**
 * The shell's data on a visit's first address, asked for beside the session
 * check (app/routes.tsx preloadPage) so that the first render has it and the
 * header, banner and footer do not render again when it arrives: the
 * footer's session id and cookie consent on every page; on a member page the
 * pass flags, the topic banner and the member's name too. Settles, never
 * rejecting, once all are in or have failed.
 */
export async function prefetchShellData(qc: QueryClient, memberPage: boolean): Promise<void> {
  const calls = [qc.prefetchQuery(sessionInfoQuery), qc.prefetchQuery(cookieConsentQuery)]
  if (memberPage) {
    calls.push(
      qc.prefetchQuery(gogoPassStatusQuery(true)),
      qc.prefetchQuery(couponTicketStatusQuery(true)),
      qc.prefetchQuery(topicBannerQuery),
      prefetchShellUser(qc),
    )
  }
  await Promise.all(calls)
}

export async function login(body: LoginRequest): Promise<void> {
  unwrap(await api.POST('/api/session', { body }))
  rememberSession(true)
}

export async function logout(): Promise<void> {
  rememberSession(false)
  const { response, error } = await api.DELETE('/api/session')
  if (!response.ok && response.status !== 403) throw apiError(response.status, error)
}

export async function refreshSessionToken(): Promise<void> {
  unwrap(await api.POST('/api/session/token'))
}

export function useLoginMutation() {
  return useMutation({ mutationFn: login })
}

