import i18next, { type i18n as I18n } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { loadLanguage, loadedResources, namespaces } from './catalogues'
import { BCP47, DEFAULT_LANG, LANGUAGES, isLang, storeLang, type Lang } from './languages'

/**
 * Creates the app's i18next instance in the given language (namespace
 * "common" by default) with the catalogues loaded so far: load the
 * language first (loadLanguage; main.tsx does before the first render).
 */
export function createI18n(lang: Lang): I18n {
  const instance = i18next.createInstance()
  void instance.use(initReactI18next).init({
    resources: loadedResources(),
    lng: lang,
    fallbackLng: DEFAULT_LANG,
    supportedLngs: [...LANGUAGES],
    ns: namespaces,
    defaultNS: 'common',
    fallbackNS: 'common',
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
  })
  syncDocumentLang(lang)
  setActiveLang(lang)
  instance.on('languageChanged', (lng) => {
    if (isLang(lng)) setActiveLang(lng)
  })
  return instance
}

export function currentLang(i18n: I18n): Lang {
  return isLang(i18n.language) ? i18n.language : DEFAULT_LANG
}

/** Switches language, remembers it and sets <html lang>. */
export async function setLanguage(i18n: I18n, lang: Lang): Promise<void> {
  storeLang(lang)
  const catalogues = await loadLanguage(lang)
  for (const [ns, cat] of Object.entries(catalogues)) {
    if (!i18n.hasResourceBundle(lang, ns)) i18n.addResourceBundle(lang, ns, cat)
  }
  syncDocumentLang(lang)
  if (i18n.language !== lang) await i18n.changeLanguage(lang)
}

function syncDocumentLang(lang: Lang) {
  if (typeof document !== 'undefined') document.documentElement.lang = BCP47[lang]
}

/** The language the API client sends in X-Lang; kept in one place so non-React code can read it. */
let activeLang: Lang = DEFAULT_LANG
export function getActiveLang(): Lang {
  return activeLang
}
export function setActiveLang(lang: Lang): void {
  activeLang = lang
}
