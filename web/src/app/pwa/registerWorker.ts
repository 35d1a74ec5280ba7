/**
 * Registers the service worker (vite-plugin-pwa's registration, on
 * workbox-window). Imported by main.tsx only after the page's load: it adds
 * nothing to a first load (the login page's script budget, docs/speed.md).
 */
import { registerSW } from 'virtual:pwa-register'
import { announceUpdate } from './update'

export function registerWorker(): void {
  const update = registerSW({
    immediate: true,
    // A new release's worker is installed and waiting: the page says so and
    // reloads only when the member asks (a form being filled in is not lost).
    onNeedRefresh: () => announceUpdate(() => void update(true)),
  })
}
