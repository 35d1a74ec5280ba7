import { useLang, useTranslation } from '@/i18n/translation'
import { useCookieConsent, useSessionInfo } from '@/api/platform'
import { AIRLINE_NAME } from '@/brand'
import { cookiePolicyUrl, cookieSettingsUrl } from '@/app/externalLinks'

/** © 2019, the session log id, and the cookie links when consent is required. */
export function Footer() {
  const { t } = useTranslation()
  const lang = useLang()
  const info = useSessionInfo()
  const consent = useCookieConsent()
  const required = consent.data?.isCookieConsentRequired === true
  return (
    <footer className="footer">
      {required && (
        <ul className="footer__links">
          <li>
            <a href={cookieSettingsUrl(lang)}>{t('footer.cookieSettings')}</a>
          </li>
          <li>
            <a href={cookiePolicyUrl(lang)}>{t('footer.cookiePolicy')}</a>
          </li>
        </ul>
      )}
      <p className="footer__copyright">{t('footer.copyright', { airline: AIRLINE_NAME })}</p>
      {info.data?.sessionLogId && (
        <p className="footer__session">
          {t('footer.sessionLogId')}: <span translate="no">{info.data.sessionLogId}</span>
        </p>
      )}
    </footer>
  )
}
