import { useTranslation } from '@/i18n/translation'
import { AppLink } from '../routing/AppLink'
import { PageHeader } from '@/components/PageHeader'

export function NotFoundPage() {
  const { t } = useTranslation()
  return (
    <div className="page page--narrow">
      <PageHeader title={t('notFound.title')} />
      <p className="card">{t('notFound.text')}</p>
      <p>
        <AppLink to="/">{t('nav.backHome')}</AppLink>
      </p>
    </div>
  )
}
