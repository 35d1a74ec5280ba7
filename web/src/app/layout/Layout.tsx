import type { ReactNode } from 'react'
import { useTranslation } from '@/i18n/translation'
import { useQuery } from '@tanstack/react-query'
import { useLocation } from 'react-router'
import { sessionQuery } from '@/api/platform'
import type { Access } from '../routing/RouteGuard'
import { useSession } from '../session/SessionProvider'
import { Header } from './Header'
import { Footer } from './Footer'
import { TopicBanner } from './TopicBanner'

/**
 * The page chrome. Member pages get the navigation menu (and, on mobile, the
 * menu button and home link); the anonymous layout (login, reset, static
 * pages, or nobody logged in) hides them.
 */
export function Layout({ access, memberChromeIfLoggedIn = false, children }: { access: Access; memberChromeIfLoggedIn?: boolean; children: ReactNode }) {
  const { t } = useTranslation()
  const { loggedIn, status } = useSession()
  const { pathname } = useLocation()
  // The 404 page is not guarded, yet a member who mistypes an address keeps the menu.
  useQuery({ ...sessionQuery, enabled: memberChromeIfLoggedIn })
  const memberChrome = (access !== 'anonymous' && access !== 'static') || memberChromeIfLoggedIn ? loggedIn : false
  return (
    <div className={`layout ${memberChrome ? 'layout--member' : 'layout--anonymous'}`}>
      <a className="skip-link" href="#main">
        {t('layout.skipToContent')}
      </a>
      {/* While a member page checks the session, the menu bar's room is kept (desktop): it would push the page down on arrival. */}
      <Header memberChrome={memberChrome} reserveMenu={access === 'member' && status === 'checking'} />
      <main id="main" className="main" tabIndex={-1}>
        {/* The home page places the banner itself, in the block that waits for it (no layout shift). */}
        {memberChrome && pathname !== '/' && <TopicBanner />}
        {children}
      </main>
      <Footer />
    </div>
  )
}
