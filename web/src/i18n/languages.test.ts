import { describe, expect, it } from 'vitest'
import { browserLanguage, initialLanguage, mapBrowserLanguage } from './languages'
import shared from '../../../testdata/browser-languages.json'

describe('browser language mapping (the table shared with the server)', () => {
  it.each(shared.cases.map((c) => [c.languages.join(','), c.want, c.languages] as const))('[%s] → %s', (_name, want, languages) => {
    expect(browserLanguage(languages)).toBe(want)
  })

  it('has the table', () => {
    expect(shared.cases.length).toBeGreaterThan(10)
    expect(mapBrowserLanguage('fr-FR')).toBeUndefined()
  })

  it('chooses the lang parameter, then the stored language, then the browser', () => {
    expect(initialLanguage('?lang=th', 'jp', ['ko'])).toBe('th')
    expect(initialLanguage('?lang=xx', 'jp', ['ko'])).toBe('jp')
    expect(initialLanguage('', undefined, ['zh-HK'])).toBe('hk')
  })
})
