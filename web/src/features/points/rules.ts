/**
 * The points feature's rules on the client: the currencies in summary
 * order, the summary rows, the voucher rules in words, the month in Japan
 * time. The forms' zod schemas are in schemas.ts.
 */
import type { components } from '@/api/schema'

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

export type T = (key: string, opts?: Record<string, unknown>) => string

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


/** YYYY-MM of a date in Japan time. */
export function monthJST(now: Date = new Date()): string {
  return new Date(now.getTime() + 9 * 3_600_000).toISOString().slice(0, 7)
}
