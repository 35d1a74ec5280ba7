/**
 * When the service worker is registered: once a member is logged in (the
 * shell calls this), or at once on a device it already controls (a new
 * release is then found on any page, the login page too). A visitor's first
 * load of the login page never loads it, and the registration's code (a chunk
 * of its own, with workbox-window) comes only after the page's load event.
 */
let started = false

export function registerWorkerAfterLoad(): void {
  if (started || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
  started = true
  const register = () =>
    void import('./registerWorker')
      .then((m) => m.registerWorker())
      .catch(() => {
        // offline, the chunk cannot come: the next online page registers
        started = false
      })
  if (document.readyState === 'complete') setTimeout(register, 0)
  else window.addEventListener('load', register, { once: true })
}

/** Whether a service worker of this site controls the page already. */
export function workerControls(): boolean {
  return typeof navigator !== 'undefined' && !!navigator.serviceWorker?.controller
}
