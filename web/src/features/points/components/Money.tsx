import { formatMoney } from '@/i18n/format'
import { useLang } from '@/i18n/translation'

/** An amount in minor units with its currency, written the language's one way (formatMoney): "JPY 3,000", "SGD 50.00", "3,000円" in Japanese; NaN shows "-". */
export function Money({ amount, currency }: { amount: number; currency: string }) {
  const lang = useLang()
  const text = formatMoney(amount, currency, lang)
  const code = currency.toUpperCase()
  if (!text.startsWith(`${code} `)) return <span className="money">{text}</span>
  return (
    <span className="money">
      <span className="money__currency">{code}</span> {text.slice(code.length + 1)}
    </span>
  )
}
