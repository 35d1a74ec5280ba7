import '../security.css'
import { useState } from 'react'
import { useTranslation } from '@/i18n/translation'
import { ConfirmDialog } from '@/components/Dialog'
import { AppLink } from '@/app/routing/AppLink'
import { useModals } from '@/app/modals/modalContext'
import { useToast } from '@/app/toast'
import { JapanTime } from '@/components/JapanTime'
import { ConnectedSites } from '../components/ConnectedSites'
import { useEndSessions, usePushDevices, useRemovePushDevice, useSecurityEvents, useSecuritySessions, type SecurityDevice, type SecuritySession } from '../api'
import { PageHeader } from '@/components/PageHeader'

/** /security: the sessions signed in to the account and the recent security events. */
export default function SecurityCentrePage() {
  const { t } = useTranslation('security')
  return (
    <div className="page security-centre">
      <PageHeader title={t('centre.title')} />
      <p className="security-centre__lead">{t('centre.lead')}</p>
      <Sessions />
      <ConnectedSites />
      <PushDevices />
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

/** Sessions shown before "Show more" (the current one is always among them). */
export const SESSIONS_SHOWN = 5
/** Events shown at first, and how many more each "Show more" adds. */
export const EVENTS_PAGE = 10

/**
 * The first `shown` of a list, growing by `page` on request: a member who
 * signs in often still gets a short page (newest first), and the rest is
 * one press away. A button, not a link: nothing is loaded.
 */
function useFolded<T>(list: readonly T[], first: number, page: number) {
  const [shown, setShown] = useState(first)
  const rest = Math.max(0, list.length - shown)
  return {
    visible: list.slice(0, shown),
    rest,
    next: Math.min(rest, page),
    more: () => setShown((n) => n + page),
    fewer: shown > first ? () => setShown(first) : undefined,
  }
}

/** The current session first, then the others by their last activity, newest first. */
function bySessionOrder(a: SecuritySession, b: SecuritySession) {
  if (a.current !== b.current) return a.current ? -1 : 1
  return b.lastActivityAt.localeCompare(a.lastActivityAt)
}

function FoldButtons({ rest, next, more, fewer, moreKey }: { rest: number; next: number; more: () => void; fewer?: () => void; moreKey: string }) {
  const { t } = useTranslation('security')
  if (rest === 0 && !fewer) return null
  return (
    <div className="button-row fold-buttons">
      {rest > 0 && (
        <button type="button" className="button button--small" onClick={more}>
          {t(moreKey, { count: next })}
        </button>
      )}
      {fewer && (
        <button type="button" className="button button--small button--ghost" onClick={fewer}>
          {t('centre.fewer')}
        </button>
      )}
    </div>
  )
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
  const ordered = [...(sessions.data ?? [])].sort(bySessionOrder)
  const fold = useFolded(ordered, SESSIONS_SHOWN, SESSIONS_SHOWN)
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
            {fold.visible.map((s: SecuritySession) => (
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
          <FoldButtons {...fold} moreKey="centre.moreSessions" />
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

/** The devices that show the member's flight changes on their lock screen, each with its switch-off. */
function PushDevices() {
  const { t } = useTranslation('security')
  const toast = useToast()
  const devices = usePushDevices()
  const remove = useRemovePushDevice()
  const device = useDeviceLabel()
  return (
    <section className="card" aria-labelledby="push-devices-title" aria-busy={devices.isFetching}>
      <h2 id="push-devices-title">{t('centre.pushTitle')}</h2>
      <p className="field__hint">{t('centre.pushLead')}</p>
      {devices.isPending ? (
        <p role="status">{t('centre.loading')}</p>
      ) : devices.isError ? (
        <p className="form__error" role="alert">
          {t('centre.loadError')}
        </p>
      ) : devices.data.length === 0 ? (
        <p>{t('centre.pushNone')}</p>
      ) : (
        <ul className="session-list">
          {devices.data.map((d) => (
            <li key={d.id} className={`session${d.current ? ' session--current' : ''}`}>
              <div className="session__main">
                <strong>{device(d.device)}</strong>
                {d.current && <span className="session__badge">{t('centre.thisDevice')}</span>}
              </div>
              <dl className="session__facts">
                <dt>{t('centre.pushSince')}</dt>
                <dd><JapanTime value={d.switchedOnAt} /></dd>
                <dt>{t('centre.pushLast')}</dt>
                <dd>{d.lastPushAt ? <JapanTime value={d.lastPushAt} /> : t('centre.pushNever')}</dd>
              </dl>
              <button
                type="button"
                className="button"
                disabled={remove.isPending}
                onClick={() => remove.mutate(d, { onError: () => toast.showError() })}
                aria-label={t('centre.pushOffLabel', { device: device(d.device) })}
              >
                {t('centre.pushOff')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function Events() {
  const { t } = useTranslation('security')
  const events = useSecurityEvents()
  const device = useDeviceLabel()
  // Newest first (the server sends them so; sorted again, so the page never depends on it).
  const ordered = [...(events.data ?? [])].sort((a, b) => b.at.localeCompare(a.at))
  const fold = useFolded(ordered, EVENTS_PAGE, EVENTS_PAGE * 2)
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
      ) : ordered.length === 0 ? (
        <p>{t('centre.noEvents')}</p>
      ) : (
        <>
        <ol className="event-list">
          {fold.visible.map((e, i) => (
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
        <FoldButtons {...fold} moreKey="centre.moreEvents" />
        </>
      )}
    </section>
  )
}
