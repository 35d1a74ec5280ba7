import { PassStatusPanel } from '@/features/passes/components/PassStatusPanel'
import { useGogoPassCatalogue, useMyCoupons, useMyPasses } from '@/features/passes/api'
import { useQuery } from '@tanstack/react-query'
import { couponTicketStatusQuery, gogoPassStatusQuery, usePassStatus } from '@/api/platform'

/** SLOT for the passes feature: the home page's pass status panel. */
export function PassStatusSlot() {
  return <PassStatusPanel />
}

/**
 * Whether what the panel shows has arrived or a first attempt failed (the
 * same queries, shared through the cache): the panel sits above the upcoming
 * flights, and arriving later it would push them down the screen.
 */
export function usePassStatusSettled(): boolean {
  const status = usePassStatus()
  const settled = (q: { isLoading: boolean; failureCount: number }) => !q.isLoading || q.failureCount > 0
  return [
    useQuery(gogoPassStatusQuery(true)), useQuery(couponTicketStatusQuery(true)),
    useMyPasses(true), useMyCoupons(true), useGogoPassCatalogue(status.isGogoPassPublic, true),
  ].every(settled)
}
