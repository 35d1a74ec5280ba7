import '../security.css'
import { useTranslation } from '@/i18n/translation'
import { ConfirmDialog } from '@/components/Dialog'
import { AppLink } from '@/app/routing/AppLink'
import { useModals } from '@/app/modals/modalContext'
import { useToast } from '@/app/toast'
import { JapanTime } from '@/components/JapanTime'
import { useEndSessions, useSecurityEvents, useSecuritySessions, type SecurityDevice, type SecuritySession } from '../api'
import { PageHeader } from '@/components/PageHeader'

/** /security: the sessions signed in to the account and the recent security events. */
export default function SecurityCentrePage() {
  const { t } = useTranslation('security')
  return (
    <div className="page security-centre">
      <PageHeader title={t('centre.title')} />
      <p className="security-centre__lead">{t('centre.lead')}</p>
      <Sessions />
      <Events />
      <section className="card" aria-labelledby="centre-more">
        <h2 id="centre-more">{t('centre.moreTitle')}</h2>
        <div className="button-row">
          <AppLink to="/security/passkeys" className="button">
            {t('passkeys.title')}
          </AppLink>
          <AppLink to="/account" className="button">
            {t('centre.changePassword')}
          </AppLink>
          <AppLink to="/your-data" className="button">
            {t('data.title')}
          </AppLink>
        </div>
      </section>
    </div>
  )
}

function useDeviceLabel() {
  const { t } = useTranslation('security')
  return (d: SecurityDevice) => {
    const name = [d.browser, d.os].filter(Boolean).join(' · ') || t('centre.unknownDevice')
    return `${name} (${t(`centre.kind.${d.kind}`)})`
  }
}

function Sessions() {
  const { t } = useTranslation('security')
  const modals = useModals()
  const toast = useToast()
  const sessions = useSecuritySessions()
  const end = useEndSessions()
  const device = useDeviceLabel()

  const run = (id?: string) =>
    end.mutate(id, {
      onError: () => toast.showError(),
    })
  const confirmAll = () =>
    modals.open((close, active) => (
      <ConfirmDialog title={t('centre.endAllTitle')} close={close} active={active} cancelLabel={t('centre.cancel')} confirmLabel={t('centre.endAll')} onConfirm={() => run()} autoFocusConfirm>
        <p>{t('centre.endAllBody')}</p>
      </ConfirmDialog>
    ))

  const others = (sessions.data ?? []).filter((s) => !s.current).length
  return (
    <section className="card" aria-labelledby="sessions-title" aria-busy={sessions.isFetching}>
      <h2 id="sessions-title">{t('centre.sessionsTitle')}</h2>
      {sessions.isPending ? (
        <p role="status">{t('centre.loading')}</p>
      ) : sessions.isError ? (
        <p className="form__error" role="alert">
          {t('centre.loadError')}
        </p>
      ) : (
        <>
          <ul className="session-list">
            {sessions.data.map((s: SecuritySession) => (
              <li key={s.id} className={`session${s.current ? ' session--current' : ''}`}>
                <div className="session__main">
                  <strong>{device(s.device)}</strong>
                  {s.current && <span className="session__badge">{t('centre.thisDevice')}</span>}
                </div>
                <dl className="session__facts">
                  <dt>{t('centre.place')}</dt>
                  <dd>
                    <span translate="no">{s.clientAddress || '—'}</span> · {t(`centre.network.${s.network}`)}
                  </dd>
                  <dt>{t('centre.signedIn')}</dt>
                  <dd><JapanTime value={s.signedInAt} /></dd>
                  <dt>{t('centre.lastActivity')}</dt>
                  <dd><JapanTime value={s.lastActivityAt} /></dd>
                </dl>
                {!s.current && (
                  <button
                    type="button"
                    className="button"
                    disabled={end.isPending}
                    onClick={() => run(s.id)}
                    aria-label={t('centre.endOneLabel', { device: device(s.device) })}
                  >
                    {t('centre.endOne')}
                  </button>
                )}
              </li>
            ))}
          </ul>
          {others > 0 ? (
            <button type="button" className="button button--secondary" onClick={confirmAll} disabled={end.isPending}>
              {t('centre.endAll')}
            </button>
          ) : (
            <p className="field__hint">{t('centre.onlyThis')}</p>
          )}
        </>
      )}
    </section>
  )
}

function Events() {
  const { t } = useTranslation('security')
  const events = useSecurityEvents()
  const device = useDeviceLabel()
  return (
    <section className="card" aria-labelledby="events-title">
      <h2 id="events-title">{t('centre.eventsTitle')}</h2>
      <p className="field__hint">{t('centre.eventsHint')}</p>
      {events.isPending ? (
        <p role="status">{t('centre.loading')}</p>
      ) : events.isError ? (
        <p className="form__error" role="alert">
          {t('centre.loadError')}
        </p>
      ) : events.data.length === 0 ? (
        <p>{t('centre.noEvents')}</p>
      ) : (
        <ol className="event-list">
          {events.data.map((e, i) => (
            <li key={`${e.at}-${i}`} className={`event event--${e.kind}`}>
              <span className="event__what">{t(`centre.event.${e.kind}`)}</span>
              <span className="event__when"><JapanTime value={e.at} /></span>
              {(e.clientAddress || e.device.browser) && (
                <span className="event__where">
                  {e.device.browser ? device(e.device) : ''}
                  {e.clientAddress ? ` · ${e.clientAddress}` : ''}
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
