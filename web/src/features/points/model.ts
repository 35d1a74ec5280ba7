/**
 * The points feature's rules on the client: the summary rows, the voucher
 * rules in words, and the forms' schemas (the same rules as the server's).
 */
import { z } from 'zod'
import type { components } from '@/api/schema'
import { isDate } from '@/i18n/dateInput'

type SummaryEntry = components['schemas']['PeachpointSummaryEntry']
type Rule = components['schemas']['PeachpointRule']

/** The summary order. */
export const CURRENCIES = ['KRW', 'CNY', 'JPY', 'TWD', 'HKD', 'THB', 'SGD'] as const
export type Currency = (typeof CURRENCIES)[number]
/** Currencies whose expired points can be reissued (the CNY and TWD variants of the reissue page). */
export const REISSUE_VARIANTS = ['cny', 'twd'] as const
export type ReissueVariant = (typeof REISSUE_VARIANTS)[number]
export const MAX_TEXT = 100

export interface SummaryRow {
  currencyCode: string
  currency: string
  available: number
  expireThisMonth: number
  expireNextMonth: number
}

/** The summary entries (one per currency and group) as one row per currency, in the summary order. */
export function summaryRows(entries: SummaryEntry[]): SummaryRow[] {
  const rows = new Map<string, SummaryRow>(
    CURRENCIES.map((c) => [c, { currencyCode: c, currency: c, available: 0, expireThisMonth: 0, expireNextMonth: 0 }]),
  )
  for (const e of entries) {
    const row = rows.get(e.currencyCode)
    if (!row) continue
    row.currency = e.currency
    row[e.group] = e.amount
  }
  return [...rows.values()]
}

/** What a failed summary load shows: every currency with NaN amounts. */
export function placeholderRows(): SummaryRow[] {
  return CURRENCIES.map((c) => ({ currencyCode: c, currency: c, available: NaN, expireThisMonth: NaN, expireNextMonth: NaN }))
}

type T = (key: string, opts?: Record<string, unknown>) => string

/** A voucher rule in words. */
export function ruleText(rule: Rule, t: T, formatDate: (d: string) => string): string {
  switch (rule.type) {
    case 'voucherMarketOriginDestinationRule':
      return t('rules.market', { routes: (rule.marketOriginDestinations ?? []).map((r) => r.replace('-', ' – ')).join(', ') })
    case 'voucherTravelDateRule':
      return t('rules.travelDates', {
        periods: (rule.travelDates ?? []).map((p) => `${formatDate(p.fromDate)} – ${formatDate(p.toDate)}`).join(', '),
      })
    case 'voucherFareClassRule':
      return t('rules.fareClass', { fares: (rule.fareClassCodes ?? []).map((f) => t(`fares.${f}`, { defaultValue: f })).join(', ') })
  }
  return ''
}


export function searchSchema(t: T) {
  const optionalDate = z.string().trim().refine((s) => s === '' || isDate(s), { message: t('validation.date') })
  return z.object({
    currencyCode: z.string().refine((s) => s === '' || (CURRENCIES as readonly string[]).includes(s), { message: t('validation.currency') }),
    expireDate: optionalDate,
    travelExpireDate: optionalDate,
    hasBalance: z.boolean(),
    isOnlyActive: z.boolean(),
  })
}
export type SearchForm = z.infer<ReturnType<typeof searchSchema>>
export const searchDefaults: SearchForm = { currencyCode: '', expireDate: '', travelExpireDate: '', hasBalance: true, isOnlyActive: true }

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

/** Purchase: nominee (Latin letters), currency unit and amount are required. */
export function saleSchema(t: T, amounts: Record<string, number[]>) {
  return z
    .object({
      nominee: required(t).refine((s) => /^[A-Za-z][A-Za-z .'-]*$/.test(s), { message: t('validation.nominee') }),
      currencyCode: z.string().min(1, { message: t('validation.required') }),
      amount: z.string().min(1, { message: t('validation.required') }),
    })
    .superRefine((v, ctx) => {
      if (v.currencyCode && v.amount && !(amounts[v.currencyCode] ?? []).includes(Number(v.amount)))
        ctx.addIssue({ code: 'custom', path: ['amount'], message: t('validation.amount') })
    })
}
export type SaleForm = z.infer<ReturnType<typeof saleSchema>>

/** YYYY-MM of a date in Japan time. */
export function monthJST(now: Date = new Date()): string {
  return new Date(now.getTime() + 9 * 3_600_000).toISOString().slice(0, 7)
}
