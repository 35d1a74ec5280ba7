/**
 * The security feature's calls: your data (export, deletion); one hook per call.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import { featureKeys } from '@/api/queryKeys'
import type { components } from '@/api/schema'
import { forgetPushIfAny } from '@/app/pwa/pushChoice'

export const securityKeys = featureKeys('security')

/** The export file (a plain link: the session cookie goes with it). */
export const EXPORT_URL = '/api/me/export'

/** The parts of the export, in the order the page explains them. */
export const EXPORT_PARTS = [
  'profile',
  'passengers',
  'bookings',
  'savedCards',
  'payments',
  'passes',
  'passLotteryEntries',
  'coupons',
  'points',
  'sessions',
  'securityEvents',
  'passkeys',
  'connectedSites',
  'pushDevices',
  'calendarSubscription',
  'mails',
] as const

export function useRequestDeletion() {
  return useMutation({
    mutationFn: async (password: string) => unwrap(await api.POST('/api/me/deletion', { body: { password } })),
  })
}

/** Whether the mailed confirmation link is still usable (404: not). */
export function useDeletionLink(token: string) {
  return useQuery({
    queryKey: securityKeys.key('deletion', token),
    queryFn: async () => {
      unwrap(await api.POST('/api/me/deletion/validate', { body: { token } }))
      return true
    },
    retry: false,
    meta: { silent: true },
  })
}

export type DeletionLosses = components['schemas']['DeletionLosses']

/** What a deletion now would forfeit, and the payment in flight that blocks it. */
export function useDeletionLosses(enabled: boolean) {
  return useQuery({
    queryKey: securityKeys.key('deletion-losses'),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/me/deletion/losses', { signal })),
    enabled,
  })
}

/** Deletes the account; acknowledged holds the ack of every loss the member confirmed. */
export function useConfirmDeletion() {
  return useMutation({
    mutationFn: async ({ token, acknowledged }: { token: string; acknowledged: string[] }) => {
      unwrap(await api.POST('/api/me/deletion/confirm', { body: { token, acknowledged } }))
    },
  })
}

export type SecuritySession = components['schemas']['SecuritySession']
export type SecurityEvent = components['schemas']['SecurityEvent']
export type SecurityDevice = components['schemas']['SecurityDevice']

const sessionsKey = securityKeys.key('sessions')
const eventsKey = securityKeys.key('events')

export function useSecuritySessions() {
  return useQuery({
    queryKey: sessionsKey,
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/security/sessions', { signal })).sessions,
  })
}

export function useSecurityEvents() {
  return useQuery({
    queryKey: eventsKey,
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/security/events', { signal })).events,
  })
}

/** Signs out one other session (id) or, without an id, every other one. */
export function useEndSessions() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (id?: string) => {
      if (id) unwrap(await api.DELETE('/api/security/sessions/{id}', { params: { path: { id } } }))
      else unwrap(await api.DELETE('/api/security/sessions'))
    },
    // a signed-out device's flight alerts go with its session
    onSuccess: () => Promise.all([qc.invalidateQueries({ queryKey: sessionsKey }), qc.invalidateQueries({ queryKey: eventsKey }),
      qc.invalidateQueries({ queryKey: pushDevicesKey })]),
  })
}

export type PushDevice = components['schemas']['PushDevice']
const pushDevicesKey = securityKeys.key('push-devices')

/** The devices that get the flight change alerts (Web Push), newest first. */
export function usePushDevices() {
  return useQuery({
    queryKey: pushDevicesKey,
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/push/devices', { signal })).devices,
  })
}

/** Switches the alerts off for one device; this device's own browser subscription ends too. */
export function useRemovePushDevice() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (d: PushDevice) => {
      unwrap(await api.DELETE('/api/push/devices/{id}', { params: { path: { id: d.id } } }))
      if (d.current) await forgetPushIfAny().catch(() => undefined)
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: pushDevicesKey }),
  })
}

export type ConnectedSite = components['schemas']['ConnectedSite']

const sitesKey = securityKeys.key('sites')

/** The sites that use the member's account (OpenID Connect clients granted). */
export function useConnectedSites() {
  return useQuery({
    queryKey: sitesKey,
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/security/sites', { signal })).sites,
  })
}

/** Takes back what the member granted a site; the site is logged out. */
export function useRevokeSite() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (clientId: string) => {
      unwrap(await api.DELETE('/api/security/sites/{clientId}', { params: { path: { clientId } } }))
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: sitesKey }),
  })
}
