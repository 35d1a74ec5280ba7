/** The points forms' zod schemas (the same rules as the server's); messages from the "points" catalogue. */
import { z } from 'zod'
import { isDate } from '@/i18n/dateInput'
import type { ProductFields } from '@/features/payment'
import { CURRENCIES, MAX_TEXT, type T } from './rules'
import type { SearchForm } from './searchForm'

export function searchSchema(t: T) {
  const optionalDate = z.string().trim().refine((s) => s === '' || isDate(s), { message: t('validation.date') })
  return z.object({
    currencyCode: z.string().refine((s) => s === '' || (CURRENCIES as readonly string[]).includes(s), { message: t('validation.currency') }),
    expireDate: optionalDate,
    travelExpireDate: optionalDate,
    hasBalance: z.boolean(),
    isOnlyActive: z.boolean(),
  }) satisfies z.ZodType<SearchForm, SearchForm>
}
export type { SearchForm } from './searchForm'

const required = (t: T, message = t('validation.required')) =>
  z.string().trim().min(1, { message, abort: true }).max(MAX_TEXT, { message: t('validation.maxLength', { max: MAX_TEXT }) })

/** Reissue: point number, PIN and e-mail are required, at most 100 characters; the e-mail well-formed. */
export function reissueSchema(t: T) {
  return z.object({
    pointNumber: required(t),
    pin: required(t),
    email: required(t).refine((s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), { message: t('validation.email') }),
  })
}
export type ReissueForm = z.infer<ReturnType<typeof reissueSchema>>

/** Exchange: the code ("Enter the conversion code") and its password (max 100), trimmed. */
export function exchangeSchema(t: T) {
  return z.object({ code: required(t, t('validation.code')), password: required(t) })
}
export type ExchangeForm = z.infer<ReturnType<typeof exchangeSchema>>

/**
 * Purchase: nominee (Latin letters), currency unit and amount are required.
 * The form's fields are text (the amount is a select's value); what the
 * schema gives is the purchase's own fields as the API takes them: the
 * nominee's spaces folded, the amount a number.
 */
export function saleSchema(t: T, amounts: Record<string, number[]>) {
  return z
    .object({
      nominee: required(t)
        .refine((s) => /^[A-Za-z][A-Za-z .'-]*$/.test(s), { message: t('validation.nominee') })
        .transform((s) => s.replace(/\s+/g, ' ')),
      currencyCode: z.string().min(1, { message: t('validation.required') }),
      amount: z
        .string()
        .min(1, { message: t('validation.required') })
        .transform((s) => Number(s)),
    })
    .superRefine((v, ctx) => {
      if (v.currencyCode && !(amounts[v.currencyCode] ?? []).includes(v.amount))
        ctx.addIssue({ code: 'custom', path: ['amount'], message: t('validation.amount') })
    }) satisfies z.ZodType<ProductFields<'peachpoints'>, SaleInput>
}
/** The sale form as typed (every field text). */
export interface SaleInput {
  nominee: string
  currencyCode: string
  amount: string
}
/** The sale form as checked: the points' purchase fields. */
export type SaleForm = z.output<ReturnType<typeof saleSchema>>
