import '../account.css'
import { useTranslation } from 'react-i18next'
import { AppLink } from '@/app/routing/AppLink'

/** /reset-password/invalid: the link is unknown, used or expired. */
export default function ResetPasswordInvalidPage() {
  const { t } = useTranslation('account')
  return (
    <div className="page reset-page">
      <h1>{t('reset.invalidTitle')}</h1>
      <p>{t('reset.invalidText')}</p>
      <AppLink to="/reset-password">{t('reset.again')}</AppLink>
    </div>
  )
}
