import { useEffect, useRef } from 'react'
import { useTranslation } from '@/i18n/translation'
import './pending.css'

interface Props {
  /** Unique prefix for the question's id (the group is labelled by it). */
  id: string
  busy: boolean
  onYes: () => void
  onNo: () => void
}

/**
 * "Cancel this payment?" asked in place before a waiting payment is given
 * up, wherever the member can cancel it (Pending payments, the result
 * page): cancelling cannot be undone. The question takes focus when it
 * opens, so keyboard and screen reader users land on it.
 */
export function CancelAsk({ id, busy, onYes, onNo }: Props) {
  const { t } = useTranslation('payment')
  const yes = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    yes.current?.focus()
  }, [])
  return (
    <div className="pay-notice pending-payment__confirm" role="group" aria-labelledby={`${id}-ask`}>
      <p id={`${id}-ask`}><strong>{t('pendingPage.cancelAsk')}</strong></p>
      <p>{t('pendingPage.cancelText')}</p>
      <div className="payment-page__actions">
        <button type="button" className="button button--primary" onClick={onYes} disabled={busy} ref={yes}>
          {busy ? t('panel.working') : t('pendingPage.cancelYes')}
        </button>
        <button type="button" className="button button--secondary" onClick={onNo} disabled={busy}>
          {t('pendingPage.cancelNo')}
        </button>
      </div>
    </div>
  )
}
