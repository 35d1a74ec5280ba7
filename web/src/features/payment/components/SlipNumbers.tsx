import './pending.css'
import { useTranslation } from '@/i18n/translation'
import { noBreak } from '@/i18n/noBreak'
import type { PendingPayment } from '../api'

const SLIP_FIELDS = ['receiptNumber', 'confirmationNumber', 'institutionNumber', 'customerNumber'] as const
/** The convenience-store chains a konbini slip names a payment code for (Stripe), in the order shown. */
const STORES = ['familymart', 'lawson', 'ministop', 'seicomart'] as const

export type Slip = NonNullable<PendingPayment['slip']>

/**
 * A convenience-store / ATM / net-banking slip's numbers with how to pay
 * them: on Pending payments and on the payment's result page. A number is
 * read out at the shop's till, so it never breaks (.pending-payment__number);
 * on a narrow screen it goes below its label whole. Its heading is one level
 * below the heading it sits under: a pending payment's (h2) on Pending
 * payments, the page's own (h1) on the result page.
 */
export function SlipNumbers({ slip, headingLevel = 3 }: { slip: Slip; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const { t } = useTranslation('payment')
  const rows = SLIP_FIELDS.filter((k) => slip[k])
  // the payment code of each store, known chains first, any other by its own name
  const codes = Object.entries(slip.paymentCodes ?? {})
    .filter(([, code]) => code)
    .sort(([a], [b]) => (STORES.indexOf(a as never) + 1 || 99) - (STORES.indexOf(b as never) + 1 || 99))
  const storeName = (k: string) => ((STORES as readonly string[]).includes(k) ? t(`pendingPage.stores.${k}`) : k)
  if (rows.length === 0 && codes.length === 0) return null
  return (
    <section className="pending-payment__slip" aria-label={t('pendingPage.slipTitle')}>
      <Heading>{t('pendingPage.slipTitle')}</Heading>
      {/* a slip without Pay-easy numbers (Stripe's konbini) is paid at a store only: no ATM, no bank */}
      <p className="pending-payment__hint">{noBreak(t(slip.institutionNumber || slip.customerNumber ? 'pendingPage.slipHint' : 'pendingPage.slipHintStores'))}</p>
      <dl className="order-summary">
        {rows.map((k) => (
          <div key={k}><dt>{t(`pendingPage.slip.${k}`)}</dt><dd className="pending-payment__number">{slip[k]}</dd></div>
        ))}
        {codes.map(([store, code]) => (
          <div key={store}><dt>{t('pendingPage.paymentCode', { store: storeName(store) })}</dt><dd className="pending-payment__number">{code}</dd></div>
        ))}
      </dl>
    </section>
  )
}
