import { BCP47, type Lang } from './languages'

/** Minor-unit decimals per currency (design.md §5): SGD has two, the others none. */
export function currencyDecimals(currency: string): number {
  return currency.toUpperCase() === 'SGD' ? 2 : 0
}

/** An integer amount in minor units as a number with thousands separators: 1234 JPY → "1,234", 1234 SGD → "12.34". */
export function formatAmount(minor: number, currency: string, lang: Lang): string {
  if (!Number.isFinite(minor)) return '-'
  const decimals = currencyDecimals(currency)
  const value = minor / 10 ** decimals
  return new Intl.NumberFormat(BCP47[lang], {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: true,
  }).format(value)
}

/** Amount with its currency code in front: "JPY 1,234", "SGD 12.34". */
export function formatMoney(minor: number, currency: string, lang: Lang): string {
  return `${currency.toUpperCase()} ${formatAmount(minor, currency, lang)}`
}

/** A calendar date (ISO "YYYY-MM-DD" or a Date) in the language's medium style. */
export function formatDate(value: string | Date, lang: Lang, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  const date = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value)
  if (Number.isNaN(date.getTime())) return ''
  const tz = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? 'UTC' : options.timeZone
  return new Intl.DateTimeFormat(BCP47[lang], { ...options, timeZone: tz }).format(date)
}

/** Date and time of an instant, shown in the given time zone offset or IANA zone (default Japan). */
export function formatDateTime(value: string | Date, lang: Lang, timeZone = 'Asia/Tokyo'): string {
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return ''
  return new Intl.DateTimeFormat(BCP47[lang], { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date)
}
