import '../security.css'
import { useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'

/** The account page's links to the security feature's pages. */
export function SecurityLinks() {
  const { t } = useTranslation('security')
  return (
    <nav className="card security-links" aria-label={t('links.label')}>
      <AppLink to="/security" className="security-links__item">
        <strong>{t('centre.title')}</strong>
        <span>{t('links.centreHint')}</span>
      </AppLink>
      <AppLink to="/security/passkeys" className="security-links__item">
        <strong>{t('passkeys.title')}</strong>
        <span>{t('links.passkeysHint')}</span>
      </AppLink>
      <AppLink to="/your-data" className="security-links__item">
        <strong>{t('data.title')}</strong>
        <span>{t('links.dataHint')}</span>
      </AppLink>
    </nav>
  )
}
