import { describe, expect, it } from 'vitest'
import { addressWithLang, isCurrentPage, loginPathFor, sanitizeRedirect, withLang } from './paths'

describe('redirect sanitising', () => {
  it.each([
    ['/account', '/account'],
    ['/bookings?pnr=ABC&lang=jp', '/bookings?pnr=ABC&lang=jp'],
    ['/points#x', '/points#x'],
  ])('accepts %s', (raw, out) => expect(sanitizeRedirect(raw)).toBe(out))

  it.each([
    null,
    '',
    'account',
    'https://evil.example.com/',
    '//evil.example.com/x',
    '/\\evil.example.com',
    '\\\\evil.example.com',
    'javascript:alert(1)',
    '/\n/evil.example.com',
    '/login?redirect=/account',
  ])('refuses %s', (raw) => expect(sanitizeRedirect(raw)).toBeUndefined())
})

describe('lang parameter', () => {
  it('adds or replaces lang and keeps the rest', () => {
    expect(withLang('/account', 'jp')).toBe('/account?lang=jp')
    expect(withLang('/bookings?pnr=X&lang=en#top', 'th')).toBe('/bookings?pnr=X&lang=th#top')
  })
  it('builds the login path with the full original path', () => {
    expect(loginPathFor('/bookings?pnr=X', 'en')).toBe('/login?redirect=%2Fbookings%3Fpnr%3DX&lang=en')
  })
})

describe('current page', () => {
  it('ignores lang and rev, not other parameters', () => {
    expect(isCurrentPage('/account', { pathname: '/account', search: '?lang=jp' })).toBe(true)
    expect(isCurrentPage('/account/', { pathname: '/account', search: '?lang=jp&rev=abc' })).toBe(true)
    expect(isCurrentPage('/bookings?page=2', { pathname: '/bookings', search: '?page=1&lang=en' })).toBe(false)
    expect(isCurrentPage('/', { pathname: '/account', search: '' })).toBe(false)
  })
})

describe('first address', () => {
  it.each([
    [{ pathname: '/bookings', search: '', hash: '' }, '/bookings?lang=jp'],
    [{ pathname: '/account', search: '?x=1&lang=xx', hash: '#top' }, '/account?x=1&lang=jp#top'],
    [{ pathname: '/account', search: '?lang=en', hash: '' }, null],
  ])('%o → %s', (location, want) => {
    expect(addressWithLang(location, 'jp')).toBe(want)
  })
})
