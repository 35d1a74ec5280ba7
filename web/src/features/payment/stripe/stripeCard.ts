/**
 * Stripe mode's card entry, the part every page may import: the handle a
 * page gets from the card element, its error and the member's language as
 * Stripe names it. Stripe.js itself (@stripe/stripe-js and
 * @stripe/react-stripe-js) is in StripeCardElement.tsx, a chunk of its own
 * that loads only when the gateway is Stripe (StripeCardFields.tsx).
 */
import type { StripeElementLocale } from '@stripe/stripe-js'
import type { Lang } from '@/i18n/languages'

/** What a page does with the card the member typed into Stripe's own field. */
export interface StripeCard {
  /** A PaymentMethod id (pm_…) made by Stripe from the typed card, or a StripeCardError. */
  createPaymentMethod(holderName: string): Promise<string>
}

/**
 * Stripe refused to make a PaymentMethod: `incomplete` (the member has to
 * fix the card field; Stripe's own message, in the member's language, is
 * shown under it) or `unavailable` (Stripe.js did not answer).
 */
export class StripeCardError extends Error {
  constructor(readonly code: 'incomplete' | 'unavailable', message: string = code) {
    super(message)
    this.name = 'StripeCardError'
  }
}

/** Stripe.js's locale for each of the app's languages. */
export const STRIPE_LOCALE = {
  jp: 'ja', en: 'en', sg: 'en', kr: 'ko', cn: 'zh', tw: 'zh-TW', hk: 'zh-HK', th: 'th',
} as const satisfies Record<Lang, StripeElementLocale>
