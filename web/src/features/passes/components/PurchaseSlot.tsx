import { useTranslation } from 'react-i18next'
import { Money } from './common'

export interface PurchaseSlotProps {
  productType: 'gogo_pass' | 'coupon_ticket'
  currency: string
  amount: number
  productFields: Record<string, unknown>
}

/**
 * SLOT for the payment feature's PaymentPanel: the pass pages collect and
 * check the product fields, then hand them over here. Until the panel is
 * on main this shows the amount and says payment is not open yet.
 */
export function PurchaseSlot({ currency, amount }: PurchaseSlotProps) {
  const { t } = useTranslation('passes')
  return (
    <section className="card pass-pay" aria-labelledby="pass-pay-title">
      <h2 id="pass-pay-title">{t('pay.title')}</h2>
      <p className="pass-total">
        {t('pay.amount')}: <strong><Money amount={amount} currency={currency} /></strong>
      </p>
      <p className="pass-muted">{t('pay.unavailable')}</p>
    </section>
  )
}
