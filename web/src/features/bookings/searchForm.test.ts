import { describe, expect, it } from 'vitest'
import { addDays, keepRangeEnd, searchDefaults, toQuery, todayJST } from './searchForm'
import { recentQuery } from './api'

const at = (iso: string) => new Date(iso)

describe('booking search defaults', () => {
  it('computes today in Japan time: the day turns at 15:00 UTC', () => {
    expect(todayJST(at('2026-11-20T14:59:59Z'))).toBe('2026-11-20')
    expect(todayJST(at('2026-11-20T15:00:00Z'))).toBe('2026-11-21')
    expect(todayJST(at('2026-12-31T15:00:00Z'))).toBe('2027-01-01')
  })

  it('starts booking and departure 180 days before today, ACTIVE, ascending', () => {
    expect(searchDefaults(at('2026-11-20T15:00:00Z'))).toEqual({
      pnr: '',
      airportCode: '',
      bookingDateFrom: '2026-05-25',
      bookingDateTo: '2026-11-21',
      departDateFrom: '2026-05-25',
      departDateTo: '',
      status: 'ACTIVE',
      order: 'asc',
    })
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29')
  })

  it('sends the form marker and the paging with the condition', () => {
    const q = toQuery({ ...searchDefaults(at('2026-11-20T00:00:00Z')), pnr: ' ab12 ' }, 3, 10)
    expect(q).toMatchObject({ pnr: 'AB12', form: 'search', page: 3, perPage: 10, status: 'ACTIVE', order: 'asc', withFlightStatus: true })
  })

  it('asks the home page list from today, ACTIVE, 5, ascending', () => {
    expect(recentQuery('2026-11-20')).toEqual({
      lastDepartDateFrom: '2026-11-20',
      status: 'ACTIVE',
      perPage: 5,
      page: 1,
      order: 'asc',
      withFlightStatus: true,
      timeZone: '+09:00',
    })
  })
})

describe('keepRangeEnd', () => {
  it.each([
    ['2026-03-10', '2026-03-01', ''],
    ['2026-03-10', '2026-03-10', '2026-03-10'],
    ['2026-03-10', '2026-03-11', '2026-03-11'],
    ['', '2026-03-01', '2026-03-01'],
    ['2026-03-10', '', ''],
    // a year still being typed is left alone
    ['2026-03-10', '0002-03-01', '0002-03-01'],
    ['2026-03-10', '0202-03-01', '0202-03-01'],
    ['2026-03-10', '2025-03-01', ''],
  ])('from %s, to %s keeps %s', (from, to, want) => {
    expect(keepRangeEnd(from, to)).toBe(want)
  })
})
