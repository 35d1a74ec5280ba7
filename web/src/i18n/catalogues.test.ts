import { describe, expect, it } from 'vitest'
import { LANGUAGES } from './languages'
import { flatten, loadAllResources, namespaces } from './catalogues'

const resources = await loadAllResources()

/** Every catalogue of every namespace has exactly the keys of English, none empty. */
describe('catalogue completeness', () => {
  it('has the shell namespace in every language', () => {
    expect(namespaces).toContain('common')
    for (const lang of LANGUAGES) expect(resources[lang]?.common, lang).toBeDefined()
  })

  for (const ns of namespaces) {
    describe(`namespace ${ns}`, () => {
      const en = flatten(resources.en?.[ns] ?? {})
      for (const lang of LANGUAGES) {
        it(`${lang} has the same keys as en, none empty`, () => {
          const other = flatten(resources[lang]?.[ns] ?? {})
          const missing = Object.keys(en).filter((k) => !other[k]?.trim())
          const extra = Object.keys(other).filter((k) => !(k in en))
          const emptyEn = Object.keys(en).filter((k) => !en[k]?.trim())
          expect({ missing, extra, emptyEn }).toEqual({ missing: [], extra: [], emptyEn: [] })
        })
        it(`${lang} uses the same {{placeholders}} as en`, () => {
          const other = flatten(resources[lang]?.[ns] ?? {})
          const vars = (s: string) => (s.match(/\{\{\s*\w+\s*\}\}/g) ?? []).map((v) => v.replace(/\s/g, '')).sort()
          const wrong = Object.keys(en).filter((k) => other[k] !== undefined && vars(other[k]).join() !== vars(en[k]).join())
          expect(wrong).toEqual([])
        })
      }
    })
  }

  it('has no catalogue for an unknown language', () => {
    expect(Object.keys(resources).filter((l) => !(LANGUAGES as readonly string[]).includes(l))).toEqual([])
  })
})

/** One name per page in each language: the menu, the home tile and the page heading agree. */
describe('one name per page', () => {
  const at = (lang: string, ns: string, key: string) => flatten(resources[lang]?.[ns] ?? {})[key]
  for (const lang of LANGUAGES) {
    it(`${lang}: menu, tile and heading use the same name`, () => {
      for (const k of ['nav.bookings', 'nav.account', 'home.tiles.passengers']) expect(at(lang, 'common', k), k).toBeTruthy()
      expect(at(lang, 'bookings', 'title')).toBe(at(lang, 'common', 'nav.bookings'))
      expect(at(lang, 'common', 'home.tiles.bookings')).toBe(at(lang, 'common', 'nav.bookings'))
      expect(at(lang, 'account', 'account.title')).toBe(at(lang, 'common', 'nav.account'))
      expect(at(lang, 'common', 'home.tiles.account')).toBe(at(lang, 'common', 'nav.account'))
      expect(at(lang, 'common', 'home.tiles.passengers')).toBe(at(lang, 'account', 'passengers.title'))
    })
  }
})

/** The members' wording: English says "log in" (never "sign in"), and no field hint lists raw characters like a developer's rule. */
describe('member wording', () => {
  const english = ['en', 'sg'] as const
  it('says "log in", never "sign in", in English', () => {
    const found = english.flatMap((lang) =>
      namespaces.flatMap((ns) =>
        Object.entries(flatten(resources[lang]?.[ns] ?? {}))
          .filter(([, v]) => /\bsign(ed)?[- ]?(in|out)s?\b/i.test(v))
          .map(([k]) => `${lang}:${ns}:${k}`),
      ),
    )
    expect(found).toEqual([])
  })
  it('hints with no list of forbidden characters (the hint says the rule in words)', () => {
    const found = LANGUAGES.flatMap((lang) =>
      namespaces.flatMap((ns) =>
        Object.entries(flatten(resources[lang]?.[ns] ?? {}))
          .filter(([k, v]) => /Hint$/.test(k) && /& # < >/.test(v))
          .map(([k]) => `${lang}:${ns}:${k}`),
      ),
    )
    expect(found).toEqual([])
  })
})

/** One idea, one name: the pass's boarding dates are named alike on every page that shows them. */
describe('one name per idea', () => {
  it('the boarding period of a pass has one name in each language (pass pages, coupon card, order details)', () => {
    for (const lang of LANGUAGES) {
      const passes = flatten(resources[lang]?.passes ?? {})
      const payment = flatten(resources[lang]?.payment ?? {})
      const names = new Set([passes['plan.board'], passes['coupon.travelPeriod'], payment['details.travel']])
      expect([...names], lang).toHaveLength(1)
      expect(passes['plan.board'], lang).toBeTruthy()
    }
  })
})

/**
 * Thai names each product with one word, the one the server's mails use:
 * พาส for the passes (บัตร stays for a card), พอยต์ for Peach Points
 * (never คะแนน, a score).
 */
describe('Thai product words', () => {
  const th = Object.fromEntries(namespaces.flatMap((ns) => Object.entries(flatten(resources.th?.[ns] ?? {})).map(([k, v]) => [`${ns}:${k}`, v])))
  it('never calls points คะแนน', () => {
    expect(Object.entries(th).filter(([, v]) => v.includes('คะแนน'))).toEqual([])
  })
  it('calls the passes พาส, in the menu, the passes pages and the links to them', () => {
    const passes = Object.entries(th).filter(([k]) => k.startsWith('passes:') || k === 'common:nav.passes' || k.endsWith('.myPasses') || k.endsWith('refused_already_held'))
    expect(passes.length).toBeGreaterThan(30)
    expect(passes.filter(([, v]) => v.includes('บัตร') && !v.includes('บัตรเครดิต'))).toEqual([])
  })
})

/**
 * Counted words: a count's word takes the form the count needs (a key with a
 * count and a plural noun in English is a `_one`/`_other` pair, chosen with
 * pluralKey), and a count never breaks from its unit: a no-break space after
 * the number, a word joiner where the unit follows it without a space (CJK,
 * Hangul, Thai), and Thai "เที่ยวบิน" (flight) never broken inside.
 */
describe('counted words', () => {
  const count = /\{\{(n|count|left)\}\}/
  it('has a singular beside every English plural of a count', () => {
    const wrong = namespaces.flatMap((ns) => {
      const en = flatten(resources.en?.[ns] ?? {})
      return Object.entries(en)
        .filter(([, v]) => /\{\{(n|count)\}\}\u00a0[a-z]+s\b/.test(v))
        .filter(([k]) => !(k.endsWith('_other') && en[k.replace(/_other$/, '_one')] !== undefined))
        .map(([k]) => `${ns}:${k}`)
    })
    expect(wrong).toEqual([])
  })
  for (const lang of LANGUAGES) {
    it(`${lang}: a count never breaks from its unit`, () => {
      const wrong = namespaces.flatMap((ns) =>
        Object.entries(flatten(resources[lang]?.[ns] ?? {}))
          .filter(([, v]) => count.test(v))
          .filter(
            ([, v]) =>
              /\{\{(n|count|left)\}\} [^\s\d({/\-–,.:;!?]/.test(v) ||
              /\{\{(n|count|left)\}\}[\u0e00-\u0e7f\uac00-\ud7af\u3040-\u30ff\u4e00-\u9fff]/.test(v) ||
              v.includes('เที่ยวบิน'),
          )
          .map(([k, v]) => `${ns}:${k}: ${v}`),
      )
      expect(wrong).toEqual([])
    })
  }
})
