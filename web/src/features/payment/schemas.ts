/** The card form's zod schema: the card rules of rules.ts, first failing rule per field. */
import { z } from 'zod'
import { brandOf, expiryEnd, isCardExpired, luhn, printedToApiExpiry } from './rules'

/** Form messages: keys of the payment catalogue's "card.errors". */
export type CardMessage = (key: string) => string

/** A holder name as embossed: Latin letters, spaces, dots, apostrophes, hyphens. */
const HOLDER = /^[A-Za-z][A-Za-z .'-]*$/

export function cardSchema(msg: CardMessage, now: () => Date = () => new Date()) {
  return z
    .object({
      cardNumber: z.string(),
      expirationDate: z.string(),
      cvv: z.string(),
      holderName: z.string(),
      saveCard: z.boolean(),
    })
    .superRefine((v, ctx) => {
      const number = v.cardNumber.replace(/[\s-]/g, '')
      const add = (path: string, key: string) => ctx.addIssue({ code: 'custom', path: [path], message: msg(key) })
      if (number === '') add('cardNumber', 'required')
      else if (!/^\d+$/.test(number)) add('cardNumber', 'digits')
      else if (number.length < 14 || number.length > 16) add('cardNumber', 'length')
      else if (!luhn(number)) add('cardNumber', 'luhn')
      const typed = v.expirationDate.trim()
      const exp = printedToApiExpiry(typed)
      if (typed === '') add('expirationDate', 'required')
      else if (exp === null || expiryEnd(exp) === null) add('expirationDate', 'format')
      else if (isCardExpired(exp, now())) add('expirationDate', 'expired')
      const cvvLength = brandOf(number) === 'amex' ? 4 : 3
      if (v.cvv === '') add('cvv', 'required')
      else if (!/^\d+$/.test(v.cvv)) add('cvv', 'digits')
      else if (v.cvv.length !== cvvLength) add('cvv', cvvLength === 4 ? 'cvvAmex' : 'cvvLength')
      if (v.holderName.trim() === '') add('holderName', 'required')
      else if (!HOLDER.test(v.holderName.trim())) add('holderName', 'latin')
    })
}
export type CardForm = z.infer<ReturnType<typeof cardSchema>>

/** Stripe mode's card form: the card itself is in Stripe's field; ours keep the holder and the save box. */
export function stripeCardSchema(msg: CardMessage) {
  return z
    .object({ holderName: z.string(), saveCard: z.boolean() })
    .superRefine((v, ctx) => {
      const name = v.holderName.trim()
      if (name === '') ctx.addIssue({ code: 'custom', path: ['holderName'], message: msg('required') })
      else if (!HOLDER.test(name)) ctx.addIssue({ code: 'custom', path: ['holderName'], message: msg('latin') })
    })
}
export type StripeCardForm = z.infer<ReturnType<typeof stripeCardSchema>>
