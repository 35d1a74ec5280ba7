/** Reports internal client errors with the beacon of spec §7 (POST /api/exception_notify). */
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

export function reportException(error: unknown): void {
  try {
    const body = JSON.stringify(toReport(error))
    const url = '/api/exception_notify'
    if (typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function') {
      // text/plain keeps the beacon a "simple" request; the server accepts both bodies.
      if (navigator.sendBeacon(url, new Blob([body], { type: 'text/plain;charset=UTF-8' }))) return
    }
    void globalThis.fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'application/json' }, keepalive: true }).catch(() => {})
  } catch {
    // reporting must never throw
  }
}
