import { useState } from 'react'
import { useTranslation } from '@/i18n/translation'
import { useSession } from '../session/SessionProvider'
import { AppLink } from '../routing/AppLink'
import { RecentBookingsSlot, useRecentBookingsSettled } from './RecentBookingsSlot'
import { PassStatusSlot, usePassStatusSettled } from './PassStatusSlot'
import { PageHeader } from '@/components/PageHeader'
import { useTopicBanner } from '@/api/platform'
import { TopicBanner } from '../layout/TopicBanner'
import { PendingPaymentsNotice } from '@/features/payment/components/PendingPayments'

const TILES = [
  { to: '/account', title: 'home.tiles.account', text: 'home.tiles.accountText' },
  { to: '/passengers', title: 'home.tiles.passengers', text: 'home.tiles.passengersText' },
  { to: '/bookings', title: 'home.tiles.bookings', text: 'home.tiles.bookingsText' },
  { to: '/points', title: 'home.tiles.points', text: 'home.tiles.pointsText' },
  { to: '/payment-methods', title: 'home.tiles.paymentMethods', text: 'home.tiles.paymentMethodsText' },
  { to: '/security', title: 'home.tiles.security', text: 'home.tiles.securityText' },
] as const

/** The entrance page: greeting, topic banner, shortcuts and the recent bookings. */
export default function HomePage() {
  const { t } = useTranslation()
  const { user } = useSession()
  const name = user?.firstname || user?.lastname ? { firstname: user?.firstname ?? '', lastname: user?.lastname ?? '' } : null
  // The banner, the pass panel and the upcoming flights arrive after the
  // first paint. Until all have (or have failed), a placeholder holds their
  // place and the shortcuts wait below it, so nothing on screen moves when they come in
  // (layout shift); the page below the fold is out of sight meanwhile.
  const banner = useTopicBanner()
  const recentSettled = useRecentBookingsSettled()
  const passesSettled = usePassStatusSettled()
  const bannerSettled = !banner.isPending || banner.failureCount > 0
  // Once shown, the sections stay: a failed call that is retried goes back
  // to pending, which must not swap them for the placeholder again.
  const [shown, setShown] = useState(false)
  const settled = bannerSettled && recentSettled && passesSettled
  if (settled && !shown) setShown(true)
  const ready = shown || settled
  return (
    <div className="page">
      {/* the tab names the page ("Home"), not the member: the greeting is no page's name */}
      <PageHeader title={name ? t('home.greeting', name) : t('home.greetingNoName')} documentTitle={t('nav.home')} />
      {!ready && <div className="home__placeholder" aria-busy="true" />}
      {/* rendered from the start (one fetch per list), shown when ready */}
      <div hidden={!ready}>
        {/* The member's flights first: on a phone the next trip (or a disrupted one) is the first thing seen. */}
        <RecentBookingsSlot />
        <TopicBanner />
        <PendingPaymentsNotice />
        <PassStatusSlot />
        <nav aria-label={t('home.shortcuts')}>
          <ul className="tiles">
            {TILES.map((tile) => (
              <li key={tile.to}>
                <AppLink to={tile.to} className="tile">
                  <span className="tile__title">{t(tile.title)}</span>
                  <span className="tile__text">{t(tile.text)}</span>
                </AppLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </div>
  )
}
