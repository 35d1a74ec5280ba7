import { describe, expect, it } from 'vitest'
import { searchDefaults } from './searchForm'
import { addSchema, validateSearch } from './schemas'

const t = (key: string) => key
const at = (iso: string) => new Date(iso)

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
