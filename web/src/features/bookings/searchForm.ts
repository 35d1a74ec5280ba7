/**
 * The booking search form: its defaults (today in Japan time), the date
 * range helpers, its request and its resolver; the zod schemas (the same
 * rules as the server's) are in schemas.ts, loaded on the first validation
 * (lazyResolver).
 */
import type { Resolver } from 'react-hook-form'
import { lazyResolver } from '@/components/lazyResolver'
import { isDate } from '@/i18n/dateInput'
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

/**
 * The value a date-to field keeps after either end of its range changed:
 * resets a to-date that precedes its from-date.
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

/** Booking and departure from 180 days before today, booking to today, ascending, ACTIVE. */
export function searchDefaults(now: Date = new Date()): SearchForm {
  const today = todayJST(now)
  const from = addDays(today, -DEFAULT_RANGE_DAYS)
  return { pnr: '', airportCode: '', bookingDateFrom: from, bookingDateTo: today, departDateFrom: from, departDateTo: '', status: 'ACTIVE', order: 'asc' }
}

export type T = (key: string, opts?: Record<string, unknown>) => string
export { isDate } from '@/i18n/dateInput'

/** react-hook-form resolver for the search form, from validateSearch (schemas.ts, loaded on first use). */
export function searchResolver(t: T, now: () => Date = () => new Date()): Resolver<SearchForm> {
  return lazyResolver<SearchForm>(() =>
    import('./schemas').then(({ validateSearch }) => async (values: SearchForm) => {
      const errors = validateSearch(values, t, now)
      if (Object.keys(errors).length === 0) return { values, errors: {} }
      return {
        values: {},
        errors: Object.fromEntries(Object.entries(errors).map(([k, message]) => [k, { type: 'validate', message }])),
      }
    }),
  )
}

/** The request of a submitted form (page 1 unless given). */
export function toQuery(f: SearchForm, page = 1, perPage = 10): ReservationQuery {
  return { ...f, pnr: f.pnr.trim().toUpperCase(), form: 'search', page, perPage, withFlightStatus: true, timeZone: '+09:00' }
}
