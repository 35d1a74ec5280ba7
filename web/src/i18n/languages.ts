/** The eight interface languages of the product and how they map to browsers and Intl. */
export const LANGUAGES = ['jp', 'en', 'sg', 'kr', 'cn', 'tw', 'hk', 'th'] as const
export type Lang = (typeof LANGUAGES)[number]
export const DEFAULT_LANG: Lang = 'en'
export const LANG_STORAGE_KEY = 'members.lang'

/** BCP 47 tags for Intl formatting and the <html lang> attribute. */
export const BCP47: Record<Lang, string> = {
  jp: 'ja-JP',
  en: 'en',
  sg: 'en-SG',
  kr: 'ko-KR',
  cn: 'zh-CN',
  tw: 'zh-TW',
  hk: 'zh-HK',
  th: 'th-TH',
}

/** Each language's own name, shown in the language pulldown (never translated). */
export const LANGUAGE_NAMES: Record<Lang, string> = {
  jp: '日本語',
  en: 'English',
  sg: 'English (Singapore)',
  kr: '한국어',
  cn: '简体中文',
  tw: '繁體中文（台灣）',
  hk: '繁體中文（香港）',
  th: 'ไทย',
}

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
}

/**
 * Maps one browser language tag (a navigator.languages entry) to an app
 * language by the rule shared with the server (testdata/browser-languages.json):
 * Chinese with an explicit region TW gives tw, HK gives hk, any
 * other Chinese cn (zh-Hant and zh-MO included); ja→jp, ko→kr, th→th,
 * en-SG→sg, other English en; anything else gives undefined.
 */
export function mapBrowserLanguage(tag: string): Lang | undefined {
  const [primary = '', ...rest] = tag.toLowerCase().replace(/_/g, '-').split('-')
  // Subtags after the language: extlang (3 letters), script (4 letters), then region (2 letters or 3 digits).
  let i = 0
  while (i < rest.length && /^[a-z]{3}$/.test(rest[i])) i++
  if (i < rest.length && /^[a-z]{4}$/.test(rest[i])) i++
  const region = i < rest.length && /^([a-z]{2}|\d{3})$/.test(rest[i]) ? rest[i] : ''
  switch (primary) {
    case 'zh':
      if (region === 'tw') return 'tw'
      if (region === 'hk') return 'hk'
      return 'cn'
    case 'ja':
      return 'jp'
    case 'ko':
      return 'kr'
    case 'th':
      return 'th'
    case 'en':
      return region === 'sg' ? 'sg' : 'en'
    default:
      return undefined
  }
}

/** The first browser language that maps to an app language, else en (the server does the same with Accept-Language). */
export function browserLanguage(tags: readonly string[]): Lang {
  for (const tag of tags) {
    const lang = mapBrowserLanguage(tag)
    if (lang) return lang
  }
  return DEFAULT_LANG
}

export function readStoredLang(): Lang | undefined {
  try {
    const v = window.localStorage.getItem(LANG_STORAGE_KEY)
    return isLang(v) ? v : undefined
  } catch {
    return undefined
  }
}

export function storeLang(lang: Lang): void {
  try {
    window.localStorage.setItem(LANG_STORAGE_KEY, lang)
  } catch {
    // storage may be unavailable (private mode); the lang query parameter still carries it
  }
}

/** The language to start with: the lang query parameter if valid, else the stored one, else the browser's. */
export function initialLanguage(search: string, stored: Lang | undefined, browserTags: readonly string[]): Lang {
  const fromQuery = new URLSearchParams(search).get('lang')
  if (isLang(fromQuery)) return fromQuery
  if (stored) return stored
  return browserLanguage(browserTags)
}
