// A Vite plugin that fails the build when the login page's JavaScript,
// compressed as the server sends it (brotli, quality 11: scripts/compress.mjs),
// is over its budget (vite.config.ts sets it: 130 KiB).
// It adds up, from the bundler's own chunk graph, what a first visit to /login
// loads before it can show the form: the entry chunk, the login page's chunk,
// every chunk they import statically, and the catalogue chunks the page loads
// before it renders, in the language measured (Lighthouse's browser asks for
// English). Chunks loaded later through import() (a passkey library, another
// page) do not count, which is the point: whatever the login page needs only
// when a button is pressed must be imported lazily.
import type { Plugin, Rolldown } from 'vite'
import { brotliCompressSync, constants } from 'node:zlib'
import { withStaticImports } from './chunkGraph.ts'

export interface ScriptBudget {
  /** The page module whose first load is measured, e.g. 'src/app/pages/LoginPage.tsx'. */
  page: string
  /** The catalogue chunks loaded before the page renders, e.g. ['locale-en-common']. */
  catalogues: string[]
  /** The budget in bytes of brotli-compressed JavaScript. */
  maxBytes: number
}

export interface BudgetReport {
  total: number
  chunks: { file: string; bytes: number }[]
}

/** What a first load of the page costs, from a Rollup/Rolldown output bundle. */
export function measureFirstLoad(bundle: Rolldown.OutputBundle, budget: Omit<ScriptBudget, 'maxBytes'>): BudgetReport {
  const chunks = Object.values(bundle).filter((o): o is Rolldown.OutputChunk => o.type === 'chunk')
  const byFile = new Map(chunks.map((c) => [c.fileName, c]))
  const entry = chunks.find((c) => c.isEntry)
  const page = chunks.find((c) => c.facadeModuleId?.endsWith(budget.page))
  const catalogues = budget.catalogues.map((name) => chunks.find((c) => c.name === name))
  const missing = budget.catalogues.filter((_, i) => !catalogues[i])
  if (!entry || !page || missing.length > 0) {
    throw new Error(`script budget: missing chunk (entry ${!!entry}, ${budget.page} ${!!page}, catalogues missing: ${missing.join(', ') || 'none'})`)
  }
  const files = withStaticImports(bundle, [entry, page, ...catalogues].flatMap((c) => (c ? [c.fileName] : [])))
  const measured = files.map((file) => ({
    file,
    bytes: brotliCompressSync(byFile.get(file)!.code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }))
  measured.sort((a, b) => b.bytes - a.bytes)
  return { total: measured.reduce((n, c) => n + c.bytes, 0), chunks: measured }
}

export function scriptBudget(budget: ScriptBudget): Plugin {
  return {
    name: 'members-script-budget',
    apply: 'build',
    // writeBundle: the code as written, after every plugin (Vite rewrites the preload lists last).
    writeBundle(_options, bundle) {
      const r = measureFirstLoad(bundle, budget)
      const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`
      const detail = r.chunks.map((c) => `  ${c.file}: ${kib(c.bytes)}`).join('\n')
      if (r.total > budget.maxBytes) {
        this.error(
          `the first load of ${budget.page} is ${kib(r.total)} of brotli-compressed JavaScript, over its budget of ${kib(budget.maxBytes)} ` +
            `(docs/speed.md: import what is not needed for the first render with import()):\n${detail}`,
        )
      }
      this.info(`first load of ${budget.page}: ${kib(r.total)} brotli (budget ${kib(budget.maxBytes)}):\n${detail}`)
    },
  }
}
