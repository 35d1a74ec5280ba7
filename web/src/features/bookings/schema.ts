/**
 * The booking search form: its defaults (spec §9, today in Japan time) and
 * its rules (spec §5), the same as the server's.
 */
import { z } from 'zod'
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
  return from && to && to < from ? '' : to
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
      pnr: z
        .string()
        .trim()
        .max(20, t('validation.maxLength', { max: 20 }))
        .refine((s) => s === '' || /^[A-Za-z0-9]+$/.test(s), { message: t('validation.pnr'), abort: true }),
      airportCode: z.string(),
      bookingDateFrom: bookingDate,
      bookingDateTo: bookingDate,
      departDateFrom: optionalDate,
      departDateTo: optionalDate,
      status: z.enum(['ACTIVE', 'all']),
      order: z.enum(['asc', 'desc']),
    })
    .superRefine((v, ctx) => {
      if (isDate(v.bookingDateFrom) && isDate(v.bookingDateTo) && v.bookingDateTo < v.bookingDateFrom)
        ctx.addIssue({ code: 'custom', path: ['bookingDateTo'], message: t('validation.dateOrder') })
      if (isDate(v.departDateFrom) && isDate(v.departDateTo) && v.departDateTo < v.departDateFrom)
        ctx.addIssue({ code: 'custom', path: ['departDateTo'], message: t('validation.dateOrder') })
    })
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
      .max(20, t('validation.maxLength', { max: 20 }))
      .refine((s) => /^[A-Za-z0-9]*$/.test(s), { message: t('validation.pnr'), abort: true }),
    lastname: z
      .string()
      .trim()
      .min(1, { message: t('validation.required'), abort: true })
      .max(100, t('validation.maxLength', { max: 100 })),
  })
}
