/**
 * Origin access restriction: GET /api_ext/origin_access_request,
 * cached in localStorage until its time_to_live runs out. A failed check is
 * read as "restriction off" and cached for 10 seconds.
 */
export const ORIGIN_ACCESS_KEY = 'members.originAccess'
export const ORIGIN_ACCESS_FAILURE_TTL_MS = 10_000

export interface OriginAccessState {
  restrictionEnabled: boolean
  allowed: boolean
  expiresAt: number
}

export function isAdmitted(s: OriginAccessState): boolean {
  return !s.restrictionEnabled || s.allowed
}

function readCache(now: number): OriginAccessState | undefined {
  try {
    const raw = window.localStorage.getItem(ORIGIN_ACCESS_KEY)
    if (!raw) return undefined
    const s = JSON.parse(raw) as OriginAccessState
    return typeof s.expiresAt === 'number' && s.expiresAt > now ? s : undefined
  } catch {
    return undefined
  }
}

function writeCache(s: OriginAccessState) {
  try {
    window.localStorage.setItem(ORIGIN_ACCESS_KEY, JSON.stringify(s))
  } catch {
    // no storage: we simply ask again next time
  }
}

let inflight: Promise<OriginAccessState> | undefined

/** The cached answer, or a fresh one. Never throws. */
export function checkOriginAccess(fetchImpl: typeof fetch = (...a) => globalThis.fetch(...a), now = Date.now()): Promise<OriginAccessState> {
  const cached = readCache(now)
  if (cached) return Promise.resolve(cached)
  return askOriginAccess(fetchImpl)
}

/**
 * Asks the server whatever the cache holds, and caches the answer. The
 * page's start (main.tsx) asks this way: index.html's preload has already
 * sent the request, and a cached answer left it unused (a wasted call, and
 * the browser's console warning a few seconds after the load).
 */
export function askOriginAccess(fetchImpl: typeof fetch = (...a) => globalThis.fetch(...a)): Promise<OriginAccessState> {
  inflight ??= (async () => {
    let state: OriginAccessState
    try {
      const res = await fetchImpl(new URL('/api_ext/origin_access_request', window.location.origin).toString(), {
        credentials: 'same-origin',
        headers: { Accept: 'application/json' },
      })
      if (!res.ok) throw new Error(`HTTP ${res.status}`)
      const body = (await res.json()) as { restriction_enabled?: unknown; allowed_to_call_api?: unknown; time_to_live?: unknown }
      const ttl = typeof body.time_to_live === 'number' && body.time_to_live > 0 ? body.time_to_live * 1000 : ORIGIN_ACCESS_FAILURE_TTL_MS
      state = { restrictionEnabled: body.restriction_enabled === true, allowed: body.allowed_to_call_api === true, expiresAt: Date.now() + ttl }
    } catch {
      state = { restrictionEnabled: false, allowed: true, expiresAt: Date.now() + ORIGIN_ACCESS_FAILURE_TTL_MS }
    }
    writeCache(state)
    return state
  })().finally(() => {
    inflight = undefined
  })
  return inflight
}

/** Drops the cached answer, so the next call asks again (a waiting-room block reason forces this). */
export function forgetOriginAccess(): void {
  try {
    window.localStorage.removeItem(ORIGIN_ACCESS_KEY)
  } catch {
    // no storage: nothing cached
  }
}
