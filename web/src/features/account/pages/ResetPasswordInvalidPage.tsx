import '../account.css'
import { useSearchParams } from 'react-router'
import { useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { PageHeader } from '@/components/PageHeader'

/**
 * /reset-password/invalid: the link is unknown, used or expired. With
 * ?kind=set it was the link to set a first password (seven days, once).
 */
export default function ResetPasswordInvalidPage() {
  const { t } = useTranslation('account')
  const first = useSearchParams()[0].get('kind') === 'set'
  return (
    <div className="page reset-page">
      <PageHeader title={t('reset.invalidTitle')} />
      <p>{first ? t('reset.invalidSetText') : t('reset.invalidText')}</p>
      <p className="form__actions">
        <AppLink to="/reset-password" className="button button--primary">{t('reset.again')}</AppLink>
        <AppLink to="/login" className="button button--secondary">{t('reset.backToLogin')}</AppLink>
      </p>
    </div>
  )
}
