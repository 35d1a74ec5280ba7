import { describe, expect, it } from 'vitest'
import { paramsForSearch, searchFromParams, searchKey } from './searchParams'
import { searchDefaults } from './searchForm'

const now = new Date('2026-11-24T03:00:00Z')

describe('the booking search in the address', () => {
  it('is the default search when the address names none, on any page', () => {
    expect(searchFromParams(new URLSearchParams('lang=en'), now)).toEqual({ form: searchDefaults(now), page: 1 })
    expect(searchFromParams(new URLSearchParams('lang=en&page=2'), now)).toEqual({ form: searchDefaults(now), page: 2 })
  })

  it('is written and read back the same, keeping the language and leaving empty fields out', () => {
    const form = { ...searchDefaults(now), pnr: ' hnk7q2 ', airportCode: 'KIX', status: 'all' as const, order: 'desc' as const }
    const params = paramsForSearch(new URLSearchParams('lang=jp'), form, 3)
    expect(params.get('lang')).toBe('jp')
    expect(params.get('pnr')).toBe('hnk7q2')
    expect(params.has('departDateTo')).toBe(false)
    expect(params.get('page')).toBe('3')
    const back = searchFromParams(params, now)
    expect(back).toEqual({ form: { ...form, pnr: 'hnk7q2' }, page: 3 })
    expect(searchKey(back)).toBe(searchKey({ form, page: 3 }))
    // page 1 is not written
    expect(paramsForSearch(params, form, 1).has('page')).toBe(false)
  })

  it('reads a field left out of a named search as its default, and an unknown status or order as the default', () => {
    const s = searchFromParams(new URLSearchParams('bookingDateFrom=2026-01-01&bookingDateTo=2026-02-01&status=x&order=y&page=zz'), now)
    expect(s).toEqual({
      form: { ...searchDefaults(now), bookingDateFrom: '2026-01-01', bookingDateTo: '2026-02-01' },
      page: 1,
    })
    expect(searchFromParams(new URLSearchParams('lang=en&airportCode=KIX'), now).form).toEqual({ ...searchDefaults(now), airportCode: 'KIX' })
  })

  it('reads a mailed link naming only a booking as a whole search for it, wherever its dates fall', () => {
    // The flight change mail's "Change or refund your booking": /bookings?lang=en&pnr=HNK7Q2.
    const s = searchFromParams(new URLSearchParams('lang=en&pnr=HNK7Q2'), now)
    expect(s.form).toEqual({
      pnr: 'HNK7Q2', airportCode: '', bookingDateFrom: '2012-01-01', bookingDateTo: '2026-11-24', departDateFrom: '', departDateTo: '', status: 'all', order: 'asc',
    })
  })

  it('keeps a date the member emptied empty when read back', () => {
    const form = { ...searchDefaults(now), departDateFrom: '' }
    const params = paramsForSearch(new URLSearchParams('lang=en'), form)
    expect(params.get('departDateFrom')).toBe('')
    expect(searchFromParams(params, now).form).toEqual(form)
  })
})
