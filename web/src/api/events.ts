/**
 * The API client runs outside React; it tells the shell about session,
 * revision and origin-access problems through these events. The shell
 * (src/app/ApiEventsBridge.tsx) subscribes once.
 */
export type ApiEvent =
  /** endedElsewhere: the member signed this device out from another one (the security centre). */
  | { type: 'sessionTimedOut'; endedElsewhere?: boolean }
  | { type: 'revisionMismatch'; ours: string; theirs: string }
  | { type: 'originAccessDenied' }
  /** A content delivery network refused the call with its own (HTML) 403 page: it replaces the app. */
  | { type: 'cdnBlocked'; html: string }

type Listener = (event: ApiEvent) => void

export interface ApiEventBus {
  emit(event: ApiEvent): void
  subscribe(listener: Listener): () => void
}

export function createApiEventBus(): ApiEventBus {
  const listeners = new Set<Listener>()
  return {
    emit(event) {
      for (const l of [...listeners]) l(event)
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
