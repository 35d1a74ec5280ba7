import { describe, expect, it } from 'vitest'
import { addDays, keepRangeEnd, searchDefaults, toQuery, todayJST } from './schema'
import { addSchema, validateSearch } from './rules'
import { recentQuery } from './api'

const t = (key: string) => key
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

describe('booking search rules', () => {
  const now = () => at('2026-11-20T06:00:00Z')
  const base = searchDefaults(now())
  const errorsOf = (v: object) => validateSearch({ ...base, ...v }, t, now)

  it('accepts the defaults', () => {
    expect(errorsOf({})).toEqual({})
  })
  it('requires booking dates', () => {
    expect(errorsOf({ bookingDateFrom: '' }).bookingDateFrom).toBe('validation.required')
  })
  it('refuses dates before 2012 and in the future', () => {
    expect(errorsOf({ bookingDateFrom: '2011-12-31' }).bookingDateFrom).toBe('validation.after2012')
    expect(errorsOf({ bookingDateFrom: '2012-01-01' })).toEqual({})
    expect(errorsOf({ bookingDateTo: '2026-11-21' }).bookingDateTo).toBe('validation.pastDate')
  })
  it('refuses a to date before its from date', () => {
    expect(errorsOf({ bookingDateFrom: '2026-05-02', bookingDateTo: '2026-05-01' }).bookingDateTo).toBe('validation.dateOrder')
    expect(errorsOf({ departDateFrom: '2026-05-02', departDateTo: '2026-05-01' }).departDateTo).toBe('validation.dateOrder')
  })
  it('checks the booking number', () => {
    expect(errorsOf({ pnr: 'AB-1' }).pnr).toBe('validation.pnr')
    expect(errorsOf({ pnr: 'A'.repeat(21) }).pnr).toBe('validation.maxLength')
    // The spec's (and the server's) order: alphanumerics before the length.
    expect(errorsOf({ pnr: 'A-'.repeat(11) }).pnr).toBe('validation.pnr')
    expect(addSchema(t).safeParse({ pnr: 'A-'.repeat(11), lastname: 'X' }).error?.issues[0].message).toBe('validation.pnr')
  })
  it('reports the date order together with the other fields\' errors', () => {
    expect(errorsOf({ pnr: 'A-1', bookingDateFrom: '2026-05-02', bookingDateTo: '2026-05-01', departDateFrom: '2026-06-02', departDateTo: '2026-06-01' })).toEqual({
      pnr: 'validation.pnr',
      bookingDateTo: 'validation.dateOrder',
      departDateTo: 'validation.dateOrder',
    })
  })
  it('requires PNR and last name to add a booking', () => {
    const r = addSchema(t).safeParse({ pnr: 'ＡＢＣ', lastname: '' })
    expect(r.success).toBe(false)
    const issues = r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`)
    expect(issues).toContain('pnr:validation.pnr')
    expect(issues).toContain('lastname:validation.required')
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
