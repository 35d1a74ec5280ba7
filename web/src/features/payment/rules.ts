/**
 * Card rules, mirrored from the server and the gateway:
 * number 14 to 16 digits (American Express has 15), Luhn, CVV 3 digits
 * (4 for American Express), holder and expiry required, expiry not in
 * the past; brand display order; currency scope. The member types the
 * expiry as printed on the card, "MM/YY" (what browser autofill gives for
 * autocomplete="cc-exp"); the gateway and the API keep "YY/MM" (read as
 * 20YY): printedToApiExpiry and apiToPrintedExpiry convert. The card
 * form's zod schema, built on these, is in schemas.ts.
 */
export const BRAND_ORDER = ['visa', 'mastercard', 'jcb', 'amex', 'diners', 'discover'] as const
export type Brand = (typeof BRAND_ORDER)[number]

/** The brand of a card number by its prefix (the gateway decides; this is for the form's hints and CVV length). */
export function brandOf(number: string): Brand | '' {
  const n = number.replace(/\D/g, '')
  if (/^4/.test(n)) return 'visa'
  if (/^(5[1-5]|2[2-7])/.test(n)) return 'mastercard'
  if (/^35/.test(n)) return 'jcb'
  if (/^3[47]/.test(n)) return 'amex'
  if (/^3(0[0-5]|[68])/.test(n)) return 'diners'
  if (/^6(011|5)/.test(n)) return 'discover'
  return ''
}

export function luhn(number: string): boolean {
  let sum = 0
  let double = false
  for (let i = number.length - 1; i >= 0; i--) {
    let d = number.charCodeAt(i) - 48
    if (double) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
    double = !double
  }
  return sum % 10 === 0
}

/** The first day after the card's last valid month (Japan time), or null for a malformed "YY/MM". */
export function expiryEnd(exp: string): Date | null {
  const m = /^(\d{2})\/(\d{2})$/.exec(exp)
  if (!m) return null
  const year = 2000 + Number(m[1])
  const month = Number(m[2])
  if (month < 1 || month > 12) return null
  // midnight at the start of the next month in UTC+9
  return new Date(Date.UTC(year, month, 1) - 9 * 3600_000)
}

/**
 * The expiry as typed ("MM/YY" as printed; also "MMYY", "MM / YY", "MM-YY"
 * and "MM/YYYY", which autofill and hurried typing give) in the API's
 * "YY/MM", or null when it is not a month and year.
 */
export function printedToApiExpiry(typed: string): string | null {
  const m = /^(\d{1,2})\s*[/\-.]?\s*(\d{2}|\d{4})$/.exec(typed.trim())
  if (!m) return null
  if (m[1].length === 1 && !/[/\-.\s]/.test(typed.trim())) return null
  const month = Number(m[1])
  if (month < 1 || month > 12) return null
  const yy = m[2].length === 4 ? m[2].slice(2) : m[2]
  if (m[2].length === 4 && !m[2].startsWith('20')) return null
  return `${yy}/${String(month).padStart(2, '0')}`
}

/** The API's "YY/MM" as printed on the card, "MM/YY" (unchanged when malformed). */
export function apiToPrintedExpiry(api: string): string {
  const m = /^(\d{2})\/(\d{2})$/.exec(api)
  return m ? `${m[2]}/${m[1]}` : api
}

export function isCardExpired(exp: string, now: Date = new Date()): boolean {
  const end = expiryEnd(exp)
  return end === null || now >= end
}

/**
 * A saved card held by another gateway than the configured one (saved
 * before a change of payment service): the server marks it not usable
 * although it has not expired. It is shown as such and never offered to pay.
 */
export function heldElsewhere(card: { usable?: boolean; expirationDate: string }, now: Date = new Date()): boolean {
  return card.usable === false && !isCardExpired(card.expirationDate, now)
}

/** Card scope vs purchase currency: JPY cards pay yen, NON_JPY cards the others, ALL cards everything. */
export function cardServes(scope: string, currency: string): boolean {
  if (scope === 'ALL') return true
  if (scope === 'JPY') return currency === 'JPY'
  if (scope === 'NON_JPY') return currency !== 'JPY'
  return false
}

export function brandRank(brand: string): number {
  const i = (BRAND_ORDER as readonly string[]).indexOf(brand)
  return i < 0 ? BRAND_ORDER.length : i
}

export function sortByBrand<T extends { brand: string }>(cards: readonly T[]): T[] {
  return [...cards].sort((a, b) => brandRank(a.brand) - brandRank(b.brand))
}
