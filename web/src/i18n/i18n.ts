import i18next, { type i18n as I18n } from 'i18next'
import { SHELL_NAMESPACE, catalogueBackend, loadCatalogues, loadedResources, type Resources } from './catalogues'
import { BCP47, DEFAULT_LANG, LANGUAGES, isLang, storeLang, type Lang } from './languages'

/**
 * Creates the app's i18next instance in the given language (namespace
 * "common" by default) with the catalogues loaded so far: load the shell's
 * catalogue of the language first (main.tsx does before the first render).
 * The others come through catalogueBackend when a page asks for them
 * (app/routing/lazyPage.tsx, useTranslation in i18n/translation.tsx). Tests may
 * start it with fewer catalogues than are loaded.
 */
export function createI18n(lang: Lang, loaded: Resources = loadedResources()): I18n {
  const instance = i18next.createInstance()
  // Its own copy of the maps (the catalogues themselves are shared, read only).
  const resources = Object.fromEntries(Object.entries(loaded).map(([l, r]) => [l, { ...r }]))
  void instance
    .use(catalogueBackend())
    .init({
      resources,
      // The catalogues given are only some: the backend loads the rest.
      partialBundledLanguages: true,
      lng: lang,
      // Every catalogue has every key in all eight languages (catalogues.test.ts);
      // no fallback language, so a page loads its own language's catalogues only.
      fallbackLng: false,
      supportedLngs: [...LANGUAGES],
      // The namespaces at hand: nothing to load, so the instance is ready at once.
      ns: [...new Set([SHELL_NAMESPACE, ...Object.keys(resources[lang] ?? {})])],
      defaultNS: SHELL_NAMESPACE,
      fallbackNS: SHELL_NAMESPACE,
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

/**
 * Switches language, remembers it and sets <html lang>. Every namespace in
 * use so far (the shell's, the pages' visited) is loaded in the new language
 * first, so the page switches at once, never through raw keys.
 */
export async function setLanguage(i18n: I18n, lang: Lang): Promise<void> {
  storeLang(lang)
  const inUse = i18n.options.ns
  const catalogues = await loadCatalogues(lang, typeof inUse === 'string' ? [inUse] : (inUse ?? [SHELL_NAMESPACE]))
  for (const [ns, cat] of Object.entries(catalogues)) {
    if (!i18n.hasResourceBundle(lang, ns)) i18n.addResourceBundle(lang, ns, cat)
  }
  syncDocumentLang(lang)
  if (i18n.language !== lang) await i18n.changeLanguage(lang)
}

function syncDocumentLang(lang: Lang) {
  if (typeof document === 'undefined') return
  document.documentElement.lang = BCP47[lang]
  // The web app manifest in the page's language (scripts/manifests.ts): installed, the app carries the member's name for it.
  document.querySelector('link[rel="manifest"]')?.setAttribute('href', `/manifest-${lang}.webmanifest`)
}

/** The language the API client sends in X-Lang; kept in one place so non-React code can read it. */
let activeLang: Lang = DEFAULT_LANG
export function getActiveLang(): Lang {
  return activeLang
}
export function setActiveLang(lang: Lang): void {
  activeLang = lang
}
