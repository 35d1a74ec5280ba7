/**
 * "Notify me on this device about changes to my flights" (Web Push,
 * docs/flight-alerts.md): the browser's push subscription made with the
 * server's VAPID key, in the service worker vite-plugin-pwa generates
 * (its push and click handlers: public/push-sw.js), and given to the
 * server for this member and device.
 */
import { api } from '@/api/client'
import { ApiError, unwrap } from '@/api/errors'
import { pushMember, setPushMember } from './pushChoice'

/**
 * What the device can do:
 * - ready: it can receive notifications (the browser asks for permission
 *   when the member switches them on);
 * - blocked: the member refused notifications for the site in the browser;
 * - installFirst: an iPhone or iPad outside the home screen, where Safari
 *   offers no push: the app must be added to the home screen first;
 * - unsupported: no service worker, Push API or notifications.
 */
export type PushSupport = 'ready' | 'blocked' | 'installFirst' | 'unsupported'

/** An iPhone, iPod or iPad (an iPad says it is a Mac with a touch screen). */
function isAppleMobile(nav: Navigator): boolean {
  return /iPad|iPhone|iPod/.test(nav.userAgent) || (/Macintosh/.test(nav.userAgent) && nav.maxTouchPoints > 1)
}

/** Opened from the home screen (an installed app), not in a browser tab. */
function standalone(win: Window): boolean {
  return win.matchMedia?.('(display-mode: standalone)').matches === true || (win.navigator as Navigator & { standalone?: boolean }).standalone === true
}

export function pushSupport(win: Window = window): PushSupport {
  const nav = win.navigator
  // Safari on iOS and iPadOS (16.4 and later) has push for home-screen apps only.
  if (isAppleMobile(nav) && !standalone(win)) return 'installFirst'
  if (!('serviceWorker' in nav) || !('PushManager' in win) || !('Notification' in win)) return 'unsupported'
  return (win as Window & typeof globalThis).Notification.permission === 'denied' ? 'blocked' : 'ready'
}

/** The member's profile id: whose alerts these are. */
export async function currentMember(): Promise<string> {
  return unwrap(await api.GET('/api/user')).profileId
}

/** The reason a switch-on did not happen, for the page to say. */
export class PushRefused extends Error {
  constructor(readonly reason: 'blocked' | 'unavailable' | 'failed') {
    super(`push: ${reason}`)
    this.name = 'PushRefused'
  }
}

/** The applicationServerKey of subscribe from the key's base64url. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4)
  const raw = atob(b64)
  const out = new Uint8Array(new ArrayBuffer(raw.length))
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i)
  return out
}

function sameKey(sub: PushSubscription, key: Uint8Array): boolean {
  const had = sub.options?.applicationServerKey
  if (!had) return false
  const a = new Uint8Array(had)
  return a.length === key.length && a.every((b, i) => b === key[i])
}

/** The service worker's registration, registering it first if the shell has not yet (it does so when idle). */
async function registration(): Promise<ServiceWorkerRegistration> {
  if (!(await navigator.serviceWorker.getRegistration())) {
    const { registerWorker } = await import('./registerWorker')
    registerWorker()
  }
  return navigator.serviceWorker.ready
}

/** The subscription of this device, if the browser has one. */
async function currentSubscription(): Promise<PushSubscription | null> {
  if (!('serviceWorker' in navigator)) return null
  const reg = await navigator.serviceWorker.getRegistration()
  return (await reg?.pushManager.getSubscription()) ?? null
}

/** Whether this device receives the member's alerts: the choice is the member's and the browser still holds the subscription. */
export async function pushIsOn(memberId: string): Promise<boolean> {
  if (pushMember() !== memberId || pushSupport() !== 'ready' || Notification.permission !== 'granted') return false
  return (await currentSubscription().catch(() => null)) !== null
}

/** Gives the server the subscription; renew: only if the server still has it (ApiError 404 otherwise). */
async function save(sub: PushSubscription, renew = false): Promise<void> {
  const json = sub.toJSON()
  unwrap(await api.PUT('/api/push/subscription', {
    params: { query: renew ? { renew: true } : {} },
    body: { endpoint: json.endpoint ?? sub.endpoint, expirationTime: null, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } },
  }))
}

/**
 * Switches the alerts on for memberId, from the member's press: the
 * browser's permission prompt (asked here, so it follows that press), the
 * server's key, the subscription, then the server records it.
 */
export async function switchPushOn(memberId: string): Promise<void> {
  // First, in the press's own turn: some browsers prompt only then.
  const permission = await Notification.requestPermission()
  if (permission !== 'granted') throw new PushRefused('blocked')
  let publicKey: string
  try {
    publicKey = unwrap(await api.GET('/api/push/vapid_key')).publicKey
  } catch (e) {
    throw new PushRefused(e instanceof ApiError && e.status === 503 ? 'unavailable' : 'failed')
  }
  try {
    const key = keyBytes(publicKey)
    const reg = await registration()
    let sub = await reg.pushManager.getSubscription()
    if (sub && !sameKey(sub, key)) {
      // made with another key (the server's changed): its pushes would be refused
      await sub.unsubscribe()
      sub = null
    }
    sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })
    await save(sub)
    setPushMember(memberId)
  } catch (e) {
    throw e instanceof PushRefused ? e : new PushRefused('failed')
  }
}

/** Switches the alerts off on this device: on the server, then the browser's subscription. */
export async function switchPushOff(): Promise<void> {
  const sub = await currentSubscription().catch(() => null)
  if (sub) {
    try {
      unwrap(await api.DELETE('/api/push/subscription', { body: { endpoint: sub.endpoint } }))
    } catch (e) {
      // 404: the server had already forgotten it (a 410, another session's end)
      if (!(e instanceof ApiError && e.status === 404)) throw e
    }
    await sub.unsubscribe().catch(() => false)
  }
  setPushMember(null)
}

/**
 * After a login: the member's alerts stay on under the new session, so
 * that its logout switches them off (the subscription is renewed on the
 * server, if the server still has it: one switched off elsewhere ends here
 * too); another member's are ended on this device.
 */
export async function renewPush(memberId: string): Promise<void> {
  const owner = pushMember()
  if (!owner) return
  if (owner !== memberId || pushSupport() !== 'ready' || Notification.permission !== 'granted') {
    await forgetPush()
    return
  }
  // once a tab's session (the tab's storage goes with the logout)
  const renewed = 'members.push.renewed'
  if (readSession(renewed) === memberId) return
  const sub = await currentSubscription()
  if (!sub) {
    setPushMember(null) // the browser dropped it (site data cleared)
    return
  }
  try {
    await save(sub, true)
  } catch (e) {
    // switched off meanwhile (the security centre, a password change elsewhere): off here too
    if (e instanceof ApiError && e.status === 404) await forgetPush()
    else throw e
    return
  }
  writeSession(renewed, memberId)
}

function readSession(key: string): string | null {
  try {
    return globalThis.sessionStorage?.getItem(key) ?? null
  } catch {
    return null
  }
}

function writeSession(key: string, value: string): void {
  try {
    globalThis.sessionStorage?.setItem(key, value)
  } catch {
    // no storage: renewed again on the next load
  }
}

/** Ends the browser's subscription and forgets the choice (the server has removed it already). */
export async function forgetPush(): Promise<void> {
  const sub = await currentSubscription().catch(() => null)
  await sub?.unsubscribe().catch(() => false)
  setPushMember(null)
}
