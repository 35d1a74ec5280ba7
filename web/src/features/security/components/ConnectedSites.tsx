import { useState } from 'react'
import { useTranslation } from '@/i18n/translation'
import { ConfirmDialog } from '@/components/Dialog'
import { JapanTime } from '@/components/JapanTime'
import { useModals } from '@/app/modals/modalContext'
import { useToast } from '@/app/toast'
import { useConnectedSites, useRevokeSite, type ConnectedSite } from '../api'

/**
 * The security centre's "Sites that use your account": each site (OpenID
 * Connect client) the member let sign them in, what it receives, when it
 * last did; revoking one takes back its grant and tokens and logs the
 * member out there.
 */
export function ConnectedSites() {
  const { t } = useTranslation('security')
  const modals = useModals()
  const toast = useToast()
  const sites = useConnectedSites()
  const revoke = useRevokeSite()
  const [revoked, setRevoked] = useState<string | null>(null)

  const confirm = (s: ConnectedSite) =>
    modals.open((close, active) => (
      <ConfirmDialog
        title={t('centre.sites.revokeTitle', { site: s.name })}
        close={close}
        active={active}
        cancelLabel={t('centre.cancel')}
        confirmLabel={t('centre.sites.revoke')}
        onConfirm={() =>
          revoke.mutate(s.clientId, {
            onSuccess: () => setRevoked(s.name),
            onError: () => toast.showError(),
          })
        }
      >
        <p>{t('centre.sites.revokeBody', { site: s.name })}</p>
      </ConfirmDialog>
    ))

  return (
    <section className="card" aria-labelledby="sites-title" aria-busy={sites.isFetching}>
      <h2 id="sites-title">{t('centre.sites.title')}</h2>
      <p className="field__hint">{t('centre.sites.hint')}</p>
      {revoked && (
        <p className="form__success" role="status">
          {t('centre.sites.revoked', { site: revoked })}
        </p>
      )}
      {sites.isPending ? (
        <p role="status">{t('centre.loading')}</p>
      ) : sites.isError ? (
        <p className="form__error" role="alert">
          {t('centre.loadError')}
        </p>
      ) : sites.data.length === 0 ? (
        <p>{t('centre.sites.none')}</p>
      ) : (
        <ul className="session-list site-list">
          {sites.data.map((s) => (
            <li key={s.clientId} className="session site">
              <div className="session__main">
                <strong>{s.name}</strong>
                <span className="session__badge">{t(s.firstParty ? 'centre.sites.airline' : 'centre.sites.partner')}</span>
              </div>
              <dl className="session__facts">
                <dt>{t('centre.sites.receives')}</dt>
                <dd>{s.scopes.map((sc) => t(`centre.sites.scope.${sc}`)).join(t('centre.sites.separator'))}</dd>
                <dt>{t('centre.sites.granted')}</dt>
                <dd><JapanTime value={s.grantedAt} /></dd>
                <dt>{t('centre.sites.lastUsed')}</dt>
                <dd><JapanTime value={s.lastUsedAt} /></dd>
              </dl>
              <button
                type="button"
                className="button"
                disabled={revoke.isPending}
                onClick={() => confirm(s)}
                aria-label={t('centre.sites.revokeLabel', { site: s.name })}
              >
                {t('centre.sites.revoke')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
