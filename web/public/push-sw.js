/*
 * The flight change alerts in the service worker (docs/flight-alerts.md).
 * vite-plugin-pwa's generated worker (web/vite.config.ts) imports this file
 * (importScripts) and does everything else: Workbox makes no push handler,
 * so these are the only hand-written parts.
 *
 * - push: the server's payload (internal/push/notice.go, Message) is shown
 *   as a notification, one per flight (its tag): a later change replaces the
 *   earlier one, alerting again only when the one it replaces is more than a
 *   minute old; a push older than the one shown (a late or repeated
 *   delivery) leaves the newer one as it is.
 * - the trips kept on this device (IndexedDB members-kept, written by the
 *   page: src/features/bookings/offline/store.ts): when they are kept, the
 *   changed flight's fields are written onto its segments, so the offline
 *   view shows the change even if the app is never opened after it.
 * - notificationclick: the booking (the flight change mail's link) opens,
 *   in a window of the app when one is open.
 */

const QUIET_REPLACE_MS = 60 * 1000
const BCP47 = { jp: 'ja-JP', en: 'en', sg: 'en-SG', kr: 'ko-KR', cn: 'zh-CN', tw: 'zh-TW', hk: 'zh-HK', th: 'th-TH' }
const KEPT_DB = 'members-kept'
const KEPT_STORE = 'kept'
const KEPT_RECORD = 'trips'
// the kept segment's fields a flight change moves (the API's names)
const MOVED = ['departDateTime', 'arrivalDateTime', 'estimatedDepartDateTime', 'estimatedArrivalDateTime', 'flightStatus',
  'flightStatusLabel', 'isIrregular', 'flightChange']

self.addEventListener('push', (event) => {
  event.waitUntil(onPush(event.data))
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  event.waitUntil(openBooking(inApp(event.notification.data && event.notification.data.url)))
})

/** The payload, or null when it is not one of the server's. */
function message(data) {
  try {
    const m = data ? data.json() : null
    return m && m.v === 1 && typeof m.title === 'string' && typeof m.tag === 'string' ? m : null
  } catch {
    return null
  }
}

async function onPush(data) {
  const msg = message(data)
  if (!msg) return
  await refreshKept(msg).catch(() => undefined)
  const [shown] = await self.registration.getNotifications({ tag: msg.tag })
  const prev = shown && shown.data
  const now = Date.now()
  let show = msg
  let renotify = !!shown
  let shownAt = now
  if (prev && typeof prev.sequence === 'number' && prev.sequence >= msg.sequence) {
    // the same change again, or an older one arriving late: the newer stays
    show = prev
    renotify = false
    shownAt = prev.shownAt || now
  } else if (prev && now - (prev.shownAt || 0) < QUIET_REPLACE_MS) {
    renotify = false // changes within a minute: one notification, replaced quietly
    shownAt = prev.shownAt
  }
  await self.registration.showNotification(show.title, {
    body: show.body,
    tag: show.tag,
    renotify,
    lang: BCP47[show.lang] || 'en',
    icon: '/icons/icon-192.png',
    timestamp: now,
    data: { ...show, shownAt },
  })
  // an open page refreshes what it shows
  for (const client of await self.clients.matchAll({ type: 'window' })) {
    client.postMessage({ type: 'members-flight-change', flight: msg.flight, date: msg.date })
  }
}

/** The kept trips' database, or null when nothing is kept (it is not made here). */
function openKept() {
  return new Promise((resolve) => {
    let req
    try {
      req = indexedDB.open(KEPT_DB)
    } catch {
      resolve(null)
      return
    }
    // no such database: the member keeps no trips here, and none is made
    req.onupgradeneeded = () => req.transaction.abort()
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => resolve(null)
    req.onblocked = () => resolve(null)
  })
}

async function refreshKept(msg) {
  const db = await openKept()
  if (!db) return
  try {
    if (!db.objectStoreNames.contains(KEPT_STORE)) return
    await new Promise((resolve, reject) => {
      const tx = db.transaction(KEPT_STORE, 'readwrite')
      const store = tx.objectStore(KEPT_STORE)
      const get = store.get(KEPT_RECORD)
      get.onsuccess = () => {
        const record = get.result
        if (record && moveFlight(record, msg)) store.put(record, KEPT_RECORD)
      }
      tx.oncomplete = () => resolve()
      tx.onerror = () => reject(tx.error)
      tx.onabort = () => reject(tx.error)
    })
  } finally {
    db.close()
  }
}

/**
 * Writes the changed flight onto the kept segments of the member's
 * bookings named by the push (same flight, departing on the flight's
 * local date); a segment already as new (its change counted) stays.
 */
function moveFlight(record, msg) {
  let moved = false
  for (const trip of record.trips || []) {
    if (!(msg.pnrs || []).includes(trip.pnr)) continue
    for (const seg of trip.segments || []) {
      if (seg.flight !== msg.flight || String(seg.departDateTime).slice(0, 10) !== msg.date || seg.isCancelled) continue
      if (seg.flightChange && seg.flightChange.sequence >= msg.sequence) continue
      for (const field of MOVED) {
        if (msg.segment[field] === undefined) delete seg[field]
        else seg[field] = msg.segment[field]
      }
      if (msg.segment.originTerminal) seg.originTerminal = msg.segment.originTerminal
      if (msg.segment.originGate) seg.originGate = msg.segment.originGate
      moved = true
    }
  }
  return moved
}

/** The booking's address on this app's own origin (the link is the server's: never another site). */
function inApp(url) {
  try {
    const u = new URL(url, self.location.origin)
    return self.location.origin + u.pathname + u.search
  } catch {
    return self.location.origin + '/bookings'
  }
}

/** Opens url in a window of the app when one is open (focused), else in a new one. */
async function openBooking(url) {
  for (const client of await self.clients.matchAll({ type: 'window' })) {
    if (!('navigate' in client)) continue
    await client.focus().catch(() => undefined)
    if (await client.navigate(url).catch(() => null)) return
  }
  await self.clients.openWindow(url)
}
