import type { Lang } from './languages'

/** A catalogue: nested objects whose leaves are strings. */
export type Catalogue = { [key: string]: string | Catalogue }

/**
 * Every catalogue of the app, by namespace then language.
 * - the shell's text: src/locales/{lang}.json → namespace "common"
 * - a feature's text: src/features/<feature>/locales/{lang}.json → namespace "<feature>"
 * Adding a feature's locales folder is all it takes to register a namespace.
 */
const shell = import.meta.glob<Catalogue>('../locales/*.json', { eager: true, import: 'default' })
const features = import.meta.glob<Catalogue>('../features/*/locales/*.json', { eager: true, import: 'default' })

export function namespaceOf(path: string): { ns: string; lang: string } {
  const m = /features\/([^/]+)\/locales\/([^/]+)\.json$/.exec(path)
  if (m) return { ns: m[1], lang: m[2] }
  const s = /locales\/([^/]+)\.json$/.exec(path)
  if (s) return { ns: 'common', lang: s[1] }
  throw new Error(`not a catalogue path: ${path}`)
}

export type Resources = Record<string, Record<string, Catalogue>> // lang → ns → catalogue

export function collectResources(): Resources {
  const out: Resources = {}
  for (const [path, cat] of Object.entries({ ...shell, ...features })) {
    const { ns, lang } = namespaceOf(path)
    out[lang] ??= {}
    out[lang][ns] = cat
  }
  return out
}

export const resources = collectResources()
export const namespaces: string[] = [...new Set(Object.values(resources).flatMap((r) => Object.keys(r)))]

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
