import { useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { PageHeader } from '@/components/PageHeader'

/** /account-deleted — shown once the account is gone (no session any more). */
export default function AccountDeletedPage() {
  const { t } = useTranslation('security')
  return (
    <div className="page">
      <PageHeader title={t('deleted.title')} />
      <section className="card">
        <p role="status">{t('deleted.body')}</p>
        <AppLink to="/login" className="button button--primary">
          {t('deleted.toLogin')}
        </AppLink>
      </section>
    </div>
  )
}
