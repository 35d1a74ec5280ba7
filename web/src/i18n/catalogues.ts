import type { Lang } from './languages'

/** A catalogue: nested objects whose leaves are strings. */
export type Catalogue = { [key: string]: string | Catalogue }

/**
 * Every catalogue of the app, by language then namespace, loaded one
 * language at a time: a page fetches only the catalogues of its language
 * (one chunk per language, see vite.config.ts), not all eight.
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

const loaded: Resources = {}
const pending: Record<string, Promise<Record<string, Catalogue>>> = {}

/** Loads (once) every namespace of lang. */
export function loadLanguage(lang: string): Promise<Record<string, Catalogue>> {
  pending[lang] ??= Promise.all(
    Object.entries(loaders[lang] ?? {}).map(async ([ns, load]) => [ns, await load()] as const),
  ).then((entries) => (loaded[lang] = Object.fromEntries(entries)))
  return pending[lang]
}

/** The catalogues loaded so far (what i18next starts with). */
export function loadedResources(): Resources {
  return loaded
}

/** Loads every language (tests and the completeness check). */
export async function loadAllResources(): Promise<Resources> {
  await Promise.all(catalogueLanguages.map(loadLanguage))
  return loaded
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
