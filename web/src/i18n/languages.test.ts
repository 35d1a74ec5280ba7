import { describe, expect, it } from 'vitest'
import { browserLanguage, initialLanguage, mapBrowserLanguage } from './languages'

describe('browser language mapping (spec §1)', () => {
  it.each([
    ['zh-TW', 'tw'],
    ['zh-Hant-TW', 'tw'],
    ['zh-HK', 'hk'],
    ['zh-CN', 'cn'],
    ['zh', 'cn'],
    ['zh-SG', 'cn'],
    ['ja', 'jp'],
    ['ja-JP', 'jp'],
    ['ko-KR', 'kr'],
    ['th', 'th'],
    ['en-SG', 'sg'],
    ['en-US', 'en'],
    ['en', 'en'],
  ])('%s → %s', (tag, lang) => {
    expect(mapBrowserLanguage(tag)).toBe(lang)
  })

  it('falls back to en for an unmatched language', () => {
    expect(mapBrowserLanguage('fr-FR')).toBeUndefined()
    expect(browserLanguage(['fr-FR', 'de'])).toBe('en')
    expect(browserLanguage([])).toBe('en')
  })

  it('takes the first language that matches', () => {
    expect(browserLanguage(['fr', 'ko-KR', 'en'])).toBe('kr')
  })

  it('chooses the lang parameter, then the stored language, then the browser', () => {
    expect(initialLanguage('?lang=th', 'jp', ['ko'])).toBe('th')
    expect(initialLanguage('?lang=xx', 'jp', ['ko'])).toBe('jp')
    expect(initialLanguage('', undefined, ['zh-HK'])).toBe('hk')
  })
})
