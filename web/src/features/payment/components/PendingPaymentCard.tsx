import { useState } from 'react'
import { useLang, useTranslation } from '@/i18n/translation'
import { formatDateTime, formatMoney } from '@/i18n/format'
import { ApiError, SessionTimedOutError } from '@/api/errors'
import { useCancelPayment, type PendingPayment } from '../api'
import { CancelAsk } from './CancelAsk'
import { SlipNumbers } from './SlipNumbers'

/** How a pending payment is paid, in words ("Convenience store / ATM / internet banking", "PayPay", "Visa •••• 3220"). */
export function usePendingMethod(p: PendingPayment): string {
  const { t } = useTranslation('payment')
  if (p.paymentMethod === 'creditCard' && p.card) return `${t(`brands.${p.card.brand}`)} •••• ${p.card.last4}`
  if (p.paymentMethod === 'otherPayment') return t(`otherTypes.${p.otherPaymentType ?? ''}`)
  return t(`methods.${p.paymentMethod}`)
}

/**
 * One payment left for later: what it buys, the amount, the method, the
 * deadline (Japan time, labelled), the slip's numbers, Pay now (the
 * gateway's page) and Cancel (asked once more before it is done).
 */
export function PendingPaymentCard({ payment: p, onCancelled }: { payment: PendingPayment; onCancelled: (p: PendingPayment) => void }) {
  const { t } = useTranslation('payment')
  const lang = useLang()
  const method = usePendingMethod(p)
  const cancel = useCancelPayment()
  const [asking, setAsking] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const titleId = `pending-${p.paymentProcessId}`
  const isSlip = p.paymentMethod === 'convenienceStore'

  function doCancel() {
    setError(null)
    cancel.mutate(p.paymentProcessId, {
      onSuccess: () => onCancelled(p),
      onError: (e) => {
        if (e instanceof SessionTimedOutError) return
        setAsking(false)
        setError(e instanceof ApiError && e.serverMessage ? e.serverMessage : t('errors.load'))
      },
    })
  }

  return (
    <article className="card pending-payment" aria-labelledby={titleId}>
      <h2 id={titleId} className="pending-payment__title">{p.description}</h2>
      <dl className="order-summary">
        <div><dt>{t('summary.amount')}</dt><dd className="order-summary__amount">{formatMoney(p.amount, p.currency, lang)}</dd></div>
        <div><dt>{t('summary.method')}</dt><dd>{method}</dd></div>
        <div>
          <dt>{t('pendingPage.deadline')}</dt>
          <dd><strong>{t('pendingPage.japanTime', { time: formatDateTime(p.expiresAt, lang) })}</strong></dd>
        </div>
      </dl>
      {p.slip && <SlipNumbers slip={p.slip} />}
      <p className="pending-payment__hint">{isSlip ? t('pendingPage.slipLater') : t('pendingPage.payLater')}</p>
      {error && <p className="pay-notice pay-notice--warn" role="alert">{error}</p>}
      {asking ? (
        <CancelAsk id={titleId} busy={cancel.isPending} onYes={doCancel} onNo={() => setAsking(false)} />
      ) : (
        <div className="payment-page__actions">
          {p.payUrl && (
            <a className="button button--primary" href={p.payUrl}>{isSlip ? t('pendingPage.showSlip') : t('pendingPage.payNow')}</a>
          )}
          <button type="button" className="button button--secondary" onClick={() => setAsking(true)}>
            {t('pendingPage.cancel')}
          </button>
        </div>
      )}
    </article>
  )
}
