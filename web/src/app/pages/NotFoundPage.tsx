import { useTranslation } from 'react-i18next'
import { AppLink } from '../routing/AppLink'

export function NotFoundPage() {
  const { t } = useTranslation()
  return (
    <div className="page page--narrow">
      <h1 className="page__title">{t('notFound.title')}</h1>
      <p className="card">{t('notFound.text')}</p>
      <p>
        <AppLink to="/">{t('nav.backHome')}</AppLink>
      </p>
    </div>
  )
}
