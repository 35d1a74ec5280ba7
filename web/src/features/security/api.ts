/**
 * The security feature's calls: your data (export, deletion); one hook per call.
 */
import { useMutation, useQuery } from '@tanstack/react-query'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import { featureKeys } from '@/api/queryKeys'

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

export function useConfirmDeletion() {
  return useMutation({
    mutationFn: async (token: string) => {
      unwrap(await api.POST('/api/me/deletion/confirm', { body: { token } }))
    },
  })
}
