/** Reports internal client errors with the beacon of spec §7 (POST /api/exception_notify). */
import { csrfTokens } from '@/api/client'
import { PAGE_REVISION } from '@/api/revision'
import { getActiveLang } from '@/i18n/i18n'

export interface ExceptionReport {
  name: string
  message: string
  stack?: string
  path?: string
}

const MAX = 4000

export function toReport(error: unknown, path = window.location.pathname + window.location.search): ExceptionReport {
  const e = error instanceof Error ? error : new Error(String(error))
  return { name: e.name.slice(0, 200), message: e.message.slice(0, MAX), stack: e.stack?.slice(0, MAX), path }
}

/**
 * Sends the report like a beacon (fire and forget, survives unload via keepalive).
 * navigator.sendBeacon cannot carry the X-Csrf-Token header the server requires on
 * every non-GET call, so this is fetch with keepalive and the session's CSRF token.
 */
export function reportException(error: unknown): void {
  try {
    const body = JSON.stringify(toReport(error))
    void csrfTokens.current()
      .then((token) =>
        globalThis.fetch('/api/exception_notify', {
          method: 'POST',
          body,
          keepalive: true,
          credentials: 'same-origin',
          headers: {
            'Content-Type': 'application/json',
            'X-Lang': getActiveLang(),
            'X-Revision': PAGE_REVISION,
            ...(token ? { 'X-Csrf-Token': token } : {}),
          },
        }),
      )
      .catch(() => {})
  } catch {
    // reporting must never throw
  }
}
