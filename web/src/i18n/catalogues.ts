import type { BackendModule } from 'i18next'
import type { Lang } from './languages'

/** A catalogue: nested objects whose leaves are strings. */
export type Catalogue = { [key: string]: string | Catalogue }

/**
 * Every catalogue of the app, by language then namespace, each loaded on its
 * own when first needed (one chunk per language and namespace, see
 * vite.config.ts): a page fetches the shell's catalogue of its language
 * before the first render (main.tsx) and a feature's with the feature's page
 * (app/routing/lazyPage.tsx), never all features or all eight languages.
 * - the shell's text: src/locales/{lang}.json → namespace "common"
 * - a feature's text: src/features/<feature>/locales/{lang}.json → namespace "<feature>"
 * Adding a feature's locales folder is all it takes to register a namespace.
 */
const shell = import.meta.glob<Catalogue>('../locales/*.json', { import: 'default' })
const features = import.meta.glob<Catalogue>('../features/*/locales/*.json', { import: 'default' })

export function namespaceOf(path: string): { ns: string; lang: string } {
  const m = /features\/([^/]+)\/locales\/([^/]+)\.json$/.exec(path)
  if (m) return { ns: m[1], lang: m[2] }
  const s = /locales\/([^/]+)\.json$/.exec(path)
  if (s) return { ns: 'common', lang: s[1] }
  throw new Error(`not a catalogue path: ${path}`)
}

export type Resources = Record<string, Record<string, Catalogue>> // lang → ns → catalogue

const loaders: Record<string, Record<string, () => Promise<Catalogue>>> = {}
for (const [path, load] of Object.entries({ ...shell, ...features })) {
  const { ns, lang } = namespaceOf(path)
  loaders[lang] ??= {}
  loaders[lang][ns] = load
}

/** The languages that have catalogues, and every namespace. */
export const catalogueLanguages: string[] = Object.keys(loaders)
export const namespaces: string[] = [...new Set(Object.values(loaders).flatMap((r) => Object.keys(r)))]

/** The namespace of the shell (header, menu, footer, modals, the login and home pages): loaded before the first render. */
export const SHELL_NAMESPACE = 'common'

const loaded: Resources = {}
const pending: Record<string, Promise<Catalogue>> = {}

/** Loads (once) one namespace's catalogue of lang; a failed load is tried again on the next call. */
export function loadCatalogue(lang: string, ns: string): Promise<Catalogue> {
  const key = `${lang}|${ns}`
  const load = loaders[lang]?.[ns]
  if (!load) return Promise.reject(new Error(`no catalogue ${key}`))
  pending[key] ??= load().then(
    (cat) => ((loaded[lang] ??= {})[ns] = cat),
    (e: unknown) => {
      delete pending[key]
      throw e
    },
  )
  return pending[key]
}

/** Loads (once) the given namespaces of lang. */
export async function loadCatalogues(lang: string, nsList: readonly string[]): Promise<Record<string, Catalogue>> {
  const cats = await Promise.all(nsList.map((ns) => loadCatalogue(lang, ns)))
  return Object.fromEntries(nsList.map((ns, i) => [ns, cats[i]]))
}

/** The catalogues loaded so far (what i18next starts with). */
export function loadedResources(): Resources {
  return loaded
}

/** Loads every namespace of every language (tests and the completeness check). */
export async function loadAllResources(): Promise<Resources> {
  await Promise.all(catalogueLanguages.map((lang) => loadCatalogues(lang, Object.keys(loaders[lang]))))
  return loaded
}

/**
 * An i18next backend over the catalogues above: i18next asks it for a
 * namespace it has not got in the current language (a page's, or every
 * namespace in use on a language switch), and useTranslation (i18n/translation.tsx) suspends the
 * component that needs it until it has arrived (no raw keys on screen).
 */
export function catalogueBackend(): BackendModule {
  return {
    type: 'backend',
    callbackApi: true,
    init() {},
    read(lang, ns, callback) {
      loadCatalogue(lang, ns).then(
        (cat) => callback(null, cat),
        (e: unknown) => callback(e instanceof Error ? e : new Error(String(e)), false),
      )
    },
  }
}

/** Flattens a catalogue to dotted keys → text. */
export function flatten(cat: Catalogue, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(cat)) {
    const key = prefix ? `${prefix}.${k}` : k
    if (typeof v === 'string') out[key] = v
    else Object.assign(out, flatten(v, key))
  }
  return out
}

export type { Lang }
