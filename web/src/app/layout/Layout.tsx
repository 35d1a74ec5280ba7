import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { Access } from '../routing/RouteGuard'
import { useSession } from '../session/SessionProvider'
import { Header } from './Header'
import { Footer } from './Footer'

/**
 * The page chrome. Member pages get the navigation menu (and, on mobile, the
 * menu button and home link); the anonymous layout (login, reset, static
 * pages, or nobody logged in) hides them.
 */
export function Layout({ access, children }: { access: Access; children: ReactNode }) {
  const { t } = useTranslation()
  const { loggedIn } = useSession()
  const memberChrome = access !== 'anonymous' && access !== 'static' ? loggedIn : false
  return (
    <div className={`layout ${memberChrome ? 'layout--member' : 'layout--anonymous'}`}>
      <a className="skip-link" href="#main">
        {t('layout.skipToContent')}
      </a>
      <Header memberChrome={memberChrome} />
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
    </div>
  )
}
