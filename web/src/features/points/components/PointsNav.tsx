import { useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'

/** The points pages: overview, buy, exchange (codes, partner miles), reissue (CNY, TWD). */
export function PointsNav() {
  const { t } = useTranslation('points')
  const links: [string, string][] = [
    ['/points', t('nav.overview')],
    ['/points/sale', t('nav.sale')],
    ['/points/exchange', t('nav.exchange')],
    ['/points/exchange-ana', t('nav.exchangeAna')],
    ['/points/reissue/cny', t('nav.reissueCny')],
    ['/points/reissue/twd', t('nav.reissueTwd')],
  ]
  return (
    <nav className="points-nav" aria-label={t('nav.label')}>
      {links.map(([to, label]) => (
        <AppLink key={to} to={to} className="points-nav__link">
          {label}
        </AppLink>
      ))}
    </nav>
  )
}
