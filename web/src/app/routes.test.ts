import { describe, expect, it } from 'vitest'
import { namespaces } from '@/i18n/catalogues'

// Every route names, after its import(), the catalogue namespaces its page
// uses besides "common" (routing/lazyPage.tsx loads them with the chunk). A
// namespace left out still loads, but only after the chunk, behind a second
// overlay: this reads the page's static imports and the namespaces they ask
// useTranslation('…') or t('ns:…') for, and wants each named.
const sources = Object.fromEntries(
  // keys: '../features/…' for src/features, './routing/…' for this folder (src/app)
  Object.entries(import.meta.glob<string>('../**/*.{ts,tsx}', { query: '?raw', import: 'default', eager: true })).map(([k, v]) => [
    k.startsWith('./') ? `src/app/${k.slice(2)}` : `src/${k.slice(3)}`,
    v,
  ]),
)

/** a/b/../c → a/c */
function normalize(path: string): string {
  const out: string[] = []
  for (const part of path.split('/')) {
    if (part === '..') out.pop()
    else if (part !== '.' && part !== '') out.push(part)
  }
  return out.join('/')
}

function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith('@/') ? `src/${spec.slice(2)}` : spec.startsWith('.') ? normalize(`${from.slice(0, from.lastIndexOf('/'))}/${spec}`) : null
  if (!base) return null
  for (const ext of ['', '.tsx', '.ts', '/index.ts', '/index.tsx']) if (sources[base + ext] !== undefined) return base + ext
  return null
}

function namespacesUsed(file: string, seen = new Set<string>()): Set<string> {
  const out = new Set<string>()
  if (seen.has(file)) return out
  seen.add(file)
  const code = sources[file]
  for (const m of code.matchAll(/useTranslation\(\s*'([a-z]+)'/g)) out.add(m[1])
  for (const m of code.matchAll(/['`]([a-z]+):[a-zA-Z]/g)) if (namespaces.includes(m[1])) out.add(m[1])
  // a type-only import brings no code, so no texts
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(?!type\s)[^'"]*?from\s+'([^']+)'/gm)) {
    const dep = resolveImport(file, m[1])
    if (dep) for (const ns of namespacesUsed(dep, seen)) out.add(ns)
  }
  out.delete('common')
  return out
}

const routesFile = 'src/app/routes.tsx'
const pages = [...sources[routesFile].matchAll(/^const (\w+) = lazyPage\(\(\) => import\('([^']+)'\), \[([^\]]*)\]\)/gm)].map((m) => ({
  name: m[1],
  file: resolveImport(routesFile, m[2]),
  named: [...m[3].matchAll(/'([a-z]+)'/g)].map((n) => n[1]),
}))

describe('routes', () => {
  it('are all read here', () => {
    expect(pages.length).toBeGreaterThan(25)
    expect(pages.filter((p) => !p.file)).toEqual([])
  })

  for (const page of pages) {
    it(`${page.name} names the namespaces it uses`, () => {
      const used = [...namespacesUsed(page.file!)].sort()
      expect(used.filter((ns) => !page.named.includes(ns))).toEqual([])
      expect(page.named.filter((ns) => !namespaces.includes(ns))).toEqual([])
    })
  }
})
