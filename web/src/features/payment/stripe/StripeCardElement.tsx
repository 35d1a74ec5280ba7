/**
 * Stripe's Card Element (Stripe.js through @stripe/react-stripe-js): the
 * card number, expiry and security code are typed into Stripe's own frame
 * and never reach our pages or servers (PCI DSS SAQ A). A chunk of its own,
 * imported only in Stripe mode (StripeCardFields.tsx); it loads Stripe.js
 * from js.stripe.com when it first renders.
 */
import { useEffect, useImperativeHandle, useState, type Ref } from 'react'
import { loadStripe } from '@stripe/stripe-js/pure'
import type { Stripe, StripeCardElementChangeEvent, StripeElementLocale } from '@stripe/stripe-js'
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js'
import { StripeCardError, type StripeCard } from './stripeCard'

export interface StripeCardElementProps {
  publishableKey: string
  /** Stripe.js's locale (STRIPE_LOCALE): its field's placeholders and messages. */
  locale: StripeElementLocale
  /** The page's handle: set once the element is ready to make a PaymentMethod. */
  cardRef: Ref<StripeCard | null>
  /** The id of the visible label of the field (the frame is named by Stripe). */
  labelId: string
  /** Loading, in the member's language (the box is never empty). */
  loadingText: string
  /**
   * Stripe.js could not be loaded (no connection, blocked) or has not
   * answered within STRIPE_LOAD_TIMEOUT_MS (a connection that does not
   * answer): false; true once its field is ready, also when a slow load
   * ends after the page said it was unavailable.
   */
  onAvailable: (available: boolean) => void
}

/** How long Stripe.js may take before the page says card entry is unavailable (it may still arrive). */
export const STRIPE_LOAD_TIMEOUT_MS = 8000

type Load = { state: 'loading' } | { state: 'ready'; stripe: Stripe } | { state: 'failed' }

export default function StripeCardElement({ publishableKey, locale, cardRef, labelId, loadingText, onAvailable }: StripeCardElementProps) {
  const [load, setLoad] = useState<Load>({ state: 'loading' })
  useEffect(() => {
    let live = true
    // no m.stripe.network fraud-signals frame: the CSP allows Stripe's
    // script, card frame and API origins only
    loadStripe.setLoadParameters({ advancedFraudSignals: false })
    loadStripe(publishableKey).then(
      (stripe) => { if (live) setLoad(stripe ? { state: 'ready', stripe } : { state: 'failed' }) },
      () => { if (live) setLoad({ state: 'failed' }) },
    )
    // a script request that never answers (a captive portal, one bar)
    // fails nothing: the page says so after a while, and the field still
    // appears if Stripe.js arrives later
    const slow = setTimeout(() => { if (live) onAvailable(false) }, STRIPE_LOAD_TIMEOUT_MS)
    return () => { live = false; clearTimeout(slow) }
  }, [publishableKey, onAvailable])
  useEffect(() => {
    if (load.state !== 'loading') onAvailable(load.state === 'ready')
  }, [load.state, onAvailable])
  if (load.state === 'failed') return null
  if (load.state === 'loading') {
    return <div className="stripe-card__frame stripe-card__frame--loading" aria-busy="true"><span role="status">{loadingText}</span></div>
  }
  return (
    <Elements stripe={load.stripe} options={{ locale }}>
      <CardInput cardRef={cardRef} labelId={labelId} />
    </Elements>
  )
}

function CardInput({ cardRef, labelId }: { cardRef: Ref<StripeCard | null>; labelId: string }) {
  const stripe = useStripe()
  const elements = useElements()
  const [error, setError] = useState<string | null>(null)
  const [focused, setFocused] = useState(false)
  useImperativeHandle(cardRef, () => ({
    async createPaymentMethod(holderName: string) {
      const card = elements?.getElement(CardElement)
      if (!stripe || !card) throw new StripeCardError('unavailable')
      let res
      try {
        res = await stripe.createPaymentMethod({ type: 'card', card, billing_details: { name: holderName } })
      } catch (e) {
        throw new StripeCardError('unavailable', e instanceof Error ? e.message : String(e))
      }
      if (res.error) {
        // a card Stripe.js itself finds incomplete or invalid: its message,
        // already in the member's language, goes under the field
        if (res.error.type === 'validation_error') {
          setError(res.error.message ?? null)
          throw new StripeCardError('incomplete', res.error.message)
        }
        throw new StripeCardError('unavailable', res.error.message)
      }
      return res.paymentMethod.id
    },
  }), [stripe, elements])
  const errorId = `${labelId}-error`
  return (
    <>
      <div className={`stripe-card__frame ${focused ? 'stripe-card__frame--focus' : ''} ${error ? 'stripe-card__frame--invalid' : ''}`.trim()}
        role="group" aria-labelledby={labelId} aria-describedby={error ? errorId : undefined} data-testid="stripe-card">
        <CardElement
          options={{ hidePostalCode: true, style: { base: { fontSize: '16px', color: '#1f1f1f', '::placeholder': { color: '#6b6b6b' } }, invalid: { color: '#b3261e' } } }}
          onChange={(e: StripeCardElementChangeEvent) => setError(e.error?.message ?? null)}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
        />
      </div>
      {error && <p id={errorId} className="field__error" role="alert">{error}</p>}
    </>
  )
}
