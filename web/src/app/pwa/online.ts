/**
 * Whether the browser has a network (navigator.onLine and its online and
 * offline events), for the offline view (AppRoutes) and the refresh on
 * reconnection. What must happen before React renders the pages again (the
 * session check's network failure forgotten) registers with onReconnect:
 * those run first, then the components re-render.
 */
import { useSyncExternalStore } from 'react'

const renders = new Set<() => void>()
const reconnects = new Set<() => void>()

function changed(e: Event) {
  if (e.type === 'online') for (const f of [...reconnects]) f()
  for (const f of [...renders]) f()
}

function subscribe(render: () => void): () => void {
  if (renders.size === 0) {
    window.addEventListener('online', changed)
    window.addEventListener('offline', changed)
  }
  renders.add(render)
  return () => {
    renders.delete(render)
    if (renders.size === 0) {
      window.removeEventListener('online', changed)
      window.removeEventListener('offline', changed)
    }
  }
}

export function isOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false
}

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true)
}

/** Runs f when the network comes back, before the pages render online again; returns the unsubscribe. */
export function onReconnect(f: () => void): () => void {
  reconnects.add(f)
  return () => reconnects.delete(f)
}
