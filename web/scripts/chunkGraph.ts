import type { Rolldown } from 'vite'

/**
 * The given chunks and every chunk they import statically, directly or not:
 * what the browser loads with them (chunks imported with import() load later,
 * when that code runs, and are not followed). File names as in the bundle.
 */
export function withStaticImports(bundle: Rolldown.OutputBundle, roots: string[]): string[] {
  const seen = new Set<string>()
  const visit = (file: string) => {
    const c = bundle[file]
    if (seen.has(file) || c?.type !== 'chunk') return
    seen.add(file)
    c.imports.forEach(visit)
  }
  roots.forEach(visit)
  return [...seen]
}
