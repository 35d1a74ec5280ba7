/**
 * "A new release is ready": the service worker's registration (registerWorker.ts,
 * loaded after the first load) announces a waiting worker here; the shell's
 * banner (UpdateBanner.tsx) offers "Reload to update", which lets the new
 * worker take over and reloads the page.
 */
import { useSyncExternalStore } from 'react'

let apply: (() => void) | null = null
const listeners = new Set<() => void>()

export function announceUpdate(reload: () => void): void {
  apply = reload
  for (const l of [...listeners]) l()
}

export function useUpdate(): (() => void) | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => apply,
    () => null,
  )
}
