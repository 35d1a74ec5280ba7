/**
 * Registers the service worker (vite-plugin-pwa's registration, on
 * workbox-window). The shell (App.tsx) imports it after the page's load and
 * first data, when the browser is idle, for a member or where a worker
 * already controls the page: it adds nothing
 * to a visitor's first load (the login page's script budget, docs/speed.md).
 */
import { registerSW } from 'virtual:pwa-register'
import { announceUpdate } from './update'

let registered = false

/** Registers once per page (the shell asks again after a login); whether the browser has service workers. */
export function registerWorker(): boolean {
  if (!('serviceWorker' in navigator)) return false
  if (registered) return true
  registered = true
  const update = registerSW({
    immediate: true,
    // A new release's worker is installed and waiting: the page says so and
    // reloads only when the member asks (a form being filled in is not lost).
    onNeedRefresh: () => announceUpdate(() => void update(true)),
  })
  return true
}
