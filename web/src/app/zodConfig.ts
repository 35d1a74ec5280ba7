/**
 * zod without code generation: its fast path compiles parsers with
 * `new Function`, which the Content-Security-Policy (no 'unsafe-eval')
 * refuses and reports. Imported first by main.tsx, before any schema is built.
 *
 * The setting is zod's global configuration, which zod keeps on
 * `globalThis.__zod_globalConfig` (shared by every copy of zod, and what
 * `z.config()` writes to); it is set here without importing zod, whose core
 * would otherwise sit in the first load of every page (3.2 KiB brotli on the
 * login page, docs/speed.md). zod comes with the pages whose forms use it and
 * finds the setting there; zodConfig.test.ts fails if zod stops reading it.
 */
const holder = globalThis as typeof globalThis & { __zod_globalConfig?: Record<string, unknown> }
holder.__zod_globalConfig ??= {}
holder.__zod_globalConfig.jitless = true

export {}
