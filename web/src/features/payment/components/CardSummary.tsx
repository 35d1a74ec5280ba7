import { useTranslation } from '@/i18n/translation'
import type { SavedCard } from '../api'
import { apiToPrintedExpiry, heldElsewhere } from '../rules'

/** Short marks on the brand badges (logos, not text: aria-hidden). */
const MARK: Record<string, string> = { visa: 'VISA', mastercard: 'MC', jcb: 'JCB', amex: 'AMEX', diners: 'DINERS', discover: 'DISC' }

/**
 * A saved card's face as the member knows it: "Visa ending 4242, exp 11/29"
 * (the expiry as printed on the card, MM/YY), then holder and currency
 * scope; "expired" when it is no longer valid, "cannot be used" when it
 * was saved with another payment service than the one configured now.
 */
export function CardSummary({ card }: { card: SavedCard }) {
  const { t } = useTranslation('payment')
  const name = t('card.summary', {
    brand: t(`brands.${card.brand}`), last4: card.cardNumber.slice(-4), date: apiToPrintedExpiry(card.expirationDate),
  })
  return (
    <span className={`card-summary ${card.isValid ? '' : 'card-summary--expired'}`.trim()}>
      <span className={`brand-badge brand-badge--${card.brand}`} aria-hidden="true">{MARK[card.brand] ?? card.brand}</span>
      <span className="card-summary__text">
        <span className="card-summary__name">{name}</span>
        <span className="card-summary__meta">{card.holderName} · {t(`scope.${card.currency}`)}</span>
        {heldElsewhere(card)
          ? <span className="card-summary__unusable">{t('card.unusable')}</span>
          : !card.isValid && <span className="card-summary__expired">{t('card.expired')}</span>}
      </span>
    </span>
  )
}
