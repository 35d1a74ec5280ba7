/**
 * zod without code generation: its fast path compiles parsers with
 * `new Function`, which the Content-Security-Policy (no 'unsafe-eval')
 * refuses and reports. Imported first by main.tsx, before any schema is built.
 */
import { z } from 'zod'

z.config({ jitless: true })
