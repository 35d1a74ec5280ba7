import { useCallback, useEffect, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useAppNavigate } from '@/app/routing/useAppNavigate'
import { useTranslation } from '@/i18n/translation'
import { continueKey, processQuery, type ProductType } from '../api'
import { PageHeader } from '@/components/PageHeader'

/** The order a sale page's history entry sent to payment (kept in the entry's state). */
interface SentOrder {
  paymentProcessId: string
  productType: ProductType
}

function sentOrderOf(state: unknown): SentOrder | null {
  const o = (state as { sentOrder?: Partial<SentOrder> } | null)?.sentOrder
  return o && typeof o.paymentProcessId === 'string' && typeof o.productType === 'string' ? (o as SentOrder) : null
}

/**
 * Records on the current history entry (the sale page) the order it sends
 * to payment, before the panel goes on to the confirm page: Back to this
 * entry then knows which payment it left (useReturnToSentOrder).
 */
export function useRecordSentOrder() {
  const location = useLocation()
  const navigate = useNavigate()
  return useCallback(
    (order: SentOrder) => {
      const state = typeof location.state === 'object' && location.state !== null ? location.state : {}
      navigate({ pathname: location.pathname, search: location.search, hash: location.hash }, { replace: true, state: { ...state, sentOrder: order } })
    },
    [location, navigate],
  )
}

/**
 * Back to a sale page from its payment: when the order this history entry
 * sent is being paid in this tab, or the server has it as more than
 * prepared (paying, paid, failed), the member goes to that payment's
 * result page instead of a blank sale form that invites a second payment.
 * An order left at its confirm page (still prepared) gives the form back.
 * True while the page must not show its form (being checked, or on the
 * way to the result).
 */
export function useReturnToSentOrder(): boolean {
  const location = useLocation()
  const go = useAppNavigate()
  // the entry as the page found it when it mounted: recording an order
  // later (useRecordSentOrder) does not send the page anywhere
  const [order] = useState(() => sentOrderOf(location.state))
  const id = order?.paymentProcessId ?? ''
  const qc = useQueryClient()
  // this tab's Pay still waiting for its answer when the page came back
  // (a method of the client, not useMutationState: that hook would join
  // the login page's first load)
  const [paying] = useState(() => order !== null && qc.isMutating({ mutationKey: continueKey, predicate: (m) => m.state.variables === order.paymentProcessId }) > 0)
  const process = useQuery({ ...processQuery(id), enabled: order !== null && !paying, refetchOnMount: 'always' })
  const underWay = order !== null && (paying || (process.isFetchedAfterMount && process.data !== undefined && process.data.status !== 'prepared'))
  useEffect(() => {
    if (underWay && order) go(`/payment/${order.productType}/${order.paymentProcessId}/result`, { replace: true })
  }, [underWay, order, go])
  if (order === null) return false
  return underWay || (!process.isFetchedAfterMount && !process.isError)
}

/** What a sale page shows instead of its form while useReturnToSentOrder is true: its title, and that it is loading. */
export function SentOrderCheck({ title }: { title: string }) {
  const { t } = useTranslation('payment')
  return (
    <div className="page">
      <PageHeader title={title} />
      <p role="status">{t('loading')}</p>
    </div>
  )
}
