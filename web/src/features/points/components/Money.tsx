import { formatAmount } from '@/i18n/format'
import { useLang } from '@/i18n/translation'

/** An amount in minor units with its currency: "JPY 3,000", "SGD 50.00"; NaN shows "-". */
export function Money({ amount, currency }: { amount: number; currency: string }) {
  const lang = useLang()
  return (
    <span className="money">
      <span className="money__currency">{currency}</span> {formatAmount(amount, currency, lang)}
    </span>
  )
}
