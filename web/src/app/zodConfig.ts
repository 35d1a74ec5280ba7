/**
 * zod without code generation: its fast path compiles parsers with
 * `new Function`, which the Content-Security-Policy (no 'unsafe-eval')
 * refuses and reports. Imported first by main.tsx, before any schema is built.
 * The setting is global (zod's core), so it holds for zod and zod/mini alike;
 * importing it from zod/mini keeps full zod out of the first page's script.
 */
import { z } from 'zod/mini'

z.config({ jitless: true })
