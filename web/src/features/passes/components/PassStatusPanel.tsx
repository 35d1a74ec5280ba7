import '../passes.css'
import { useLang, useTranslation } from '@/i18n/translation'
import { usePassStatus } from '@/api/platform'
import { AppLink } from '@/app/routing/AppLink'
import { formatDate, pluralKey } from '@/i18n/format'
import { useGogoPassCatalogue, useMyCoupons, useMyPasses, type GogoPassPlan, type PurchasedGogoPass } from '../api'
import { daysBetween, todayJST } from '../rules'

/** How a window stands today: upcoming (starts in N days), open (N days left) or over. */
export function windowState(today: string, range: { begin: string; end: string }): { kind: 'upcoming' | 'open' | 'over'; days: number } {
  if (today < range.begin) return { kind: 'upcoming', days: daysBetween(today, range.begin) }
  if (today <= range.end) return { kind: 'open', days: daysBetween(today, range.end) + 1 }
  return { kind: 'over', days: 0 }
}

/** The next period of the same plan after the pass's boarding window: when the pass can be renewed. */
export function renewalOf(pass: PurchasedGogoPass, plans: GogoPassPlan[]): { begin: string } | null {
  const plan = plans.find((p) => p.id === pass.planId)
  const next = plan?.periods
    .filter((p) => p.availablePeriodToBoard.begin > pass.availablePeriodToBoard.end)
    .sort((a, b) => a.availablePeriodToBoard.begin.localeCompare(b.availablePeriodToBoard.begin))[0]
  return next ? { begin: next.availablePeriodToBook.begin } : null
}

function WindowLine({ label, range, today }: { label: string; range: { begin: string; end: string }; today: string }) {
  const { t } = useTranslation('passes')
  const lang = useLang()
  const s = windowState(today, range)
  return (
    <li className={`window window--${s.kind}`}>
      <span className="window__label">{label}</span>
      <span className="window__state">{s.kind === 'over' ? t('panel.over') : t(pluralKey(`panel.${s.kind}`, s.days, lang), { n: s.days })}</span>
    </li>
  )
}

/** Home page: what passes the member holds, windows with days left, uses left, renewal. */
export function PassStatusPanel() {
  const { t } = useTranslation('passes')
  const lang = useLang()
  const status = usePassStatus()
  // The panel is an extra on the home page: its failures stay quiet.
  const passes = useMyPasses(true)
  const coupons = useMyCoupons(true)
  const catalogue = useGogoPassCatalogue(status.isGogoPassPublic, true)
  const today = todayJST()
  const held = (passes.data?.gogoPasses ?? []).filter((p) => p.availablePeriodToBoard.end >= today)
  const active = (coupons.data?.couponTickets ?? []).filter((c) => !c.disabled && c.availablePeriodToBoard.end >= today)
  const plans = catalogue.data?.gogoPasses ?? []
  if (!passes.data || !coupons.data) return null
  if (held.length === 0 && active.length === 0 && !status.isGogoPassPublic && !status.isCouponTicketPublic) return null
  return (
    <section className="pass-panel" aria-labelledby="pass-panel-title">
      <h2 id="pass-panel-title">{t('panel.title')}</h2>
      {held.length === 0 && active.length === 0 && <p>{t('panel.none')}</p>}
      <div className="pass-grid">
        {held.map((p) => {
          const renewal = status.isGogoPassPublic ? renewalOf(p, plans) : null
          return (
            <article key={p.id} className="card pass-panel__item">
              <h3>{p.name} <span className="pass-card__alt">{p.nameAlt}</span></h3>
              <p className="pass-code">{p.code} · {t(`fare.${p.fareType}`)}</p>
              <ul className="windows">
                <WindowLine label={t('plan.book')} range={p.availablePeriodToBook} today={today} />
                <WindowLine label={t('plan.board')} range={p.availablePeriodToBoard} today={today} />
              </ul>
              {renewal && (
                <p className="pass-muted">
                  {renewal.begin <= today ? <AppLink to="/gogo-pass">{t('panel.renewNow')}</AppLink> : t('panel.renewFrom', { date: formatDate(renewal.begin, lang) })}
                </p>
              )}
            </article>
          )
        })}
        {active.map((c) => (
          <article key={c.id} className="card pass-panel__item">
            <h3>{c.name}</h3>
            <p className="pass-uses">{t(pluralKey('coupon.usesLeft', c.availableNumberOfUse, lang), { left: Math.max(0, c.availableNumberOfUse - c.numberOfUsed), n: c.availableNumberOfUse })}</p>
            <ul className="windows">
              <WindowLine label={t('plan.book')} range={c.availablePeriodToBook} today={today} />
              <WindowLine label={t('plan.board')} range={c.availablePeriodToBoard} today={today} />
            </ul>
          </article>
        ))}
      </div>
      <p className="pass-panel__links">
        <AppLink to="/my-passes">{t('nav.myPasses')}</AppLink>
        {status.isGogoPassPublic && <AppLink to="/gogo-pass">{t('nav.gogoPass')}</AppLink>}
        {status.isCouponTicketPublic && <AppLink to="/coupon-pass">{t('nav.couponPass')}</AppLink>}
      </p>
    </section>
  )
}
