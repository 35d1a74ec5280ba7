import './pending.css'
import { useLang, useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { formatDateTime, formatMoney } from '@/i18n/format'
import { usePendingPayment, usePendingPayments } from '../api'

export const PENDING_PATH = '/payments/pending'

/**
 * The menu's link to the pending payments, shown only while one is
 * pending (its label is in the shell's catalogue: the menu is on every page).
 */
export function PendingPaymentsNavItem({ className, onClick }: { className: string; onClick?: () => void }) {
  const { t } = useTranslation()
  const list = usePendingPayments()
  const n = list.data?.length ?? 0
  if (n === 0) return null
  return (
    <li>
      <AppLink to={PENDING_PATH} className={className} onClick={onClick}>
        {t('nav.pendingPayments')} <span className="nav__badge">{n}</span>
      </AppLink>
    </li>
  )
}

/**
 * A notice naming the member's pending payment with a link to it: on the
 * home page (the oldest), and as the reason a new purchase is blocked
 * (blocked: the payment that blocks it, about 30 minutes from its start;
 * a slip left for later past that blocks nothing and stays payable).
 */
export function PendingPaymentsNotice({ blocked = false }: { blocked?: boolean }) {
  const { t } = useTranslation('payment')
  const lang = useLang()
  const list = usePendingPayments()
  const blocking = usePendingPayment(blocked)
  const p = (blocked ? list.data?.find((x) => x.paymentProcessId === blocking.data?.paymentProcessId) : undefined) ?? list.data?.[0]
  if (!p) {
    return blocked ? <p className="pay-notice pay-notice--warn" role="alert">{t('errors.pending')}</p> : null
  }
  const what = t('pendingPage.notice', {
    item: p.description, amount: formatMoney(p.amount, p.currency, lang), deadline: t('pendingPage.japanTime', { time: formatDateTime(p.expiresAt, lang) }),
  })
  return (
    <div className={`pay-notice pending-notice${blocked ? ' pay-notice--warn' : ''}`} role={blocked ? 'alert' : 'status'}>
      {blocked && <p><strong>{t('pendingPage.blocked')}</strong></p>}
      <p>{what}</p>
      <AppLink to={PENDING_PATH} className="button button--secondary">{t('pendingPage.open')}</AppLink>
    </div>
  )
}
