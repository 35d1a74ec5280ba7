import { useTranslation } from '@/i18n/translation'
import { Dialog } from '@/components/Dialog'
import type { PaymentAvailability, SavedCard } from '../api'
import { CardSummary } from './CardSummary'

/** The member's choice of how to pay. */
export type Method =
  | { kind: 'saved'; card: SavedCard }
  | { kind: 'new' }
  | { kind: 'other'; type: string }
  | { kind: 'convenienceStore' }

export function sameMethod(a: Method, b: Method): boolean {
  if (a.kind !== b.kind) return false
  if (a.kind === 'saved' && b.kind === 'saved') return a.card.token === b.card.token
  if (a.kind === 'other' && b.kind === 'other') return a.type === b.type
  return true
}

interface Props {
  current: Method
  cards: SavedCard[]
  availability: PaymentAvailability
  onChoose: (m: Method) => void
  onExpired: (card: SavedCard) => void
  onClose: () => void
}

/** The payment method chooser modal: lists the available methods and marks the current one. */
export function PaymentMethodChooser({ current, cards, availability, onChoose, onExpired, onClose }: Props) {
  const { t } = useTranslation('payment')
  const option = (m: Method, label: React.ReactNode, key: string, onClick?: () => void) => {
    const selected = sameMethod(m, current)
    return (
      <li key={key}>
        <button type="button" className={`method-option ${selected ? 'method-option--current' : ''}`.trim()} aria-pressed={selected}
          onClick={onClick ?? (() => { onChoose(m); onClose() })}>
          <span className="method-option__mark" aria-hidden="true">{selected ? '●' : '○'}</span>
          <span className="method-option__label">{label}</span>
          {selected && <span className="method-option__current">{t('chooser.current')}</span>}
        </button>
      </li>
    )
  }
  return (
    <Dialog title={t('chooser.title')} onDismiss={onClose} className="method-chooser" actions={<>
        <button type="button" className="button button--secondary" onClick={onClose}>{t('close')}</button>
      </>}>
      <h3 className="method-chooser__group">{t('methods.creditCard')}</h3>
      <ul className="method-chooser__list">
        {cards.map((card) => card.isValid
          ? option({ kind: 'saved', card }, <CardSummary card={card} />, card.token)
          : (
            // an expired card cannot pay: shown, not offered; its Delete opens the expired-card dialog
            <li key={card.token} className="method-option method-option--unusable">
              <span className="method-option__label"><CardSummary card={card} /></span>
              <button type="button" className="button button--secondary button--small"
                aria-label={t('delete.named', { brand: t(`brands.${card.brand}`), last4: card.cardNumber.slice(-4) })}
                onClick={() => { onClose(); onExpired(card) }}>{t('delete.button')}</button>
            </li>
          ))}
        {option({ kind: 'new' }, t('chooser.newCard'), 'new')}
      </ul>
      {availability.otherPayment.length > 0 && (
        <>
          <h3 className="method-chooser__group">{t('methods.otherPayment')}</h3>
          <ul className="method-chooser__list">
            {availability.otherPayment.map((type) => option({ kind: 'other', type }, t(`otherTypes.${type}`), type))}
          </ul>
        </>
      )}
      {availability.convenienceStore && (
        <>
          <h3 className="method-chooser__group">{t('methods.convenienceStore')}</h3>
          <ul className="method-chooser__list">
            {option({ kind: 'convenienceStore' }, t('methods.convenienceStore'), 'cvs')}
          </ul>
        </>
      )}
    </Dialog>
  )
}
