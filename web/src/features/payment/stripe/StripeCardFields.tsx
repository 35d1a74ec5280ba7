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
}

/**
 * Stripe mode's card inputs: Stripe's own card field (number, expiry,
 * security code; in Stripe's frame) and our holder name and save box.
 */
export function StripeCardFields({ publishableKey, cardRef, register, errors, showSave }: StripeCardFieldsProps) {
  const { t } = useTranslation('payment')
  const lang = useLang()
  const labelId = useId()
  const [failed, setFailed] = useState(false)
  const onLoadFailed = useCallback(() => setFailed(true), [])
  return (
    <div className="card-fields card-fields--stripe">
      <div className="field">
        <span id={labelId} className="field__label">{t('stripe.cardLabel')}</span>
        {failed ? (
          <p className="pay-notice pay-notice--warn" role="alert">{t('stripe.loadFailed')}</p>
        ) : (
          <Suspense fallback={<div className="stripe-card__frame stripe-card__frame--loading" aria-busy="true" />}>
            <StripeCardElement publishableKey={publishableKey} locale={STRIPE_LOCALE[lang]} cardRef={cardRef} labelId={labelId} onLoadFailed={onLoadFailed} />
          </Suspense>
        )}
        <p className="field__hint">{t('stripe.cardHint')}</p>
      </div>
      <HolderFields holder={register('holderName')} save={register('saveCard')} error={errors.holderName} showSave={showSave} />
    </div>
  )
}
