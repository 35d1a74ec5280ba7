import { describe, expect, it } from 'vitest'
import {
  ageOn, checkAddress, checkBirth, checkEmail, checkGender, checkName, checkNewPassword, checkPassengerType,
  checkReenter, checkTel, passengerTypeFor, todayJST,
} from './rules'
import passwordCases from '../../../../testdata/passwords.json'

// 2026-11-19 16:00 UTC is 2026-11-20 01:00 in Japan.
const now = new Date('2026-11-19T16:00:00Z')
const key = (r: { key: string } | null) => r?.key ?? null

describe('account rules', () => {
  it('computes today in Japan time and ages', () => {
    expect(todayJST(now)).toBe('2026-11-20')
    expect(ageOn('2014-11-20', '2026-11-20')).toBe(12)
    expect(ageOn('2014-11-21', '2026-11-20')).toBe(11)
    expect(ageOn('2012-02-29', '2023-02-28')).toBe(10)
  })

  it.each([
    ['2014-11-20', null], // exactly 12 today in Japan
    ['2014-11-21', 'memberAge'],
    ['', 'required'],
    ['1990-02-30', 'dateInvalid'],
    ['1899-12-31', 'dateInvalid'],
    ['2026-11-21', 'birthFuture'],
    ['1988-04-12', null],
  ])('birth %s → %s', (v, want) => expect(key(checkBirth(v, now))).toBe(want))

  it.each([
    ['12345678', null], ['12345678901', null], ['1234567', 'telLength'], ['123456789012', 'telLength'],
    ['0012345678', 'telPrefix'], ['+8112345678', 'telPrefix'], ['', 'required'],
    // Separators a member types are cleaned, as the server does (CleanTel).
    ['090-1234-5678', null], [' 090 1234 5678 ', null], ['(03) 1234-5678', null], ['０９０－１２３４－５６７８', null],
    ['０９０１２３４５６７８', null], ['090-1234-567a', 'telDigits'], ['+81 90-1234-5678', 'telPrefix'], ['090-1234-5678-9', 'telLength'],
  ])('tel %s → %s', (v, want) => expect(key(checkTel(v))).toBe(want))

  it('tel is optional for passengers', () => expect(checkTel('', false)).toBeNull())

  it.each([
    ['a'.repeat(88) + '@example.com', null], // 100 characters
    ['a'.repeat(89) + '@example.com', 'maxLength'], // 101
    ['hanako@', 'email'], ['', 'required'], ['hanako@example.com', null],
  ])('email %s → %s', (v, want) => expect(key(checkEmail(v))).toBe(want))

  it.each([
    ['1 Senshu-kuko-kita', null], ['泉州空港北1番地', null], ['Rinku 😀', 'fourByte'], ['𩸽', 'fourByte'],
  ])('address1 %s → %s', (v, want) => expect(key(checkAddress(v, false))).toBe(want))

  it.each([
    ['Hanako', null], ['Smith-Jones', null], ['花子', 'nameLatin'], ['Ｈａｎａｋｏ', 'nameLatin'], [' ', 'required'], ['a'.repeat(51), 'maxLength'],
  ])('name %s → %s', (v, want) => expect(key(checkName(v))).toBe(want))

  it('gender', () => {
    expect(key(checkGender(''))).toBe('required')
    expect(key(checkGender('male'))).toBeNull()
  })

  it.each([
    ['Abcd1234', null], ['Abcd123', 'passwordLength'], ['a1'.repeat(16), null], ['a1'.repeat(16) + 'x', 'passwordLength'],
    ['abcdefgh', 'passwordChars'], ['12345678', 'passwordChars'], ['', 'required'],
  ])('password %s → %s', (v, want) => expect(key(checkNewPassword(v))).toBe(want))

  // The same table as the server's test (internal/account/password_cases_test.go).
  const sharedKey: Record<string, string> = { required: 'required', length: 'passwordLength', chars: 'passwordChars' }
  it.each(passwordCases.cases.map((c) => [c.password, c.want] as const))('shared password case %j → %s', (v, want) =>
    expect(key(checkNewPassword(v))).toBe(want === null ? null : sharedKey[want]),
  )

  it('re-entered password must match', () => {
    expect(key(checkReenter('Abcd1234', 'Abcd1235'))).toBe('passwordMismatch')
    expect(key(checkReenter('', 'x'))).toBe('required')
    expect(checkReenter('Abcd1234', 'Abcd1234')).toBeNull()
  })

  it('passenger types follow the birth date', () => {
    expect(passengerTypeFor('2024-11-21', '2026-11-20')).toBe('INFANT')
    expect(passengerTypeFor('2024-11-20', '2026-11-20')).toBe('CHILD')
    expect(passengerTypeFor('2014-11-21', '2026-11-20')).toBe('CHILD')
    expect(passengerTypeFor('2014-11-20', '2026-11-20')).toBe('ADULT')
    expect(key(checkPassengerType('ADULT', '2025-06-01', now))).toBe('passengerTypeMismatch')
    expect(checkPassengerType('', '2025-06-01', now)).toBeNull()
    expect(key(checkPassengerType('BABY', '2025-06-01', now))).toBe('passengerTypeInvalid')
  })
})
