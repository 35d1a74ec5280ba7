import type { Resolver } from 'react-hook-form'
import type { CardForm, CardMessage, StripeCardForm } from './schemas'

/**
 * The card forms' resolvers (schemas.ts on zod), loaded on a form's first
 * validation through lazyResolver (components/lazyResolver.ts): zod is not
 * part of a page's first load (docs/speed.md).
 */
export async function loadCardRules(): Promise<{ card: (msg: CardMessage) => Resolver<CardForm>; stripeCard: (msg: CardMessage) => Resolver<StripeCardForm> }> {
  const [s, { zodResolver }] = await Promise.all([import('./schemas'), import('@hookform/resolvers/zod')])
  return { card: (msg) => zodResolver(s.cardSchema(msg)), stripeCard: (msg) => zodResolver(s.stripeCardSchema(msg)) }
}
