import { useLang, useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { formatDate, formatMoney } from '@/i18n/format'
import { usePassStatus } from '@/api/platform'

/** A calendar range "1 Dec 2026 – 28 Feb 2027" in the page language; a line breaks only between the two dates. */
export function DateRangeText({ range }: { range: { begin: string; end: string } }) {
  const lang = useLang()
  return (
    <>
      <span className="nowrap">{formatDate(range.begin, lang)} –</span> <span className="nowrap">{formatDate(range.end, lang)}</span>
    </>
  )
}

export function Money({ amount, currency }: { amount: number; currency: string }) {
  const lang = useLang()
  return <>{formatMoney(amount, currency, lang)}</>
}

/** The maintenance notice. */
export function MaintenanceNotice() {
  const { t } = useTranslation('passes')
  return (
    <section className="card pass-notice pass-notice--warning" role="status" aria-labelledby="maintenance-title">
      <h2 id="maintenance-title">{t('maintenance.title')}</h2>
      <p>{t('maintenance.text')}</p>
      <p>
        <AppLink to="/my-passes">{t('nav.myPasses')}</AppLink>
      </p>
    </section>
  )
}

/** Links between the pass pages, shown by the status flags. */
export function PassNav() {
  const { t } = useTranslation('passes')
  const s = usePassStatus()
  return (
    <nav className="pass-nav" aria-label={t('nav.label')}>
      {s.isGogoPassPublic && <AppLink to="/gogo-pass">{t('nav.gogoPass')}</AppLink>}
      {s.isGogoPassPublic && s.isGogoPassLotteryPhase && <AppLink to="/gogo-pass/lottery">{t('nav.lottery')}</AppLink>}
      {s.isGogoPassPublic && <AppLink to="/gogo-pass/exchange">{t('nav.exchange')}</AppLink>}
      {s.isCouponTicketPublic && <AppLink to="/coupon-pass">{t('nav.couponPass')}</AppLink>}
      <AppLink to="/my-passes">{t('nav.myPasses')}</AppLink>
    </nav>
  )
}
