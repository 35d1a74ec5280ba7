import '../calendar.css'
import { useId, useState } from 'react'
import { useLang, useTranslation } from '@/i18n/translation'
import { ConfirmDialog } from '@/components/Dialog'
import { useModals } from '@/app/modals/modalContext'
import { useToast } from '@/app/toast'
import { formatDateTime } from '@/i18n/format'
import {
  useCalendarSubscription,
  useRenewCalendarSubscription,
  useStopCalendarSubscription,
  webcalUrl,
  type NewCalendarSubscription,
} from '../calendarApi'

/**
 * The private calendar subscription: make, renew or stop a secret address
 * that keeps the member's flights in their calendar app. The address is
 * shown once, right after it is made (the server keeps only its hash).
 */
export function CalendarSubscription() {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  const headingId = useId()
  const modals = useModals()
  const toast = useToast()
  const state = useCalendarSubscription()
  const renew = useRenewCalendarSubscription()
  const stop = useStopCalendarSubscription()
  const [fresh, setFresh] = useState<NewCalendarSubscription | null>(null)

  const make = async () => {
    try {
      setFresh(await renew.mutateAsync())
    } catch {
      toast.showError()
    }
  }
  const confirm = (title: string, body: string, label: string, action: () => Promise<void>) =>
    modals.open((close, active) => (
      <ConfirmDialog title={title} close={close} active={active} cancelLabel={t('calendar.cancel')} confirmLabel={label} onConfirm={() => void action()} autoFocusConfirm>
        <p>{body}</p>
      </ConfirmDialog>
    ))
  const onStop = async () => {
    try {
      await stop.mutateAsync()
      setFresh(null)
    } catch {
      toast.showError()
    }
  }

  const active = state.data?.active ?? false
  return (
    <section className="card calendar-sub" aria-labelledby={headingId}>
      <h2 id={headingId} className="calendar-sub__title">
        {t('calendar.heading')}
      </h2>
      <p className="calendar-sub__lead">{t('calendar.lead')}</p>
      {state.isPending ? (
        <p role="status">{t('calendar.loading')}</p>
      ) : state.isError ? (
        <p className="form__error" role="alert">
          {t('calendar.loadError')}{' '}
          <button type="button" className="button button--ghost" onClick={() => void state.refetch()}>
            {t('calendar.retry')}
          </button>
        </p>
      ) : (
        <>
          {fresh && <FreshLink sub={fresh} />}
          {active && state.data?.createdAt && (
            <p className="calendar-sub__state" role="status">
              {t('calendar.activeSince', { date: formatDateTime(state.data.createdAt, lang) })}{' '}
              {state.data.lastUsedAt
                ? t('calendar.lastUsed', { date: formatDateTime(state.data.lastUsedAt, lang) })
                : t('calendar.neverUsed')}
            </p>
          )}
          <div className="actions">
            {!active ? (
              <button type="button" className="button button--primary" onClick={() => void make()} disabled={renew.isPending}>
                {t('calendar.create')}
              </button>
            ) : (
              <>
                <button
                  type="button"
                  className="button"
                  disabled={renew.isPending}
                  onClick={() => confirm(t('calendar.renewTitle'), t('calendar.renewBody'), t('calendar.renew'), make)}
                >
                  {t('calendar.renew')}
                </button>
                <button
                  type="button"
                  className="button button--ghost"
                  disabled={stop.isPending}
                  onClick={() => confirm(t('calendar.stopTitle'), t('calendar.stopBody'), t('calendar.stop'), onStop)}
                >
                  {t('calendar.stop')}
                </button>
              </>
            )}
          </div>
        </>
      )}
    </section>
  )
}

/** The new address, shown once, with copy and open-in-app. */
function FreshLink({ sub }: { sub: NewCalendarSubscription }) {
  const { t } = useTranslation('bookings')
  const inputId = useId()
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(sub.url)
      setCopied(true)
    } catch {
      // Clipboard refused (permissions): the field is selected for a manual copy.
      document.getElementById(inputId)?.focus()
    }
  }
  return (
    <div className="calendar-sub__fresh">
      <label className="field__label" htmlFor={inputId}>
        {t('calendar.urlLabel')}
      </label>
      <div className="calendar-sub__url">
        <input
          id={inputId}
          className="field__input"
          readOnly
          value={sub.url}
          onFocus={(e) => e.currentTarget.select()}
          translate="no"
          spellCheck={false}
        />
        <button type="button" className="button" onClick={() => void copy()}>
          {copied ? t('calendar.copied') : t('calendar.copy')}
        </button>
      </div>
      <p className="field__hint">{t('calendar.urlHint')}</p>
      <a className="button button--secondary" href={webcalUrl(sub.url)}>
        {t('calendar.openInApp')}
      </a>
    </div>
  )
}
