import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { ApiError, NotAnsweringError, OriginAccessDeniedError, RevisionMismatchError, SessionTimedOutError, ValidationError } from '@/api/errors'

/** Where query errors go; the shell plugs the toast in with `connect` once it is mounted. */
export interface QueryErrorSink {
  onError(error: unknown): void
  /** Sets the handler; returns a function that removes it. */
  connect(handler: (error: unknown) => void): () => void
}

export function createQueryErrorSink(): QueryErrorSink {
  let handler: ((error: unknown) => void) | undefined
  return {
    onError: (error) => handler?.(error),
    connect(h) {
      handler = h
      return () => {
        if (handler === h) handler = undefined
      }
    },
  }
}

/** Errors the shell already handled elsewhere (modal, reload, /sorry) or a form shows itself. */
export function isHandledElsewhere(error: unknown): boolean {
  return (
    error instanceof SessionTimedOutError ||
    error instanceof RevisionMismatchError ||
    error instanceof OriginAccessDeniedError ||
    error instanceof ValidationError ||
    // The session check got no answer: the kept trips show, saying so (AppRoutes).
    error instanceof NotAnsweringError ||
    // Without a network the offline view is shown (AppRoutes): no error toast for calls that could not leave.
    (typeof navigator !== 'undefined' && navigator.onLine === false) ||
    (error instanceof DOMException && error.name === 'AbortError')
  )
}

/**
 * The app's QueryClient. A failed query shows the generic error toast unless
 * the query says `meta: { silent: true }` or the error was handled elsewhere.
 * Mutations handle their own errors (forms show them next to the fields).
 */
export function createAppQueryClient(sink: QueryErrorSink): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.silent || isHandledElsewhere(error)) return
        sink.onError(error)
      },
    }),
    mutationCache: new MutationCache(),
    defaultOptions: {
      queries: {
        retry: (count, error) => !(error instanceof ApiError) && !isHandledElsewhere(error) && count < 2,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  })
}
