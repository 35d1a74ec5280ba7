/**
 * The account page's first data: the queries the startup prefetch asks for
 * (prefetchAccountPage). routes.tsx imports this module, and so the shell's
 * bundle carries it, so that the calls need not wait for a chunk; the
 * feature's other calls (api.ts, which re-exports these) stay out of the
 * shell's bundle, and with it out of the login page's first load.
 */
import type { QueryClient } from '@tanstack/react-query'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import { prefetchedQuery } from '@/api/prefetched'
import { featureKeys, platformKeys } from '@/api/queryKeys'

export const accountKeys = featureKeys('account')

// What the startup prefetch brought is not asked for again on mount (prefetchedQuery); a save invalidates it whatever its age.
const user = prefetchedQuery([...platformKeys.user, 'full'] as const, async (signal, middleware) =>
  unwrap(await api.GET('/api/user', { params: { query: { disableCache: true } }, signal, middleware })))
export const userQuery = user.query

const countries = (lang: string) =>
  prefetchedQuery(accountKeys.key('countries', lang), async (signal, middleware) => unwrap(await api.GET('/api/masters/countries', { signal, middleware })), Infinity)
export const countriesQuery = (lang: string) => countries(lang).query

/** The e-mail change waiting for its confirmation link (null when none). */
const emailChange = prefetchedQuery(accountKeys.key('emailChange'), async (signal, middleware) =>
  unwrap(await api.GET('/api/user/email_change', { signal, middleware })).pending ?? null)
export const emailChangeQuery = emailChange.query

/**
 * The account page's data, asked for when /account is the first address of a
 * visit, beside the session check and the page's chunk (routes.tsx, lazyPage). Without a
 * session the answers are 403s that nobody shows: silent, not retried, and
 * cleared by the login (SessionProvider); the session check sends the
 * visitor to the login page.
 */
export async function prefetchAccountPage(qc: QueryClient, lang: string): Promise<void> {
  await Promise.all([user.prefetch(qc), emailChange.prefetch(qc), countries(lang).prefetch(qc)])
}
