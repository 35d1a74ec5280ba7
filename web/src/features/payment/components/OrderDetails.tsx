import { useLang, useTranslation } from '@/i18n/translation'
import { formatDate, formatMoney, formatPersonName, pluralKey } from '@/i18n/format'
import { couponTermsUrl } from '@/app/externalLinks'
import { useSession } from '@/app/session/SessionProvider'
import type { PaymentProcess } from '../api'

/** The coupon pass's refund fee per item, in yen (the server's coupon.RefundFeePerItem). */
export const COUPON_REFUND_FEE_PER_ITEM = 9000

interface Range { begin: string; end: string }
interface Person { lastname?: string; firstname?: string }
interface CouponPlan { availableDaysAfterFirstUse?: number; availableNumberOfUse?: number; pricePerPerson?: number; currencyCode?: string }

/** The order fields each product fixes at its quote (the process's details). */
export interface OrderFacts {
  nominee?: string
  board?: Range
  book?: Range
  fareType?: string
  period?: { availablePeriodToBoard?: Range; availablePeriodToBook?: Range }
  plan?: CouponPlan
  purchaser?: Person
  additionalPassengers?: Person[]
  items?: number
  totalPassengersCount?: number
}

/**
 * A fare by the name its own product gives it, and the line that explains
 * it: the unlimited pass's Happy and Happlus, the coupon pass's Lite and
 * Standard plans (booked at the Lite and the Standard fare, as Happy and
 * Happlus are, hence the same explanations).
 */
export function fareOf(fareType: string | undefined): { name: 'happy' | 'happlus' | 'lite' | 'standard'; hint: 'happy' | 'happlus' } | null {
  if (fareType === 'happy' || fareType === 'lite') return { name: fareType, hint: 'happy' }
  if (fareType === 'happlus' || fareType === 'standard') return { name: fareType, hint: 'happlus' }
  return null
}

/**
 * What the member is about to pay for, on the confirm page: the product,
 * its periods, the fare with a line on what it means, the passengers or
 * the nominee, the total, and for the coupon pass its terms (with a link)
 * and the refund fee, stated before the payment.
 */
export function OrderDetails({ process }: { process: PaymentProcess }) {
  const { t } = useTranslation('payment')
  const lang = useLang()
  const d = (process.details ?? {}) as OrderFacts
  const range = (r: Range | undefined) => (r?.begin && r.end ? `${formatDate(r.begin, lang)} – ${formatDate(r.end, lang)}` : null)
  const board = range(d.board ?? d.period?.availablePeriodToBoard)
  const book = range(d.book ?? d.period?.availablePeriodToBook)
  const fare = fareOf(d.fareType)
  const coupon = process.productType === 'coupon_ticket'
  const fullName = (p: Person | undefined) => formatPersonName(p?.firstname, p?.lastname, lang)
  // the unlimited pass is the member's own: its one passenger is the member
  const { user } = useSession()
  const pass = process.productType === 'gogo_pass'
  const people = coupon
    ? [fullName(d.purchaser), ...(d.additionalPassengers ?? []).map(fullName)].filter(Boolean)
    : pass
      ? [fullName(user ?? undefined)].filter(Boolean)
      : []
  const count = d.totalPassengersCount ?? people.length
  const items = d.items ?? 1
  const money = (n: number, c = process.currency) => formatMoney(n, c, lang)
  return (
    <section className="order-details" aria-labelledby="order-details-title">
      <h3 id="order-details-title">{t('details.title')}</h3>
      <dl className="order-summary">
        <div><dt>{t('details.product')}</dt><dd>{process.description}</dd></div>
        {board && <div><dt>{t('details.travel')}</dt><dd>{board}</dd></div>}
        {book && <div><dt>{t('details.book')}</dt><dd>{book}</dd></div>}
        {fare && (
          <div>
            <dt>{t('details.fare')}</dt>
            <dd>
              <strong>{t(`details.fares.${fare.name}`)}</strong>
              <span className="order-details__hint">{t(`details.fareHints.${fare.hint}`)}</span>
            </dd>
          </div>
        )}
        {coupon && d.plan?.availableNumberOfUse !== undefined && (
          <div>
            <dt>{t('details.plan')}</dt>
            <dd>
              {t(pluralKey('details.flights', d.plan.availableNumberOfUse, lang), { n: d.plan.availableNumberOfUse })}
              {d.plan.availableDaysAfterFirstUse !== undefined && <> · {t(pluralKey('details.days', d.plan.availableDaysAfterFirstUse, lang), { n: d.plan.availableDaysAfterFirstUse })}</>}
              {d.plan.pricePerPerson !== undefined && <> · {t('details.perPerson', { price: money(d.plan.pricePerPerson, d.plan.currencyCode ?? process.currency) })}</>}
            </dd>
          </div>
        )}
        {(coupon || pass) && people.length > 0 && (
          <div>
            <dt>{t(pluralKey('details.passengers', count, lang), { n: count })}</dt>
            <dd><ul className="order-details__people">{people.map((n, i) => <li key={i}>{n}</li>)}</ul></dd>
          </div>
        )}
        {d.nominee && <div><dt>{t('details.nominee')}</dt><dd>{d.nominee}</dd></div>}
        <div className="order-details__total"><dt>{t('details.total')}</dt><dd className="order-summary__amount">{money(process.amount)}</dd></div>
      </dl>
      {coupon && (
        <div className="pay-notice order-details__terms">
          <p>{t(pluralKey('details.refundFee', items, lang), { fee: money(COUPON_REFUND_FEE_PER_ITEM, 'JPY'), n: items, total: money(COUPON_REFUND_FEE_PER_ITEM * items, 'JPY') })}</p>
          <p>
            {t('details.termsAgreed')}{' '}
            <a href={couponTermsUrl(lang)} target="_blank" rel="noopener noreferrer">{t('details.termsLink')}</a>
          </p>
        </div>
      )}
    </section>
  )
}
