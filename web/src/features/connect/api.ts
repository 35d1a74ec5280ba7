/**
 * The connect page's calls: a client's sign-in request, and the member's
 * answer. The request belongs to this browser (a cookie): another one
 * gets 404, as does a request that ran out or is done.
 */
import { useMutation, useQuery } from '@tanstack/react-query'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import { featureKeys } from '@/api/queryKeys'
import type { components } from '@/api/schema'

export const connectKeys = featureKeys('connect')

export type OidcRequest = components['schemas']['OidcRequest']
export type OidcScope = components['schemas']['OidcScope']

export function useOidcRequest(id: string) {
  return useQuery({
    queryKey: connectKeys.key('request', id),
    queryFn: async ({ signal }) => unwrap(await api.GET('/api/oidc/requests/{id}', { params: { path: { id } }, signal })),
    enabled: id !== '',
    retry: false,
    // Asked once: the answer changes only by the member's decision.
    staleTime: Infinity,
    meta: { silent: true },
  })
}

/** The member's answer; resolves to where the browser goes next. */
export function useDecideOidcRequest(id: string) {
  return useMutation({
    mutationFn: async (approve: boolean) =>
      unwrap(await api.POST('/api/oidc/requests/{id}', { params: { path: { id } }, body: { approve } })).redirectTo,
  })
}
