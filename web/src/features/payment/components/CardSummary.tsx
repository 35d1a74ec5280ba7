import { useTranslation } from '@/i18n/translation'
import type { SavedCard } from '../api'

/** Short marks on the brand badges (logos, not text: aria-hidden). */
const MARK: Record<string, string> = { visa: 'VISA', mastercard: 'MC', jcb: 'JCB', amex: 'AMEX', diners: 'DINERS', discover: 'DISC' }

/** A saved card's face: brand, masked number, expiry, holder; "expired" when it is no longer valid. */
export function CardSummary({ card }: { card: SavedCard }) {
  const { t } = useTranslation('payment')
  return (
    <span className={`card-summary ${card.isValid ? '' : 'card-summary--expired'}`.trim()}>
      <span className={`brand-badge brand-badge--${card.brand}`} aria-hidden="true">{MARK[card.brand] ?? card.brand}</span>
      <span className="card-summary__text">
        <span className="card-summary__brand">{t(`brands.${card.brand}`)}</span>{' '}
        <span className="card-summary__number">•••• {card.cardNumber.slice(-4)}</span>
        <span className="card-summary__meta">
          {t('card.expiresShort', { date: card.expirationDate })} · {card.holderName} · {t(`scope.${card.currency}`)}
        </span>
        {!card.isValid && <span className="card-summary__expired">{t('card.expired')}</span>}
      </span>
    </span>
  )
}
