import { useEffect, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useLang, useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { formatDateTime } from '@/i18n/format'
import { noBreak } from '@/i18n/noBreak'
import { ApiError, SessionTimedOutError } from '@/api/errors'
import { processQuery, useCancelPayment, type PaymentProcess } from '../api'
import { PENDING_PATH } from './PendingPayments'
import { CancelAsk } from './CancelAsk'
import { SlipNumbers } from './SlipNumbers'

/** What an open process is waiting for. */
export type WaitKind = 'sending' | 'bank' | 'challenge' | 'qr' | 'slip'

export function waitKind(p: PaymentProcess): WaitKind {
  if (p.status === 'prepared') return 'sending'
  if (p.paymentMethod === 'convenienceStore') return 'slip'
  if (p.nextAction) return p.paymentMethod === 'otherPayment' ? 'qr' : 'challenge'
  return 'bank'
}

/** Seconds since the component mounted, ticking every second while on. */
function useElapsed(on: boolean): number {
  const [start] = useState(() => Date.now())
  const [now, setNow] = useState(start)
  useEffect(() => {
    if (!on) return
    const id = window.setInterval(() => setNow(Date.now()), 1000)
    return () => window.clearInterval(id)
  }, [on])
  return Math.floor((now - start) / 1000)
}

/**
 * A waiting state that says what is happening and what the member can
 * do: the card company's answer (this page updates by itself, it can be
 * left or reloaded), the card company's confirmation or the QR payment
 * (continue there, or cancel), a slip (pay it later; see Pending
 * payments). After a minute without an answer it says so.
 */
export function PaymentWait({ process: p, kind }: { process: PaymentProcess; kind: WaitKind }) {
  const { t } = useTranslation('payment')
  const lang = useLang()
  const qc = useQueryClient()
  const cancel = useCancelPayment()
  const [error, setError] = useState<string | null>(null)
  const [asking, setAsking] = useState(false)
  const waiting = kind === 'sending' || kind === 'bank'
  const elapsed = useElapsed(waiting)
  const slow = waiting && elapsed >= 60

  function doCancel() {
    setError(null)
    cancel.mutate(p.paymentProcessId, {
      onSuccess: (res) => qc.setQueryData(processQuery(p.paymentProcessId).queryKey, res),
      onError: (e) => {
        if (e instanceof SessionTimedOutError) return
        setAsking(false)
        setError(e instanceof ApiError && e.serverMessage ? e.serverMessage : t('errors.load'))
        void qc.invalidateQueries({ queryKey: processQuery(p.paymentProcessId).queryKey })
      },
    })
  }

  return (
    <div className="payment-wait" role="status" aria-live="polite">
      {waiting && <span className="spinner" aria-hidden="true" />}
      <p><strong>{t(`wait.${kind}.title`)}</strong></p>
      <p>{noBreak(t(`wait.${kind}.text`, { deadline: t('pendingPage.japanTime', { time: formatDateTime(p.expiresAt, lang) }) }))}</p>
      {slow && <p>{t('wait.slow')}</p>}
      {/* back from the gateway's slip page: the numbers to pay with, here too */}
      {kind === 'slip' && p.slip && <SlipNumbers slip={p.slip} headingLevel={2} />}
      {error && <p className="pay-notice pay-notice--warn" role="alert">{error}</p>}
      {!waiting && asking && (
        <CancelAsk id={`wait-${p.paymentProcessId}`} busy={cancel.isPending} onYes={doCancel} onNo={() => setAsking(false)} />
      )}
      {!waiting && !asking && (
        <div className="payment-page__actions">
          {p.nextAction && <a className="button button--primary" href={p.nextAction.url}>{t(`wait.${kind}.go`)}</a>}
          {kind === 'slip' && <AppLink to={PENDING_PATH} className="button button--secondary">{t('pendingPage.open')}</AppLink>}
          <button type="button" className="button button--secondary" onClick={() => setAsking(true)}>
            {t('pendingPage.cancel')}
          </button>
        </div>
      )}
    </div>
  )
}
