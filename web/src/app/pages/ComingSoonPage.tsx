import { useTranslation } from '@/i18n/translation'
import { AppLink } from '../routing/AppLink'
import { PageHeader } from '@/components/PageHeader'

export type ComingSoonFeature = 'account' | 'passengers' | 'bookings' | 'points' | 'paymentMethods' | 'resetPassword' | 'resetPasswordToken' | 'resetPasswordInvalid'

/** Placeholder for pages whose feature is still being built (replaced in routes.tsx). */
export function ComingSoonPage({ feature }: { feature: ComingSoonFeature }) {
  const { t } = useTranslation()
  return (
    <div className="page">
      <PageHeader title={t(`comingSoon.titles.${feature}`)} />
      <p className="card">{t('comingSoon.text')}</p>
      <p>
        <AppLink to="/">{t('nav.backHome')}</AppLink>
      </p>
    </div>
  )
}
