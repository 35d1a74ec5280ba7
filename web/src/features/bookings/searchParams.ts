/**
 * The booking search in the page's address: a submitted condition and its
 * page are written to the query string (one history entry per search), so
 * Back returns to the previous search and a reload or a shared link shows
 * the same one. An address without any of these parameters is the default
 * search (its dates move with today, so they are not written until the
 * member searches). A field missing from an address that names others is
 * its default, so a mailed link naming only a booking (`?pnr=HNK7Q2`) is a
 * whole search: that booking wherever its dates fall (booked from 2012 to
 * today, any departure, any status). A field the member emptied is written
 * empty (`departDateFrom=`), so it reads back empty, not as the default.
 * Other parameters of the address (lang) are kept.
 */
import { EARLIEST_DATE, searchDefaults, toQuery, type SearchForm } from './searchForm'
import type { ReservationQuery } from './api'

const FIELDS = ['pnr', 'airportCode', 'bookingDateFrom', 'bookingDateTo', 'departDateFrom', 'departDateTo', 'status', 'order'] as const satisfies readonly (keyof SearchForm)[]
const PAGE = 'page'

export interface AddressedSearch {
  form: SearchForm
  page: number
}

/** The search an address stands for (the defaults when it names none). */
export function searchFromParams(params: URLSearchParams, now: Date = new Date()): AddressedSearch {
  const defaults = searchDefaults(now)
  const page = Math.max(1, Math.floor(Number(params.get(PAGE) ?? '1')) || 1)
  // ?page=2 alone is a page of the default search.
  if (!FIELDS.some((f) => params.has(f))) return { form: defaults, page }
  // A booking named alone is looked for wherever its dates fall.
  const base: SearchForm = params.get('pnr')?.trim()
    ? { ...defaults, bookingDateFrom: EARLIEST_DATE, departDateFrom: '', status: 'all' }
    : defaults
  const text = (f: (typeof FIELDS)[number]) => params.get(f) ?? base[f]
  const status = params.has('status') ? (params.get('status') === 'all' ? 'all' : 'ACTIVE') : base.status
  const order = params.get('order') === 'desc' ? 'desc' : 'asc'
  return {
    form: {
      pnr: text('pnr'),
      airportCode: text('airportCode'),
      bookingDateFrom: text('bookingDateFrom'),
      bookingDateTo: text('bookingDateTo'),
      departDateFrom: text('departDateFrom'),
      departDateTo: text('departDateTo'),
      status,
      order,
    },
    page,
  }
}

/** Bookings a page of results shows. */
export const PER_PAGE = 10

/** The query of an addressed search, as the page sends it. */
export function queryOf(search: AddressedSearch): ReservationQuery {
  return toQuery(search.form, search.page, PER_PAGE)
}

/** Fields whose default is not empty: written even when the member emptied them, so the address keeps the emptiness. */
const WRITTEN_EMPTY: readonly (typeof FIELDS)[number][] = ['bookingDateFrom', 'bookingDateTo', 'departDateFrom']

/** The address's parameters for a search: the ones it had (lang) and the condition, empty fields left out (but those with a default), page from 2 on. */
export function paramsForSearch(current: URLSearchParams, form: SearchForm, page = 1): URLSearchParams {
  const next = new URLSearchParams(current)
  for (const f of FIELDS) next.delete(f)
  next.delete(PAGE)
  for (const f of FIELDS) {
    const v = f === 'pnr' ? form.pnr.trim() : form[f]
    if (v || WRITTEN_EMPTY.includes(f)) next.set(f, v)
  }
  if (page > 1) next.set(PAGE, String(page))
  return next
}

/** A key that is the same for two addresses of the same search (the parameters' order and other parameters aside). */
export function searchKey(s: AddressedSearch): string {
  return JSON.stringify([...FIELDS.map((f) => (f === 'pnr' ? s.form.pnr.trim().toUpperCase() : s.form[f])), s.page])
}

/** The form of a search sent (toQuery's inverse, empty for what it leaves out). */
export function formOfQuery(q: ReservationQuery): SearchForm {
  return {
    pnr: q.pnr ?? '',
    airportCode: q.airportCode ?? '',
    bookingDateFrom: q.bookingDateFrom ?? '',
    bookingDateTo: q.bookingDateTo ?? '',
    departDateFrom: q.departDateFrom ?? '',
    departDateTo: q.departDateTo ?? '',
    status: q.status === 'all' ? 'all' : 'ACTIVE',
    order: q.order === 'desc' ? 'desc' : 'asc',
  }
}
