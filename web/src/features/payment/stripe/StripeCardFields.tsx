import { lazy, Suspense, useCallback, useId, useState, type Ref } from 'react'
import type { FieldErrors, UseFormRegister } from 'react-hook-form'
import { useLang, useTranslation } from '@/i18n/translation'
import { HolderFields } from '../components/CardFields'
import type { StripeCardForm } from '../schemas'
import { STRIPE_LOCALE, type StripeCard } from './stripeCard'

// Stripe.js and its React bindings: a chunk of their own, fetched only
// when a page that takes a card renders this in Stripe mode
const StripeCardElement = lazy(() => import('./StripeCardElement'))

export interface StripeCardFieldsProps {
  publishableKey: string
  /** Set to the card handle once Stripe's field is ready. */
  cardRef: Ref<StripeCard | null>
  register: UseFormRegister<StripeCardForm>
  errors: FieldErrors<StripeCardForm>
  showSave: boolean
  /** Opens the choice of the other ways to pay (the purchase's panel); without it only a retry is offered. */
  onOtherMethods?: () => void
  /** Whether card entry works: false while Stripe.js cannot be loaded. */
  onAvailable?: (available: boolean) => void
}

/**
 * Stripe mode's card inputs: Stripe's own card field (number, expiry,
 * security code; in Stripe's frame) and our holder name and save box.
 * When Stripe.js cannot be loaded (blocked, no connection, no answer
 * within STRIPE_LOAD_TIMEOUT_MS), it says in the member's language that
 * card entry is unavailable, offers the other ways to pay (onOtherMethods)
 * and to load the field again; a load that ends late still shows it.
 */
export function StripeCardFields({ publishableKey, cardRef, register, errors, showSave, onOtherMethods, onAvailable }: StripeCardFieldsProps) {
  const { t } = useTranslation('payment')
  const lang = useLang()
  const labelId = useId()
  const [available, setAvailable] = useState<boolean | null>(null)
  // a new attempt remounts the element, which asks Stripe.js again
  const [attempt, setAttempt] = useState(0)
  const report = useCallback((ok: boolean) => {
    setAvailable(ok)
    onAvailable?.(ok)
  }, [onAvailable])
  const unavailable = available === false
  return (
    <div className="card-fields card-fields--stripe">
      <div className="field">
        <span id={labelId} className="field__label">{t('stripe.cardLabel')}</span>
        {unavailable && (
          <div className="pay-notice pay-notice--warn stripe-card__unavailable" role="alert">
            <p>{t('stripe.loadFailed')}</p>
            <p>{onOtherMethods ? t('stripe.otherMethodsHint') : t('stripe.retryHint')}</p>
            <div className="stripe-card__actions">
              {onOtherMethods && <button type="button" className="button button--primary" onClick={onOtherMethods}>{t('stripe.otherMethods')}</button>}
              <button type="button" className="button button--secondary" onClick={() => { setAvailable(null); setAttempt((n) => n + 1) }}>{t('stripe.retry')}</button>
            </div>
          </div>
        )}
        <div hidden={unavailable}>
          <Suspense fallback={<div className="stripe-card__frame stripe-card__frame--loading" aria-busy="true"><span role="status">{t('stripe.loading')}</span></div>}>
            <StripeCardElement key={attempt} publishableKey={publishableKey} locale={STRIPE_LOCALE[lang]} cardRef={cardRef} labelId={labelId}
              loadingText={t('stripe.loading')} onAvailable={report} />
          </Suspense>
        </div>
        {!unavailable && <p className="field__hint">{t('stripe.cardHint')}</p>}
      </div>
      <HolderFields holder={register('holderName')} save={register('saveCard')} error={errors.holderName} showSave={showSave} />
    </div>
  )
}
