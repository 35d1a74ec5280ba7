/**
 * Registers the service worker (vite-plugin-pwa's registration, on
 * workbox-window). The shell (App.tsx) imports it after the page's load,
 * for a member or where a worker already controls the page: it adds nothing
 * to a visitor's first load (the login page's script budget, docs/speed.md).
 */
import { registerSW } from 'virtual:pwa-register'
import { announceUpdate } from './update'

let registered = false

/** Registers once per page (the shell asks again after a login). */
export function registerWorker(): void {
  if (registered || !('serviceWorker' in navigator)) return
  registered = true
  const update = registerSW({
    immediate: true,
    // A new release's worker is installed and waiting: the page says so and
    // reloads only when the member asks (a form being filled in is not lost).
    onNeedRefresh: () => announceUpdate(() => void update(true)),
  })
}
