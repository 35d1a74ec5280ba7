import { useLang, useTranslation } from '@/i18n/translation'
import { useModals, MODAL_IDS } from '../modals/modalContext'
import { useSession } from '../session/SessionProvider'
import { AppLink } from '../routing/AppLink'
import { LanguageSelect } from './LanguageSelect'
import { GlobalMenuModal } from './GlobalMenuModal'
import { useNavItems } from './navItems'
import { PendingPaymentsNavSlot } from './PendingPaymentsNavSlot'
import { brandName } from '@/brand'

/** The header; `reserveMenu` renders the member menu bar invisible and inert (its room kept while the session is checked). */
export function Header({ memberChrome, reserveMenu = false }: { memberChrome: boolean; reserveMenu?: boolean }) {
  const navItems = useNavItems(memberChrome)
  const { t } = useTranslation()
  const modals = useModals()
  const { logout } = useSession()
  const lang = useLang()

  return (
    <header className="header">
      <div className="header__bar">
        {memberChrome && (
          <button
            type="button"
            className="header__menu-button mobile-only"
            aria-haspopup="dialog"
            onClick={() => modals.open((close, active) => <GlobalMenuModal close={close} active={active} />, { id: MODAL_IDS.globalMenu })}
          >
            <span className="burger" aria-hidden="true" />
            <span className="header__menu-label">{t('nav.menu')}</span>
          </button>
        )}
        {/* The logo links home on every page (the guard sends a visitor on to /login). */}
        <AppLink to="/" className="header__brand" aria-label={t('nav.homeOf', { name: brandName(lang) })}>
          <span className="brand-mark" aria-hidden="true" />
          <span className="header__title">{brandName(lang)}</span>
        </AppLink>
        {memberChrome && (
          <AppLink to="/" className="header__home mobile-only">
            {t('nav.home')}
          </AppLink>
        )}
        <div className="header__tools">
          <LanguageSelect />
          {memberChrome && (
            <button type="button" className="button button--ghost desktop-only" onClick={() => void logout()}>
              {t('nav.logout')}
            </button>
          )}
        </div>
      </div>
      {(memberChrome || reserveMenu) && (
        <nav className={`nav desktop-only${memberChrome ? '' : ' nav--reserved'}`} aria-label={t('nav.label')} aria-hidden={memberChrome ? undefined : true} inert={!memberChrome}>
          <ul className="nav__list">
            {navItems.map((item) => (
              <li key={item.to}>
                <AppLink to={item.to} className="nav__link">
                  {t(item.label)}
                </AppLink>
              </li>
            ))}
            {memberChrome && <PendingPaymentsNavSlot className="nav__link" />}
          </ul>
        </nav>
      )}
    </header>
  )
}
