/**
 * Whether the browser has a network (navigator.onLine and its online and
 * offline events), for the offline view (AppRoutes) and the refresh on
 * reconnection. What must happen before the pages render online again (the
 * session provider's) listens to "online" in the capture phase: at the
 * window, capture listeners run before these.
 */
import { useSyncExternalStore } from 'react'

function subscribe(render: () => void): () => void {
  window.addEventListener('online', render)
  window.addEventListener('offline', render)
  return () => {
    window.removeEventListener('online', render)
    window.removeEventListener('offline', render)
  }
}

const isOnline = () => navigator.onLine !== false

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true)
}
