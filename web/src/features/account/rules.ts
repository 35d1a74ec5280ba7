/**
 * The account rules, the same as the server's (internal/account/rules.go).
 * Each check returns the first failing rule as a catalogue key under `rules.`
 * (with its arguments) or null. The forms' zod schemas (schemas.ts) use them.
 */
import { isDate } from '@/i18n/dateInput'

export type RuleError = { key: string; args?: Record<string, unknown> } | null

export const MEMBER_MIN_AGE = 12
export const TEL_MIN = 8
export const TEL_MAX = 11
export const EMAIL_MAX = 100
export const NAME_MAX = 50
export const PASSWORD_MIN = 8
export const PASSWORD_MAX = 32
export const PASSWORD_HARD_MAX = 100
export const ADDRESS_MAX = 100
export const MAX_PASSENGERS = 20

const JST_OFFSET = 9 * 3_600_000
const LATIN_NAME = /^[A-Za-z][A-Za-z .'-]*$/
const EMAIL = /^[^\s@"<>(),;:\\[\]]+@[^\s@"<>(),;:\\[\]]+\.[^\s@"<>(),;:\\[\]]+$/

const req = { key: 'required' }

/** Today's calendar date in Japan time (UTC+9), YYYY-MM-DD. */
export function todayJST(now: Date = new Date()): string {
  return new Date(now.getTime() + JST_OFFSET).toISOString().slice(0, 10)
}

/** Whole years on `day` of someone born on `birth` (both YYYY-MM-DD). */
export function ageOn(birth: string, day: string): number {
  const [by, bm, bd] = birth.split('-').map(Number)
  const [y, m, d] = day.split('-').map(Number)
  let age = y - by
  if (m < bm || (m === bm && d < bd)) age--
  return age
}

/** INFANT under 2, CHILD 2 to 11, ADULT 12 and over. */
export function passengerTypeFor(birth: string, today: string): 'ADULT' | 'CHILD' | 'INFANT' {
  const age = ageOn(birth, today)
  if (age <= 1) return 'INFANT'
  if (age <= 11) return 'CHILD'
  return 'ADULT'
}

/** Characters outside the Basic Multilingual Plane (emoji, rare kanji). */
export function hasFourByteChars(s: string): boolean {
  for (const ch of s) if ((ch.codePointAt(0) ?? 0) > 0xffff) return true
  return false
}

export function checkName(v: string): RuleError {
  const s = v.trim()
  if (!s) return req
  if (!LATIN_NAME.test(s)) return { key: 'nameLatin' }
  if ([...v].length > NAME_MAX) return { key: 'maxLength', args: { max: NAME_MAX } }
  return null
}

export function checkGender(v: string): RuleError {
  if (!v) return req
  return v === 'male' || v === 'female' ? null : { key: 'genderInvalid' }
}

/** Birth date; minAge < 0 means no minimum (passengers). */
export function checkBirth(v: string, now: Date = new Date(), minAge = MEMBER_MIN_AGE): RuleError {
  if (!v.trim()) return req
  if (!isDate(v) || v < '1900-01-01') return { key: 'dateInvalid' }
  const today = todayJST(now)
  if (v > today) return { key: 'birthFuture' }
  if (minAge >= 0 && ageOn(v, today) < minAge) return { key: 'memberAge', args: { min: minAge } }
  return null
}

/**
 * A phone number as it is stored: the separators a member types (hyphens,
 * dashes, spaces, dots, brackets; ASCII or full-width) removed and
 * full-width digits made ASCII. The server cleans the same way (CleanTel).
 */
export function cleanTel(v: string): string {
  return v
    .trim()
    .replace(/[-\u2010-\u2014\u2212\uff0d\u30fc \u00a0\u3000\t.()\uff08\uff09]/g, '')
    .replace(/[\uff10-\uff19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))
}

export function checkTel(raw: string, required = true): RuleError {
  const v = cleanTel(raw)
  if (!v) return required ? req : null
  if (v.startsWith('+') || v.startsWith('00')) return { key: 'telPrefix' }
  if (!/^[0-9]+$/.test(v)) return { key: 'telDigits' }
  if (v.length < TEL_MIN || v.length > TEL_MAX) return { key: 'telLength', args: { min: TEL_MIN, max: TEL_MAX } }
  return null
}

export function checkEmail(v: string, required = true): RuleError {
  const s = v.trim()
  if (!s) return required ? req : null
  if ([...s].length > EMAIL_MAX) return { key: 'maxLength', args: { max: EMAIL_MAX } }
  if (!EMAIL.test(s)) return { key: 'email' }
  return null
}

export function checkRequired(v: string): RuleError {
  return v.trim() ? null : req
}

export function checkAddress(v: string, required: boolean): RuleError {
  if (!v.trim()) return required ? req : null
  if (hasFourByteChars(v)) return { key: 'fourByte' }
  if ([...v].length > ADDRESS_MAX) return { key: 'maxLength', args: { max: ADDRESS_MAX } }
  return null
}

export function checkPassportNo(v: string): RuleError {
  if (!v) return null
  if (!/^[A-Za-z0-9]+$/.test(v)) return { key: 'passportNo' }
  return v.length > 20 ? { key: 'maxLength', args: { max: 20 } } : null
}

export function checkOptionalDate(v: string): RuleError {
  return !v || isDate(v) ? null : { key: 'dateInvalid' }
}

/** A letter is Unicode category L, a digit category Nd, as on the server (testdata/passwords.json). */
export function checkNewPassword(v: string): RuleError {
  if (!v.trim()) return req
  const n = [...v].length
  if (n > PASSWORD_HARD_MAX || n < PASSWORD_MIN || n > PASSWORD_MAX) return { key: 'passwordLength', args: { min: PASSWORD_MIN, max: PASSWORD_MAX } }
  if (!/\p{L}/u.test(v) || !/\p{Nd}/u.test(v)) return { key: 'passwordChars' }
  return null
}

export function checkReenter(v: string, password: string): RuleError {
  if (!v) return req
  return v === password ? null : { key: 'passwordMismatch' }
}

export function checkPassengerType(type: string, birth: string, now: Date = new Date()): RuleError {
  if (type && !['ADULT', 'CHILD', 'INFANT'].includes(type)) return { key: 'passengerTypeInvalid' }
  if (!type || !isDate(birth)) return null
  return passengerTypeFor(birth, todayJST(now)) === type ? null : { key: 'passengerTypeMismatch' }
}

/** Whether the form's address differs from the saved one (letter case aside, as on the server). */
export function isEmailChange(currentEmail: string | undefined, email: string): boolean {
  return currentEmail !== undefined && email.trim().toLowerCase() !== currentEmail.trim().toLowerCase()
}
