import type { Plugin, Rolldown } from 'vite'
import { withStaticImports } from './chunkGraph.ts'

/** V8's explicit compile hint for a whole file (Chrome 136+; other engines read a comment). */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n'

/**
 * The chunks a page's first load runs: the entry, each page's chunk (a
 * dynamic entry whose module matches `isPage`), and what they import
 * statically. Not the catalogues (data), nor what a page imports with
 * import() (the form rules, for instance, load on the first submit).
 */
export function firstLoadChunks(bundle: Rolldown.OutputBundle, isPage: RegExp): string[] {
  const roots = Object.values(bundle).filter(
    (c) => c.type === 'chunk' && (c.isEntry || (c.isDynamicEntry && c.facadeModuleId != null && isPage.test(c.facadeModuleId))),
  )
  return withStaticImports(bundle, roots.map((c) => c.fileName))
    .filter((file) => !/(^|\/)locale-/.test(file))
    .sort()
}

/**
 * Puts V8's compile hint at the top of the chunks a first load runs, so that
 * Chromium compiles their functions while the file streams in, on a
 * background thread, instead of each one on the main thread the first time
 * it is called. Without it, the first render (the router, the query cache,
 * the form library, the page) spent much of its time compiling, in long
 * tasks after the first paint: /account's longest render task halved with
 * the hint and Lighthouse's blocking time fell from about 200 to 100 ms
 * (docs/speed.md). Lazily imported code keeps V8's lazy compilation.
 */
export function compileHints({ isPage }: { isPage: RegExp }): Plugin {
  return {
    name: 'members-compile-hints',
    apply: 'build',
    generateBundle: {
      // After Vite's own generateBundle, which puts the preload list (__vite__mapDeps) first in the file.
      order: 'post',
      handler(_options, bundle) {
        for (const file of firstLoadChunks(bundle, isPage)) {
          const c = bundle[file]
          if (c.type === 'chunk' && !c.code.startsWith(COMPILE_HINT)) c.code = COMPILE_HINT + c.code
        }
      },
    },
  }
}
