import { useLang, useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { formatClock, formatDate, formatDateTime, formatMoney } from '@/i18n/format'
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

/** The hour and minute of an instant in Japan time, "05:00". */
function japanClock(value: string): string {
  const d = new Date(new Date(value).getTime() + 9 * 3_600_000)
  return Number.isNaN(d.getTime()) ? '' : formatClock(d.getUTCHours(), d.getUTCMinutes())
}

/**
 * The maintenance notice. It names the window the server reports (start
 * and end, Japan time, in the page language); when the operator closed the
 * sale outside the daily window the server reports none, and the notice
 * states no time rather than a wrong one.
 */
export function MaintenanceNotice() {
  const { t } = useTranslation('passes')
  const lang = useLang()
  const { maintenanceFrom, maintenanceUntil } = usePassStatus()
  const windowed = !!maintenanceFrom && !!maintenanceUntil
  return (
    <section className="card pass-notice pass-notice--warning" role="status" aria-labelledby="maintenance-title">
      <h2 id="maintenance-title">{t('maintenance.title')}</h2>
      <p>
        {windowed
          ? t('maintenance.window', { from: formatDateTime(maintenanceFrom, lang), until: japanClock(maintenanceUntil) })
          : t('maintenance.unscheduled')}
      </p>
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
