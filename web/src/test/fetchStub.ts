import { vi } from 'vitest'

import type { paths } from '../api/schema'

/** A handler answers one "METHOD /path" (query ignored). */
export type Handler = (req: { method: string; url: URL; headers: Headers; body: string | null; signal: AbortSignal }) => Response | Promise<Response>

/**
 * The routes a stub may answer, typed from the API description
 * (src/api/schema.d.ts): a key is "METHOD /path" of an operation that
 * exists, its path parameters filled in ("DELETE /api/cc/tok-1"), and a
 * plain value is that operation's success body, of which a test may give
 * only the fields its page reads (DeepPartial): a stub cannot answer a
 * route, a field or a type the API no longer has. A Response, a status
 * number or a handler answers anything else (errors, other statuses).
 */
type Method = 'get' | 'put' | 'post' | 'delete' | 'patch'
type Filled<P extends string> = P extends `${infer A}{${string}}${infer B}` ? `${A}${string}${Filled<B>}` : P
type JSONOf<R> = R extends { content: { 'application/json': infer B } } ? B : never
type SuccessBody<O> = O extends { responses: infer R } ? JSONOf<R[keyof R & (200 | 201 | 202)]> : never
type DeepPartial<T> = T extends readonly (infer E)[] ? readonly DeepPartial<E>[] : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T
type Answer<O> = Handler | Response | number | DeepPartial<SuccessBody<O>>
type RoutesOf<P extends keyof paths> = {
  [M in Method as paths[P][M] extends { responses: unknown } ? `${Uppercase<M>} ${Filled<P & string>}` : never]?: Answer<paths[P][M]>
}
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never
export type Routes = UnionToIntersection<{ [P in keyof paths]: RoutesOf<P> }[keyof paths]> & {
  /** The sandbox gateway's tokenisation, which the browser calls directly. */
  'POST /gateway/v1/tokens'?: Handler | Response | number | object
}

export interface FetchStub {
  calls: { method: string; path: string; headers: Headers }[]
  called(methodAndPath: string): number
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } })
}

export function status(code: number, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: code, headers })
}

/** The session info of a member and of a visitor: the session check reads its `loggedIn`. */
export const MEMBER_SESSION = { sessionLogId: 'log-123', loggedIn: true }
export const VISITOR_SESSION = { sessionLogId: 'log-123', loggedIn: false }

/**
 * Replaces global fetch with a router over `routes` ("GET /api/session/info": MEMBER_SESSION | Response | handler | JSON body, 204 | status).
 * Unknown calls answer 404 {message}. Defaults make the shell's platform calls quiet.
 */
export function stubFetch(routes: Routes): FetchStub {
  const defaults: Routes = {
    'GET /api_ext/origin_access_request': { restriction_enabled: false, allowed_to_call_api: true, time_to_live: 60 },
    'GET /api/session/info': VISITOR_SESSION,
    'GET /api/cookie_consent': { isCookieConsentRequired: false },
    'GET /api/csrf_token': { csrfToken: 'csrf-1' },
    'GET /api/topic_banner': { target_page: 'home', is_active: false, message1: '', message2: '', href: '' },
    'GET /api/gogo_pass_status': { isGogoPassPublic: false, isGogoPassPurchasable: false, isGogoPassLotteryPhase: false },
    'GET /api/coupon_ticket_status': { isCouponTicketPublic: false },
    'GET /api/user': { firstname: 'Hanako', lastname: 'Sora', hasInvalidCharactersInEmail: false },
    'GET /api/masters/countries': [{ code: 'JP', name: 'Japan' }],
  }
  const all: Record<string, Handler | Response | number | object | undefined> = { ...defaults, ...routes }
  const calls: FetchStub['calls'] = []
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(new URL(String(input), window.location.origin), init)
    const url = new URL(req.url)
    const headers = new Headers(req.headers)
    calls.push({ method: req.method, path: url.pathname, headers })
    const key = `${req.method} ${url.pathname}`
    const route = all[key]
    if (route === undefined) return json({ message: 'not found' }, 404)
    if (typeof route === 'number') return status(route)
    if (route instanceof Response) return route.clone()
    if (typeof route === 'function') {
      const body = req.method === 'GET' ? null : await req.text()
      return (route as Handler)({ method: req.method, url, headers, body, signal: init?.signal ?? req.signal })
    }
    return json(route)
  })
  vi.stubGlobal('fetch', fn)
  return {
    calls,
    called: (mp) => calls.filter((c) => `${c.method} ${c.path}` === mp).length,
  }
}

/** The body a stub may answer for a route: StubBody<'GET /api/cc'> types a test's fixture. */
export type StubBody<K extends keyof Routes> = Exclude<NonNullable<Routes[K]>, Handler | Response | number>
