/**
 * A query that a page asks for first and that the startup prefetch asks for
 * too, on a visit's first address, beside the session check (app/routes.tsx
 * preloadPage, a route's prefetch in app/routing/lazyPage.tsx).
 */
import { queryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query'
import type { Middleware } from 'openapi-fetch'
import { beforeSession } from './client'

/**
 * How long an answer stays fresh by default: the page that mounts a moment
 * after the startup prefetch's answer takes it instead of asking again. A
 * mutation invalidates it whatever its age.
 */
export const PREFETCHED_FRESH_MS = 10_000

/** Loads the data; `middleware` goes with the api call (`[beforeSession]` from the startup prefetch, none from the page). */
export type PrefetchedLoad<T> = (signal: AbortSignal, middleware?: Middleware[]) => Promise<T>

/**
 * `query`: the page's options. `prefetch`: the startup's call of the same
 * query, sent `beforeSession` (api/client.ts), silent and not retried:
 * without a session its answer is a 403 that nobody shows (the session check
 * sends the visitor to the login page, which clears it: SessionProvider).
 */
export function prefetchedQuery<T, K extends QueryKey>(queryKey: K, load: PrefetchedLoad<T>, staleTime = PREFETCHED_FRESH_MS) {
  const options = (middleware?: Middleware[]) => ({ queryKey, queryFn: ({ signal }: { signal: AbortSignal }) => load(signal, middleware), staleTime })
  return {
    query: queryOptions(options()),
    prefetch: (qc: QueryClient) => qc.prefetchQuery({ ...options([beforeSession]), meta: { silent: true }, retry: false }),
  }
}
