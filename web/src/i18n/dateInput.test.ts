import { describe, expect, it } from 'vitest'
import { LANGUAGES, type Lang } from './languages'
import { dateInputText, isDate, parseDateInput } from './dateInput'

// What a member of each language types, and the date it means (null: not a whole, real date).
const cases: [Lang, string, string | null][] = [
  // The page's own written form comes back as the same date.
  ['en', 'Nov 22, 2026', '2026-11-22'],
  ['sg', '22 Nov 2026', '2026-11-22'],
  ['jp', '2026年11月22日', '2026-11-22'],
  ['cn', '2026年11月22日', '2026-11-22'],
  ['tw', '2026年1月2日', '2026-01-02'],
  ['hk', '2026年11月22日', '2026-11-22'],
  ['kr', '2026. 11. 22.', '2026-11-22'],
  ['th', '22 พ.ย. 2569', '2026-11-22'],
  // Numbers in the language's order.
  ['en', '11/22/2026', '2026-11-22'],
  ['en', '1/2/2026', '2026-01-02'],
  ['sg', '22/11/2026', '2026-11-22'],
  ['sg', '2/1/2026', '2026-01-02'],
  ['th', '22/11/2569', '2026-11-22'],
  ['th', '22/11/2026', '2026-11-22'],
  ['jp', '2026/11/22', '2026-11-22'],
  ['jp', '2026.1.2', '2026-01-02'],
  ['kr', '2026.11.22', '2026-11-22'],
  ['kr', '2026년 11월 22일', '2026-11-22'],
  // ISO and eight digits everywhere; Thai eight digits may be Buddhist era.
  ['en', '2026-11-22', '2026-11-22'],
  ['th', '2026-11-22', '2026-11-22'],
  ['cn', '20261122', '2026-11-22'],
  ['th', '25691122', '2026-11-22'],
  // Month names: full, short, any case, either order in en/sg; Thai full names.
  ['en', 'november 22 2026', '2026-11-22'],
  ['en', '22 Nov 2026', '2026-11-22'],
  ['sg', 'Sept 3, 2026', '2026-09-03'],
  ['th', '22 พฤศจิกายน 2569', '2026-11-22'],
  // IME full-width and Thai digits.
  ['jp', '２０２６年１１月２２日', '2026-11-22'],
  ['jp', '２０２６／１１／２２', '2026-11-22'],
  ['th', '๒๒/๑๑/๒๕๖๙', '2026-11-22'],
  // Half-typed, impossible or in another language's order: no date.
  ['en', '', null],
  ['en', '11/2', null],
  ['en', '11/22/20', null],
  ['en', '22/11/2026', null],
  ['sg', '11/22/2026', null],
  ['jp', '2026年11月', null],
  ['jp', '22/11/2026', null],
  ['en', 'Feb 30, 2026', null],
  ['en', '2025-02-29', null],
  ['en', '2024-02-29', '2024-02-29'],
  ['th', '31/4/2569', null],
  ['en', 'Nox 22, 2026', null],
  ['en', '0999-01-01', null],
]

describe('parseDateInput', () => {
  it.each(cases)('%s %j → %j', (lang, text, want) => {
    expect(parseDateInput(text, lang)).toBe(want)
  })

  it('reads back what the field shows, in every language', () => {
    for (const lang of LANGUAGES) {
      for (const iso of ['2012-01-01', '2026-11-22', '1990-02-28', '2000-12-31']) {
        expect(parseDateInput(dateInputText(iso, lang), lang), `${lang} ${iso}`).toBe(iso)
      }
    }
  })
})

describe('dateInputText', () => {
  it.each([
    ['en', '2026-11-22', 'Nov 22, 2026'],
    ['sg', '2026-11-22', '22 Nov 2026'],
    ['jp', '2026-11-22', '2026年11月22日'],
    ['kr', '2026-11-22', '2026. 11. 22.'],
    ['th', '2026-11-22', '22 พ.ย. 2569'],
    ['en', '', ''],
    ['en', '11/2', '11/2'],
  ] as [Lang, string, string][])('%s %s → %s', (lang, value, want) => {
    expect(dateInputText(value, lang)).toBe(want)
  })
})

describe('isDate', () => {
  it('takes real calendar dates written YYYY-MM-DD only', () => {
    expect(isDate('2024-02-29')).toBe(true)
    expect(isDate('2026-02-29')).toBe(false)
    expect(isDate('2026-13-01')).toBe(false)
    expect(isDate('2026-1-01')).toBe(false)
    expect(isDate('')).toBe(false)
  })
})
