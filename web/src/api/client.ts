/**
 * The typed API client. Types come from api/openapi.yaml (npm run gen:api →
 * schema.d.ts). Every request goes through one middleware that
 * - waits for the origin-access admission and refuses calls when not admitted,
 * - adds X-Lang, X-Revision and, on every non-GET, the session's X-Csrf-Token (api/csrf.ts),
 * - gives up after 600000 ms,
 * - reports a server revision different from ours and a 403 to the shell (src/api/events.ts),
 * - sends a GET the server answered 503 with Retry-After (a database restart) once more, after that wait,
 * - asks for the expected refusals (400 field errors, 404) quietly (X-Quiet-Errors) and gives
 *   the app the real status again (unquiet), so a member's typo logs nothing in the console.
 *
 * Features do not call `api` from components: they wrap each call in a
 * queryOptions/mutation hook (see src/api/platform.ts for the pattern).
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch'
import type { paths } from './schema'
import { createApiEventBus } from './events'
import { CdnBlockedError, OriginAccessDeniedError, RevisionMismatchError } from './errors'
import { PAGE_REVISION, revisionsDiffer } from './revision'
import { checkOriginAccess, forgetOriginAccess, isAdmitted } from './originAccess'
import { getActiveLang } from '@/i18n/i18n'
import { createCsrfTokens } from './csrf'

export const REQUEST_TIMEOUT_MS = 600_000

/** Session, revision and origin-access events for the shell. */
export const apiEvents = createApiEventBus()

/** The errorKey of a 403 whose session the member signed out from another device. */
export const SESSION_ENDED_ELSEWHERE = 'session_ended_elsewhere'

/** Calls whose 403 means "no session" as an answer, not "the session timed out". */
export function isSessionProbe(method: string, pathname: string): boolean {
  return pathname === '/api/session' && ['GET', 'POST', 'DELETE'].includes(method.toUpperCase())
}

// Requests sent before the session is known (beforeSession).
const sentBeforeSession = new WeakSet<Request>()

/**
 * For a page's data asked for at startup, beside the session check
 * (routing/lazyPage.tsx, a route's prefetch): when there is no
 * session, its 403 is the same answer the session check gives, and the
 * member was never on a page, so it does not open the "session timed out"
 * dialog. Pass it per request: `api.GET(path, { middleware: [beforeSession] })`.
 */
export const beforeSession: Middleware = {
  onRequest({ request }) {
    sentBeforeSession.add(request)
  },
}

function origin(): string {
  return typeof window !== 'undefined' ? window.location.origin : 'http://localhost'
}

/**
 * The server answers a call sent with X-Quiet-Errors: 1 and refused with 400
 * or 404 as 200 with X-Status (a browser logs every 4xx of a fetch in the
 * console, and these are outcomes of the member's input, not faults).
 * This gives the rest of the app the real status back.
 */
export function unquiet(response: Response): Response {
  const real = Number(response.headers.get('X-Status'))
  if (response.status !== 200 || !(real === 400 || real === 404)) return response
  return new Response(response.body, { status: real, statusText: real === 400 ? 'Bad Request' : 'Not Found', headers: response.headers })
}

function commonHeaders(): Record<string, string> {
  return { 'X-Lang': getActiveLang(), 'X-Revision': PAGE_REVISION }
}

/** The waiting room's block reasons that force a new origin-access check. */
export const WAITING_ROOM_RECHECK = ['ACCESS_TOKEN_EXPIRED', 'ACCESS_TOKEN_WAS_NOT_GIVEN'] as const

function isJSON(res: Response): boolean {
  return /\bjson\b/i.test(res.headers.get('Content-Type') ?? '')
}

/** The waiting room's reason of a blocked answer ({"reason": "ACCESS_TOKEN_EXPIRED"}), if it is one that forces a re-check. */
export async function waitingRoomReason(res: Response): Promise<string | undefined> {
  if ((res.status !== 403 && res.status !== 503) || !isJSON(res)) return undefined
  try {
    const body = (await res.clone().json()) as { reason?: unknown }
    return typeof body.reason === 'string' && (WAITING_ROOM_RECHECK as readonly string[]).includes(body.reason) ? body.reason : undefined
  } catch {
    return undefined
  }
}

/** The errorKey of a call the server refused for its CSRF token (internal/httpapi CSRFRefusedKey). */
export const CSRF_REFUSED = 'csrf_token_mismatch'

async function csrfRefused(res: Response): Promise<boolean> {
  if (res.status !== 403 || !isJSON(res)) return false
  try {
    const body = (await res.clone().json()) as { errorKey?: unknown }
    return body.errorKey === CSRF_REFUSED
  } catch {
    return false
  }
}

/** The longest wait before a GET answered 503 is sent again, whatever its Retry-After says. */
export const UNAVAILABLE_RETRY_MAX_MS = 5_000

/**
 * How long to wait before sending an idempotent call once more, or undefined
 * when it should not be: a GET (or HEAD) the server answered 503 with
 * Retry-After (a database outage, internal/httpapi: a moment's wait, then
 * the same request again). Retry-After in seconds, at most 5 s.
 */
export function unavailableRetryDelay(method: string, res: Response): number | undefined {
  if (res.status !== 503 || (method !== 'GET' && method !== 'HEAD')) return undefined
  const after = res.headers.get('Retry-After')
  if (after === null) return undefined
  const seconds = Number(after)
  return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, UNAVAILABLE_RETRY_MAX_MS) : 1000
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    }, { once: true })
  })
}

/**
 * Fetch through the global fetch at call time (so tests can stub it) with
 * the request timeout. A call refused for its CSRF token is sent once more
 * with a fresh token. A waiting-room block whose reason says the access
 * token expired or was not given drops the cached admission, asks again and,
 * when admitted, sends the request once more. A GET answered 503 with
 * Retry-After is sent once more after that wait (unavailableRetryDelay).
 */
async function timedFetch(input: Request, init?: RequestInit): Promise<Response> {
  const send = (req: Request) => {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS)
    const signal = typeof AbortSignal.any === 'function' && req.signal ? AbortSignal.any([req.signal, timeout]) : timeout
    return globalThis.fetch(req, { ...init, signal })
  }
  const again = input.clone()
  const res = await send(input)
  if (await csrfRefused(res)) {
    // The token was for a cookie this browser no longer holds: a login or a
    // logout changed it, or a new visitor's first calls each set a pre-login
    // cookie and the answer that arrived last won. A token for the cookie now
    // held, and the call once more.
    const token = await csrfTokens.renew(again.headers.get('X-Csrf-Token'))
    if (!token) return res
    again.headers.set('X-Csrf-Token', token)
    return send(again)
  }
  if (!(await waitingRoomReason(res))) {
    const delay = unavailableRetryDelay(input.method, res)
    if (delay === undefined) return res
    await sleep(delay, input.signal)
    return send(again)
  }
  forgetOriginAccess()
  const state = await checkOriginAccess()
  if (!isAdmitted(state)) {
    apiEvents.emit({ type: 'originAccessDenied' })
    throw new OriginAccessDeniedError()
  }
  return send(again)
}

/** GET /api/csrf_token: the token bound to the cookie the browser now holds. */
async function fetchCsrfToken(): Promise<string | undefined> {
  try {
    const res = await globalThis.fetch(`${origin()}/api/csrf_token`, {
      credentials: 'same-origin',
      headers: { ...commonHeaders(), Accept: 'application/json' },
    })
    if (!res.ok) return undefined
    const body = (await res.json()) as { csrfToken?: unknown }
    return typeof body.csrfToken === 'string' ? body.csrfToken : undefined
  } catch {
    return undefined
  }
}

/** The session's CSRF token: fetched once, again only when the server refuses it (timedFetch). */
export const csrfTokens = createCsrfTokens(fetchCsrfToken)

export const shellMiddleware: Middleware = {
  async onRequest({ request }) {
    const state = await checkOriginAccess()
    if (!isAdmitted(state)) {
      apiEvents.emit({ type: 'originAccessDenied' })
      throw new OriginAccessDeniedError()
    }
    for (const [k, v] of Object.entries(commonHeaders())) request.headers.set(k, v)
    if (!request.headers.has('Accept')) request.headers.set('Accept', 'application/json')
    request.headers.set('X-Quiet-Errors', '1')
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const token = await csrfTokens.current()
      if (token) request.headers.set('X-Csrf-Token', token)
    }
    return request
  },
  async onResponse({ request, response: answer }) {
    const response = unquiet(answer)
    // A 403 page in HTML is a content delivery network's block page: the API answers JSON.
    if (response.status === 403 && /text\/html/i.test(response.headers.get('Content-Type') ?? '')) {
      apiEvents.emit({ type: 'cdnBlocked', html: await response.clone().text() })
      throw new CdnBlockedError()
    }
    const theirs = response.headers.get('X-Revision')
    if (revisionsDiffer(PAGE_REVISION, theirs)) {
      apiEvents.emit({ type: 'revisionMismatch', ours: PAGE_REVISION, theirs })
      throw new RevisionMismatchError(PAGE_REVISION, theirs)
    }
    if (response.status === 403 && !isSessionProbe(request.method, new URL(request.url).pathname) && !sentBeforeSession.has(request)) {
      const body = (await response.clone().json().catch(() => null)) as { errorKey?: string } | null
      apiEvents.emit({ type: 'sessionTimedOut', endedElsewhere: body?.errorKey === SESSION_ENDED_ELSEWHERE })
    }
    return response
  },
}

/** A client for any paths type, with the shell middleware. */
export function createApiClient<P extends object>(): Client<P> {
  const c = createClient<P>({ baseUrl: origin(), credentials: 'same-origin', fetch: timedFetch })
  c.use(shellMiddleware)
  return c
}

/** The app's API client, typed from api/openapi.yaml. */
export const api = createApiClient<paths>()
