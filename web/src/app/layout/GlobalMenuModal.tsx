import { useTranslation } from '@/i18n/translation'
import { Dialog } from '@/components/Dialog'
import { useSession } from '../session/SessionProvider'
import { AppLink } from '../routing/AppLink'
import { useNavItems } from './navItems'
import { PendingPaymentsNavSlot } from './PendingPaymentsNavSlot'

/** The mobile navigation menu. */
export function GlobalMenuModal({ close, active }: { close: () => void; active: boolean }) {
  const { t } = useTranslation()
  const { logout } = useSession()
  const navItems = useNavItems(true)
  return (
    <Dialog title={t('nav.menu')} onDismiss={close} active={active} className="modal--menu">
      <nav aria-label={t('nav.label')}>
        <ul className="menu-list">
          {navItems.map((item) => (
            <li key={item.to}>
              <AppLink to={item.to} className="menu-list__link" onClick={close}>
                {t(item.label)}
              </AppLink>
            </li>
          ))}
          <PendingPaymentsNavSlot className="menu-list__link" onClick={close} />
          <li>
            <button
              type="button"
              className="menu-list__link menu-list__button"
              onClick={() => {
                close()
                void logout()
              }}
            >
              {t('nav.logout')}
            </button>
          </li>
        </ul>
      </nav>
    </Dialog>
  )
}
