import '../payment.css'
import { useEffect, useState } from 'react'
import { useParams } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { useLang, useTranslation } from '@/i18n/translation'
import { useModals } from '@/app/modals/modalContext'
import { useAppNavigate } from '@/app/routing/useAppNavigate'
import { ApiError, SessionTimedOutError, isPassMaintenance } from '@/api/errors'
import { formatMoney } from '@/i18n/format'
import { noBreak } from '@/i18n/noBreak'
import { isProductType, processMissing, processQuery, useContinue } from '../api'
import { PaymentSteps } from '../components/PaymentSteps'
import { OrderSummary } from '../components/OrderSummary'
import { PaymentWait } from '../components/PaymentWait'
import { OrderDetails } from '../components/OrderDetails'
import { PageHeader } from '@/components/PageHeader'
import { PaymentPageNotice } from '../components/PaymentPageNotice'

/** /payment/:productType/:processId: the prepared order (step 2); Pay continues it at the gateway. */
export default function PaymentPreparedPage() {
  const { productType = '', processId = '' } = useParams()
  const { t } = useTranslation('payment')
  const lang = useLang()
  const go = useAppNavigate()
  const modals = useModals()
  const process = useQuery(processQuery(processId))
  const cont = useContinue(isProductType(productType) ? productType : 'peachpoints')
  const [message, setMessage] = useState<string | null>(null)
  // Paid already (a reload while the card company answers, Back from its
  // confirmation page): the result page shows where it stands and updates.
  const status = process.data?.status
  const moveOn = status !== undefined && status !== 'prepared' && !cont.isPending && !message
  useEffect(() => {
    if (moveOn) go(`/payment/${productType}/${processId}/result`, { replace: true })
  }, [moveOn, go, productType, processId])

  if (!isProductType(productType)) return <PaymentPageNotice productType={productType}>{t('errors.notFound')}</PaymentPageNotice>
  if (processMissing(process))
    return (
      <PaymentPageNotice productType={productType} warn>
        {t('errors.notFound')}
      </PaymentPageNotice>
    )
  if (!process.data) return <PaymentPageNotice productType={productType}>{t('loading')}</PaymentPageNotice>
  const p = process.data
  const slip = p.paymentMethod === 'convenienceStore'

  function pay() {
    setMessage(null)
    cont.mutate(processId, {
      onSuccess: (res) => {
        if (res.status === 'pending' && res.nextAction) window.location.assign(res.nextAction.url)
        else go(`/payment/${productType}/${processId}/result`, { replace: true })
      },
      onError: (e) => {
        if (e instanceof SessionTimedOutError) return
        // Pay pressed once the pass's maintenance window opened: the order
        // was prepared before it, the payment may not start inside it.
        if (isPassMaintenance(e)) go('/gogo-pass/maintenance')
        // another window's order replaced this one: its result says so and links to that order
        else if (e instanceof ApiError && e.errorKey === 'payment_multiple_windows') go(`/payment/${productType}/${processId}/result`, { replace: true })
        else if (e instanceof ApiError && e.status === 409 && e.serverMessage) setMessage(e.serverMessage)
        else modals.openError({ error: e })
      },
    })
  }

  return (
    <div className="page payment-page">
      <PageHeader title={t(`products.${productType}`)} />
      <PaymentSteps current={2} />
      <h2>{t('prepared.title')}</h2>
      <OrderDetails process={p} />
      <OrderSummary process={p} methodOnly />
      {message && <p className="pay-notice pay-notice--warn" role="alert">{message}</p>}
      {p.status === 'prepared' && !message ? (
        <>
          {/* a slip is issued now and paid later, by its deadline: Pay would say the money moves now */}
          <p>{noBreak(t(slip ? 'prepared.slipText' : 'prepared.text', { amount: `<nobr>${formatMoney(p.amount, p.currency, lang)}</nobr>` }))}</p>
          <button type="button" className="button button--primary button--block" onClick={pay} disabled={cont.isPending}>
            {cont.isPending ? t('panel.working') : t(slip ? 'prepared.issueSlip' : 'prepared.pay')}
          </button>
        </>
      ) : (
        !message && <p role="status">{t('loading')}</p>
      )}
      {cont.isPending && <PaymentWait process={p} kind="sending" />}
    </div>
  )
}
