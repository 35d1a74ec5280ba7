import '../payment.css'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { PageHeader } from '@/components/PageHeader'
import { usePendingPayments, type PendingPayment } from '../api'
import { PendingPaymentCard } from '../components/PendingPaymentCard'
import { startPath } from '../startPaths'

/**
 * /payments/pending: the member's payments left for later (a slip to pay
 * at a shop, an ATM or a bank; a QR payment; a card confirmation), each
 * with its deadline, its slip's numbers, Pay now and Cancel.
 */
export default function PendingPaymentsPage() {
  const { t } = useTranslation('payment')
  const list = usePendingPayments()
  const [cancelled, setCancelled] = useState<PendingPayment | null>(null)
  // the cancelled card is gone with the button that had the focus: the
  // focus goes to what happened, which links back to the purchase
  const outcome = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (cancelled) outcome.current?.focus()
  }, [cancelled])

  return (
    <div className="page payment-page">
      <PageHeader title={t('pendingPage.title')} />
      <p>{t('pendingPage.intro')}</p>
      {cancelled && (
        <div className="pay-notice pay-notice--done" role="status" ref={outcome} tabIndex={-1}>
          <p>{t('pendingPage.cancelled', { item: cancelled.description })}</p>
          <p><AppLink to={startPath(cancelled.productType)}>{t(`products.${cancelled.productType}`)}</AppLink></p>
        </div>
      )}
      {list.isLoading ? (
        <p role="status">{t('loading')}</p>
      ) : list.isError ? (
        <p className="pay-notice pay-notice--warn" role="alert">{t('errors.load')}</p>
      ) : (list.data ?? []).length === 0 ? (
        <>
          <p>{t('pendingPage.empty')}</p>
          <AppLink to="/" className="button button--secondary">{t('completed.home')}</AppLink>
        </>
      ) : (
        (list.data ?? []).map((p) => <PendingPaymentCard key={p.paymentProcessId} payment={p} onCancelled={setCancelled} />)
      )}
    </div>
  )
}
