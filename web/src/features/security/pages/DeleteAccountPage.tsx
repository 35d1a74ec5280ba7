import '../security.css'
import { useParams } from 'react-router'
import { useLang, useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { useToast } from '@/app/toast'
import { useConfirmDeletion, useDeletionLink } from '../api'
import { WhatGoesWhatStays } from '../components/WhatGoesWhatStays'
import { PageHeader } from '@/components/PageHeader'

/** /delete-account/:token — the mailed link: says again what goes and what stays, then deletes. */
export default function DeleteAccountPage() {
  const { t } = useTranslation('security')
  const { token = '' } = useParams()
  const lang = useLang()
  const toast = useToast()
  const link = useDeletionLink(token)
  const confirm = useConfirmDeletion()

  const onDelete = () =>
    confirm.mutate(token, {
      // The session is gone with the account: a full load starts the app afresh.
      onSuccess: () => window.location.assign(`/account-deleted?lang=${lang}`),
      onError: () => toast.showError(),
    })

  return (
    <div className="page delete-account">
      <PageHeader title={t('deletion.confirmTitle')} />
      {link.isPending ? (
        <p role="status">{t('deletion.checking')}</p>
      ) : link.isError ? (
        <section className="card">
          <p className="form__error" role="alert">
            {t('deletion.linkInvalid')}
          </p>
          <AppLink to="/your-data" className="button">
            {t('deletion.backToData')}
          </AppLink>
        </section>
      ) : (
        <section className="card danger-zone" aria-labelledby="confirm-title">
          <h2 id="confirm-title">{t('deletion.confirmHeading')}</h2>
          <WhatGoesWhatStays />
          <p>{t('deletion.final')}</p>
          <div className="actions">
            <button type="button" className="button button--danger" onClick={onDelete} disabled={confirm.isPending}>
              {t('deletion.confirm')}
            </button>
            <AppLink to="/" className="button">
              {t('deletion.keep')}
            </AppLink>
          </div>
        </section>
      )}
    </div>
  )
}
