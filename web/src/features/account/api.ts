/** The account calls: one queryOptions or mutation hook per call (see src/api/platform.ts). */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import type { Middleware } from 'openapi-fetch'
import { api, beforeSession } from '@/api/client'
import { unwrap } from '@/api/errors'
import { featureKeys, platformKeys } from '@/api/queryKeys'
import type { components } from '@/api/schema'
import { eraseKeptTripsIfAny } from '@/app/pwa/keptFlag'

export type User = components['schemas']['User']
export type UserUpdate = components['schemas']['UserUpdate']
export type Passenger = components['schemas']['Passenger']
export type Country = components['schemas']['Country']
export type PassengerInput = components['schemas']['PassengerInput']

export const accountKeys = featureKeys('account')

/** Per-request middleware: `beforeSession` for the account page's startup prefetch (prefetchAccountPage). */
interface Sent {
  middleware?: Middleware[]
}

// Data the startup prefetch brought a moment before the page mounts is not
// asked for again on mount; a save invalidates it whatever its age.
const PREFETCHED_FRESH_MS = 10_000

const userOptions = (sent: Sent = {}) =>
  queryOptions({
    queryKey: [...platformKeys.user, 'full'] as const,
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/user', { params: { query: { disableCache: true } }, signal, ...sent })),
    staleTime: PREFETCHED_FRESH_MS,
  })
export const userQuery = userOptions()
export const useUser = () => useQuery(userQuery)

export const countriesQuery = (lang: string, sent: Sent = {}) =>
  queryOptions({
    queryKey: accountKeys.key('countries', lang),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/masters/countries', { signal, ...sent })),
    staleTime: Infinity,
  })

export const passengersQuery = queryOptions({
  queryKey: accountKeys.key('passengers'),
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/user/passengers', { signal })).passengers,
})
export const usePassengers = () => useQuery(passengersQuery)

export function useUpdateUser() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (body: UserUpdate) => unwrap(await api.PUT('/api/user', { body })),
    onSuccess: () => Promise.all([
      qc.invalidateQueries({ queryKey: platformKeys.user }),
      qc.invalidateQueries({ queryKey: accountKeys.key('emailChange') }),
    ]),
  })
}

export type PendingEmail = components['schemas']['PendingEmail']

/** The e-mail change waiting for its confirmation link (null when none). */
const emailChangeOptions = (sent: Sent = {}) =>
  queryOptions({
    queryKey: accountKeys.key('emailChange'),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/user/email_change', { signal, ...sent })).pending ?? null,
    staleTime: PREFETCHED_FRESH_MS,
  })
export const emailChangeQuery = emailChangeOptions()
export const useEmailChange = () => useQuery(emailChangeQuery)

/**
 * The account page's data, asked for when /account is the first address of a
 * visit, beside the session check and the page's chunk (routes.tsx, lazyPage). Without a
 * session the answers are 403s that nobody shows: silent, not retried, and
 * cleared by the login (SessionProvider); the session check sends the
 * visitor to the login page.
 */
export async function prefetchAccountPage(qc: QueryClient, lang: string): Promise<void> {
  const early = { meta: { silent: true }, retry: false } as const
  const sent = { middleware: [beforeSession] }
  await Promise.all([
    qc.prefetchQuery({ ...userOptions(sent), ...early }),
    qc.prefetchQuery({ ...emailChangeOptions(sent), ...early }),
    qc.prefetchQuery({ ...countriesQuery(lang, sent), ...early }),
  ])
}

export function useCancelEmailChange() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async () => unwrap(await api.DELETE('/api/user/email_change')),
    onSuccess: () => qc.invalidateQueries({ queryKey: accountKeys.key('emailChange') }),
  })
}

/** Follows a link mailed for an e-mail change: confirm (new address) or undo (old address). */
export function useEmailChangeLink(kind: 'confirm' | 'undo') {
  return useMutation({
    mutationFn: async (token: string) =>
      kind === 'confirm'
        ? unwrap(await api.POST('/api/email_change/confirm', { body: { token } }))
        : unwrap(await api.POST('/api/email_change/undo', { body: { token } })),
  })
}

/** POST /api/external_services/online_shop/register: links the member to the online shop (a repeat changes nothing). */
export function useRegisterOnlineShop() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/external_services/online_shop/register')),
    onSuccess: () => qc.invalidateQueries({ queryKey: platformKeys.user }),
  })
}

export function useChangePassword() {
  return useMutation({
    mutationFn: async (body: components['schemas']['PasswordChange']) => unwrap(await api.PUT('/api/user/password', { body })),
    // A password change erases the trips kept on this device (docs/offline.md).
    onSuccess: () => eraseKeptTripsIfAny().catch(() => undefined),
  })
}

export function useSavePassenger() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async ({ id, body }: { id?: string; body: PassengerInput }) =>
      id
        ? unwrap(await api.PUT('/api/user/passengers/{id}', { params: { path: { id } }, body }))
        : unwrap(await api.POST('/api/user/passengers', { body })),
    onSuccess: () => qc.invalidateQueries({ queryKey: accountKeys.key('passengers') }),
  })
}

export function useDeletePassenger() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (id: string) => unwrap(await api.DELETE('/api/user/passengers/{id}', { params: { path: { id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: accountKeys.key('passengers') }),
  })
}

export async function lookupPostalCode(country: string, zip: string) {
  const { data, response } = await api.GET('/api/postal_code_address', { params: { query: { country, zip } } })
  return response.ok && data ? data : null
}

export async function mailSuggestion(email: string): Promise<string | undefined> {
  const { data, response } = await api.GET('/api/masters/mailSuggests', { params: { query: { email } } })
  return response.ok ? data?.suggestion : undefined
}

export function useRequestReset() {
  return useMutation({
    mutationFn: async (email: string) => unwrap(await api.POST('/api/user/reset_password', { body: { email } })),
  })
}

/** true when the reset link is usable. */
export async function validateResetToken(token: string): Promise<boolean> {
  const { response } = await api.POST('/api/user/reset_password/validate', { body: { token } })
  return response.ok
}

export function useResetPassword() {
  return useMutation({
    mutationFn: async (body: components['schemas']['PasswordReset']) => unwrap(await api.PUT('/api/user/reset_password', { body })),
  })
}

export type NotificationSettings = components['schemas']['NotificationSettings']
export type NotificationSettingsUpdate = components['schemas']['NotificationSettingsUpdate']

/** Which optional mails the member gets and the language of every mail. */
export const notificationSettingsQuery = queryOptions({
  queryKey: accountKeys.key('notificationSettings'),
  queryFn: async ({ signal }) => unwrap(await api.GET('/api/user/notification_settings', { signal })),
})

export function useUpdateNotificationSettings() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (body: NotificationSettingsUpdate) => unwrap(await api.PUT('/api/user/notification_settings', { body })),
    onSuccess: (saved) => qc.setQueryData(notificationSettingsQuery.queryKey, saved),
  })
}
