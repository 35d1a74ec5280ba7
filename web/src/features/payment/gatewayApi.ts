/**
 * The calls only the pages that take a card make (the saved-cards page, the
 * purchase panel): apart from api.ts, which the shell imports for the
 * pending-payment link, so that the login page's first load stays as it is.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import { paymentKeys } from './api'

/**
 * The configured gateway (the same for every currency) and, for Stripe,
 * its publishable key: the saved-cards page asks for yen, which every
 * gateway takes.
 */
export const gatewayQuery = queryOptions({
  queryKey: paymentKeys.key('gateway'),
  queryFn: async ({ signal }) => {
    const a = unwrap(await api.GET('/api/payment_availability', { params: { query: { currency: 'JPY' } }, signal }))
    return { gateway: a.gateway ?? 'ndhk', publishableKey: a.publishableKey ?? '' }
  },
  staleTime: 5 * 60_000,
})
export const useGateway = () => useQuery(gatewayQuery)

/**
 * POST /api/cc/register/{setupId}/complete: after the card issuer's check
 * (3-D Secure) the member came back with ?setup=<setupId>; 200 saved,
 * 400 refused (validationErrors), 409 still waiting for the issuer.
 */
export function useCompleteCardSetup() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (setupId: string) => unwrap(await api.POST('/api/cc/register/{setupId}/complete', { params: { path: { setupId } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: paymentKeys.key('cards') }),
  })
}
