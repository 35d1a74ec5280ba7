/**
 * zod without code generation: its fast path compiles parsers with
 * `new Function`, which the Content-Security-Policy (no 'unsafe-eval')
 * refuses and reports. Imported first by main.tsx, before any schema is built.
 * The setting is global (zod's core), so it holds for zod and zod/mini alike.
 * Only `config` is imported (zod's core is free of side effects and tree-shaken):
 * zod itself stays out of the first page's script and arrives with the pages
 * whose forms use it.
 */
import { config } from 'zod/v4/core'

config({ jitless: true })
