/** The account calls: one queryOptions or mutation hook per call (see src/api/platform.ts). */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import { platformKeys } from '@/api/queryKeys'
import type { components } from '@/api/schema'
import { eraseKeptTripsIfAny } from '@/app/pwa/keptFlag'
import { forgetPushIfAny } from '@/app/pwa/pushChoice'
import { accountKeys, emailChangeQuery, userQuery } from './firstData'

export type User = components['schemas']['User']
export type UserUpdate = components['schemas']['UserUpdate']
export type Passenger = components['schemas']['Passenger']
export type Country = components['schemas']['Country']
export type PassengerInput = components['schemas']['PassengerInput']

export { accountKeys, countriesQuery, emailChangeQuery, userQuery } from './firstData'

export const useUser = () => useQuery(userQuery)

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

export const useEmailChange = () => useQuery(emailChangeQuery)

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
    // A password change erases the trips kept on this device (docs/offline.md)
    // and ends its flight change alerts, as the server did for every device (docs/flight-alerts.md).
    onSuccess: () => Promise.all([eraseKeptTripsIfAny().catch(() => undefined), forgetPushIfAny().catch(() => undefined)]),
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
