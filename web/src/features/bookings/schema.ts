/**
 * The booking search form: its defaults (spec §9, today in Japan time) and
 * its rules (spec §5), the same as the server's.
 */
import { z } from 'zod'
import type { Resolver } from 'react-hook-form'
import type { ReservationQuery } from './api'

const DAY = 86_400_000
const JST_OFFSET = 9 * 3_600_000
export const EARLIEST_DATE = '2012-01-01'
export const DEFAULT_RANGE_DAYS = 180
export const FORBIDDEN_ADDRESSEE = /[&#<>'"[\]]/

/** Today's calendar date in Japan time (UTC+9), YYYY-MM-DD. */
export function todayJST(now: Date = new Date()): string {
  return new Date(now.getTime() + JST_OFFSET).toISOString().slice(0, 10)
}

/** A calendar date moved by days. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10)
}

export interface SearchForm {
  pnr: string
  airportCode: string
  bookingDateFrom: string
  bookingDateTo: string
  departDateFrom: string
  departDateTo: string
  status: 'ACTIVE' | 'all'
  order: 'asc' | 'desc'
}

/** Booking and departure from 180 days before today, booking to today, ascending, ACTIVE. */
/**
 * The value a date-to field keeps after either end of its range changed:
 * spec §5 resets a to-date that precedes its from-date.
 */
export function keepRangeEnd(from: string, to: string): string {
  return isWholeDate(from) && isWholeDate(to) && to < from ? '' : to
}

/**
 * A date the member has finished typing: a date input reports partial years
 * (0002-, 0020-, 0202-) while the year is typed, so the range rule waits for
 * a four-digit year from 1000 on and runs when the field is left.
 */
export function isWholeDate(s: string): boolean {
  return isDate(s) && s >= '1000-01-01'
}

export function searchDefaults(now: Date = new Date()): SearchForm {
  const today = todayJST(now)
  const from = addDays(today, -DEFAULT_RANGE_DAYS)
  return { pnr: '', airportCode: '', bookingDateFrom: from, bookingDateTo: today, departDateFrom: from, departDateTo: '', status: 'ACTIVE', order: 'asc' }
}

type T = (key: string, opts?: Record<string, unknown>) => string
const ISO = /^\d{4}-\d{2}-\d{2}$/

function isDate(s: string): boolean {
  return ISO.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s)
}

/** The form's rules; first failing rule per field, like the server. */
export function searchSchema(t: T, now: () => Date = () => new Date()) {
  const bookingDate = z
    .string()
    .trim()
    .min(1, { message: t('validation.required'), abort: true })
    .refine(isDate, { message: t('validation.date'), abort: true })
    .refine((s) => s >= EARLIEST_DATE, { message: t('validation.after2012'), abort: true })
    .refine((s) => s <= todayJST(now()), { message: t('validation.pastDate'), abort: true })
  const optionalDate = z
    .string()
    .trim()
    .refine((s) => s === '' || isDate(s), { message: t('validation.date'), abort: true })
  return z
    .object({
      // Spec order, as the server checks: single-byte alphanumerics, then the length.
      pnr: z
        .string()
        .trim()
        .refine((s) => s === '' || /^[A-Za-z0-9]+$/.test(s), { message: t('validation.pnr'), abort: true })
        .refine((s) => s.length <= 20, { message: t('validation.maxLength', { max: 20 }), abort: true }),
      airportCode: z.string(),
      bookingDateFrom: bookingDate,
      bookingDateTo: bookingDate,
      departDateFrom: optionalDate,
      departDateTo: optionalDate,
      status: z.enum(['ACTIVE', 'all']),
      order: z.enum(['asc', 'desc']),
    })
}

/**
 * Every field's first failing rule, the date-order rule included even when
 * other fields failed (zod skips object-level rules then), so the form shows
 * all errors at once, as the server reports them.
 */
export function validateSearch(v: SearchForm, t: T, now: () => Date = () => new Date()): Partial<Record<keyof SearchForm, string>> {
  const errors: Partial<Record<keyof SearchForm, string>> = {}
  const r = searchSchema(t, now).safeParse(v)
  if (!r.success) {
    for (const issue of r.error.issues) {
      const field = issue.path[0] as keyof SearchForm
      errors[field] ??= issue.message
    }
  }
  const order = (from: keyof SearchForm, to: keyof SearchForm) => {
    const f = String(v[from]).trim()
    const tt = String(v[to]).trim()
    if (!errors[from] && !errors[to] && isDate(f) && isDate(tt) && tt < f) errors[to] = t('validation.dateOrder')
  }
  order('bookingDateFrom', 'bookingDateTo')
  order('departDateFrom', 'departDateTo')
  return errors
}

/** react-hook-form resolver for the search form, from validateSearch. */
export function searchResolver(t: T, now: () => Date = () => new Date()): Resolver<SearchForm> {
  return async (values) => {
    const errors = validateSearch(values, t, now)
    if (Object.keys(errors).length === 0) return { values, errors: {} }
    return {
      values: {},
      errors: Object.fromEntries(Object.entries(errors).map(([k, message]) => [k, { type: 'validate', message }])),
    }
  }
}

/** The request of a submitted form (page 1 unless given). */
export function toQuery(f: SearchForm, page = 1, perPage = 10): ReservationQuery {
  return { ...f, pnr: f.pnr.trim().toUpperCase(), form: 'search', page, perPage, withFlightStatus: true, timeZone: '+09:00' }
}

/** The add-a-booking form: PNR (single-byte alphanumerics, max 20) and a passenger's last name. */
export function addSchema(t: T) {
  return z.object({
    pnr: z
      .string()
      .trim()
      .min(1, { message: t('validation.required'), abort: true })
      .refine((s) => /^[A-Za-z0-9]*$/.test(s), { message: t('validation.pnr'), abort: true })
      .refine((s) => s.length <= 20, { message: t('validation.maxLength', { max: 20 }), abort: true }),
    lastname: z
      .string()
      .trim()
      .min(1, { message: t('validation.required'), abort: true })
      .max(100, t('validation.maxLength', { max: 100 })),
  })
}
