/**
 * GET /api/user: the member record. The account feature owns this endpoint and
 * will describe it in api/openapi.yaml; until then this module declares the few
 * fields the shell reads and calls it defensively (any failure → no data).
 */
import type { Middleware } from 'openapi-fetch'
import { createApiClient } from './client'
import { prefetchedQuery } from './prefetched'
import { platformKeys } from './queryKeys'

/** The fields of the user record the shell needs. */
export interface ShellUser {
  firstname?: string
  lastname?: string
  email?: string
  hasInvalidCharactersInEmail?: boolean
}

interface UserPaths {
  '/api/user': {
    get: {
      parameters: { query?: { disableCache?: boolean } }
      responses: { 200: { content: { 'application/json': ShellUser } } }
    }
  }
}

const userClient = createApiClient<UserPaths>()

/** Loads the user, or null when there is none (403, 404, 501, network error…). */
export async function fetchShellUser(signal?: AbortSignal, middleware?: Middleware[]): Promise<ShellUser | null> {
  try {
    const { data, response } = await userClient.GET('/api/user', { signal, middleware })
    return response.ok && data ? data : null
  } catch {
    return null
  }
}

const shellUser = prefetchedQuery(platformKeys.user, fetchShellUser, 60_000)
export const shellUserQuery = (enabled: boolean) => ({ ...shellUser.query, enabled, meta: { silent: true } })

/**
 * The member's record for the shell, asked for at startup beside the session
 * check (api/platform.ts prefetchShellData): without a session its 403 is
 * the session check's answer, not a timed-out session (prefetchedQuery).
 */
export const prefetchShellUser = shellUser.prefetch
