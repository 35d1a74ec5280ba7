import '../payment.css'
import { useEffect, useRef } from 'react'
import { useParams } from 'react-router'
import { useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { useAppNavigate } from '@/app/routing/useAppNavigate'
import { processMissing, useProcessPoll } from '../api'
import { PaymentSteps } from '../components/PaymentSteps'
import { OrderSummary } from '../components/OrderSummary'
import { PaymentWait, waitKind } from '../components/PaymentWait'
import { retryPath } from '../startPaths'
import { PageHeader } from '@/components/PageHeader'
import { PaymentPageNotice, usePaymentTitle } from '../components/PaymentPageNotice'

/**
 * /payment/:productType/:processId/result: where the gateway sends the
 * member back, and where a reload or Back finds an open process again
 * (its id is in the address). Polls the status; while it waits it says
 * for what and what the member can do; settled goes on to "payment
 * completed" (keeping the one-time secret for it), failed and expired say so.
 */
export default function PaymentResultPage() {
  const { productType = '', processId = '' } = useParams()
  const { t } = useTranslation('payment')
  const go = useAppNavigate()
  const process = useProcessPoll(processId)
  const p = process.data
  const title = usePaymentTitle(productType)

  useEffect(() => {
    if (p && (p.status === 'settled' || p.status === 'refunded')) {
      go(`/payment/${productType}/${processId}/completed`, { replace: true })
    }
  }, [p, go, productType, processId])

  // the losing window of a two-window purchase: the other window's order replaced this one
  const replaced = p?.status === 'expired' && p.failureCode === 'superseded'
  const cancelled = p?.status === 'failed' && p.failureCode === 'canceled'
  // A payment that ends while the member is on the page (they cancelled it
  // here, or it failed or ran out): the focus goes to what happened, as it
  // was on the Cancel button that is gone now.
  const outcome = useRef<HTMLDivElement>(null)
  const seen = useRef(p?.status)
  useEffect(() => {
    const was = seen.current
    seen.current = p?.status
    if ((was === 'pending' || was === 'prepared') && (p?.status === 'failed' || p?.status === 'expired')) outcome.current?.focus()
  }, [p?.status])
  if (processMissing(process))
    return (
      <PaymentPageNotice productType={productType} warn>
        {t('errors.notFound')}
      </PaymentPageNotice>
    )
  if (!p || p.status === 'settled' || p.status === 'refunded') return <PaymentPageNotice productType={productType}>{t('loading')}</PaymentPageNotice>
  // back to the purchase, inside what happened: the focus lands on the
  // outcome, and its next stop is the way on
  const again = !p.replacedBy && (
    <p className="pay-notice__again"><AppLink to={retryPath(productType)} className="button button--primary">{t('result.again')}</AppLink></p>
  )
  return (
    <div className="page payment-page">
      <PageHeader title={title} />
      <PaymentSteps current={2} />
      <OrderSummary process={p} />
      {(p.status === 'pending' || p.status === 'prepared') && <PaymentWait process={p} kind={waitKind(p)} />}
      {p.status === 'failed' && (
        <div className={cancelled ? 'pay-notice pay-notice--done' : 'pay-notice pay-notice--warn'} role={cancelled ? 'status' : 'alert'} ref={outcome} tabIndex={-1}>
          <p><strong>{cancelled ? t('result.cancelled') : t('result.failed')}</strong></p>
          {cancelled ? (
            <p>{t('result.cancelledText')} {p.paymentMethod === 'convenienceStore' && t('result.cancelledSlip')}</p>
          ) : (
            <p>{t(`failure.${p.failureCode ?? 'failed'}`, { defaultValue: t('failure.failed') })}</p>
          )}
          {again}
        </div>
      )}
      {replaced && (
        <div className="pay-notice pay-notice--warn" role="alert" ref={outcome} tabIndex={-1}>
          <p><strong>{t('result.replaced')}</strong></p>
          <p>{t('result.replacedText')}</p>
          {p.replacedBy && (
            <p><AppLink to={`/payment/${p.replacedBy.productType}/${p.replacedBy.paymentProcessId}`}>{t('result.replacedLink')}</AppLink></p>
          )}
          {again}
        </div>
      )}
      {p.status === 'expired' && !replaced && (
        <div className="pay-notice pay-notice--warn" role="alert" ref={outcome} tabIndex={-1}>
          <p><strong>{t('result.expired')}</strong></p>
          {p.refundedAmount > 0 && <p>{t('result.refunded')}</p>}
          {again}
        </div>
      )}
    </div>
  )
}
