import { useTranslation } from 'react-i18next'
import { AppLink } from '../routing/AppLink'

export type ComingSoonFeature = 'account' | 'passengers' | 'bookings' | 'points' | 'paymentMethods' | 'resetPassword' | 'resetPasswordToken' | 'resetPasswordInvalid'

/** Placeholder for pages whose feature is still being built (replaced in routes.tsx). */
export function ComingSoonPage({ feature }: { feature: ComingSoonFeature }) {
  const { t } = useTranslation()
  return (
    <div className="page">
      <h1 className="page__title">{t(`comingSoon.titles.${feature}`)}</h1>
      <p className="card">{t('comingSoon.text')}</p>
      <p>
        <AppLink to="/">{t('nav.backHome')}</AppLink>
      </p>
    </div>
  )
}
