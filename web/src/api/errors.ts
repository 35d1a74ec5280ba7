/**
 * Typed errors for API calls. Every non-2xx answer becomes one of these, so
 * features can `catch (e) { if (e instanceof ValidationError) … }`.
 */

export type ValidationErrors = Record<string, string[]>

/** Any non-success answer. `message` is the server's localized text when it sent one. */
export class ApiError extends Error {
  readonly status: number
  readonly errorKey?: string
  readonly serverMessage?: string
  readonly body: unknown
  constructor(status: number, body: unknown) {
    const b = (body ?? {}) as { message?: unknown; errorKey?: unknown }
    const serverMessage = typeof b.message === 'string' ? b.message : undefined
    super(serverMessage ?? `HTTP ${status}`)
    this.name = 'ApiError'
    this.status = status
    this.body = body
    this.serverMessage = serverMessage
    this.errorKey = typeof b.errorKey === 'string' ? b.errorKey : undefined
  }
}

/**
 * The server could not answer for a moment (503: the database restarting, a
 * full disk): the member is told to try again in a moment, not of a system
 * error. A GET was already sent twice (api/client.ts).
 */
export function isTryAgainShortly(error: unknown): boolean {
  return error instanceof ApiError && error.status === 503
}

/**
 * Whether a failed call is the system's failure (a 5xx, no answer at all, a
 * fault in the page) rather than the server's answer to what the member
 * asked (a 4xx: field errors, a conflict, a refusal, too many attempts).
 * Only the first is titled "System error occurred.".
 */
export function isSystemFailure(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status >= 500
}

/**
 * The unlimited pass is in its maintenance window (03:00 to 05:00 Japan
 * time, or the operator's switch): a 500 with its catalogued key, which
 * the form, the exchange and the payment step each answer with the
 * maintenance page.
 */
export function isPassMaintenance(error: unknown): boolean {
  return error instanceof ApiError && error.errorKey === 'gogopass_maintenance_error'
}

/** 400 with {validationErrors: {field: [message]}}. */
export class ValidationError extends ApiError {
  readonly validationErrors: ValidationErrors
  constructor(status: number, body: unknown, validationErrors: ValidationErrors) {
    super(status, body)
    this.name = 'ValidationError'
    this.validationErrors = validationErrors
  }
}

/** 403: no session, an expired session or a bad CSRF token. The shell has already opened the timeout modal. */
export class SessionTimedOutError extends ApiError {
  constructor(body: unknown) {
    super(403, body)
    this.name = 'SessionTimedOutError'
  }
}

/** The server runs another build than this page; the shell reloads the page or shows the revision modal. */
export class RevisionMismatchError extends Error {
  constructor(readonly ours: string, readonly theirs: string) {
    super(`revision mismatch: page ${ours}, server ${theirs}`)
    this.name = 'RevisionMismatchError'
  }
}

/** A content delivery network blocked the call; the shell shows its page instead of the app. */
export class CdnBlockedError extends Error {
  constructor() {
    super('blocked by the content delivery network')
    this.name = 'CdnBlockedError'
  }
}

/** Origin-access restriction is on and this caller was not admitted; the shell goes to /sorry. */
export class OriginAccessDeniedError extends Error {
  constructor() {
    super('origin access restricted')
    this.name = 'OriginAccessDeniedError'
  }
}

function isValidationBody(body: unknown): body is { validationErrors: ValidationErrors } {
  if (typeof body !== 'object' || body === null) return false
  const v = (body as { validationErrors?: unknown }).validationErrors
  return typeof v === 'object' && v !== null
}

/** Turns a failed response's status and parsed body into the matching typed error. */
export function apiError(status: number, body: unknown): ApiError {
  if (status === 400 && isValidationBody(body)) {
    const errors: ValidationErrors = {}
    for (const [field, msgs] of Object.entries(body.validationErrors)) {
      errors[field] = Array.isArray(msgs) ? msgs.map(String) : [String(msgs)]
    }
    return new ValidationError(status, body, errors)
  }
  if (status === 403) return new SessionTimedOutError(body)
  return new ApiError(status, body)
}

/**
 * Unwraps an openapi-fetch result: returns `data` on success, throws the typed
 * error otherwise. Use it inside query and mutation functions:
 *   queryFn: async ({ signal }) => unwrap(await api.GET('/api/topic_banner', { signal }))
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok) return result.data as T
  throw apiError(result.response.status, result.error)
}

/**
 * The session check got no answer: it failed at the network level (a
 * captive portal, one bar) or took longer than SESSION_CHECK_TIMEOUT_MS.
 * The app shows the kept trips the way it does offline (docs/offline.md),
 * never the login form.
 */
export class NotAnsweringError extends Error {
  constructor(cause?: unknown) {
    super('the connection is not answering', { cause })
    this.name = 'NotAnsweringError'
  }
}
