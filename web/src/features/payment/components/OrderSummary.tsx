import { useLang, useTranslation } from '@/i18n/translation'
import { formatMoney } from '@/i18n/format'
import type { PaymentProcess } from '../api'

/** What is being paid: description, amount, method (only the method where OrderDetails shows the rest). */
export function OrderSummary({ process, methodOnly = false }: { process: PaymentProcess; methodOnly?: boolean }) {
  const { t } = useTranslation('payment')
  const lang = useLang()
  const method =
    process.paymentMethod === 'creditCard' && process.card
      ? `${t(`brands.${process.card.brand}`)} •••• ${process.card.last4}`
      : process.paymentMethod === 'otherPayment'
        ? `${t('methods.otherPayment')}: ${t(`otherTypes.${process.otherPaymentType ?? ''}`)}`
        : t(`methods.${process.paymentMethod}`)
  return (
    <dl className="order-summary">
      {!methodOnly && <div><dt>{t('summary.item')}</dt><dd>{process.description}</dd></div>}
      {!methodOnly && <div><dt>{t('summary.amount')}</dt><dd className="order-summary__amount">{formatMoney(process.amount, process.currency, lang)}</dd></div>}
      <div><dt>{t('summary.method')}</dt><dd>{method}</dd></div>
    </dl>
  )
}
