import { useTranslation } from 'react-i18next'
import { AppLink } from '@/app/routing/AppLink'

/** /account-deleted — shown once the account is gone (no session any more). */
export default function AccountDeletedPage() {
  const { t } = useTranslation('security')
  return (
    <div className="page">
      <h1 className="page__title">{t('deleted.title')}</h1>
      <section className="card">
        <p role="status">{t('deleted.body')}</p>
        <AppLink to="/login" className="button button--primary">
          {t('deleted.toLogin')}
        </AppLink>
      </section>
    </div>
  )
}
