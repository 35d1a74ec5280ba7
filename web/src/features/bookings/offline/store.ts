/**
 * The kept trips on this device: one record in IndexedDB through idb-keyval
 * (docs/offline.md says why), in a database of their own, so erasing is
 * clearing it. Erasing also deletes any Cache Storage cache of kept data
 * (names starting "members-kept") and the flag (app/pwa/keptFlag.ts).
 */
import { clear, createStore, get, set } from 'idb-keyval'
import { api } from '@/api/client'
import { unwrap } from '@/api/errors'
import { getActiveLang } from '@/i18n/i18n'
import { documentUrl, searchReservations } from '../api'
import { todayJST } from '../searchForm'
import { keptQuery, tripsToKeep, type KeptRecord } from './keptTrips'
import { keepsTrips, setErasing, setKeepsTrips } from '@/app/pwa/keptFlag'

export const KEPT_DB = 'members-kept'
const RECORD = 'trips'
const CACHE_PREFIX = 'members-kept'

let db: ReturnType<typeof createStore> | undefined
const store = () => (db ??= createStore(KEPT_DB, 'kept'))

export async function readKept(): Promise<KeptRecord | undefined> {
  return get<KeptRecord>(RECORD, store())
}

export async function eraseKept(): Promise<void> {
  setErasing(true)
  await clear(store())
  if (typeof caches !== 'undefined') {
    for (const name of await caches.keys()) if (name.startsWith(CACHE_PREFIX)) await caches.delete(name)
  }
  // the copy is gone: the choice goes off, then the erasure ends
  setKeepsTrips(false)
  setErasing(false)
}

/** The member's profile id: whose trips these are. */
export async function currentMemberId(): Promise<string> {
  const user = unwrap(await api.GET('/api/user'))
  return user.profileId
}

async function itinerary(pnr: string): Promise<Blob | undefined> {
  const res = await fetch(documentUrl(`/api/reservations/${encodeURIComponent(pnr)}/itinerary`, getActiveLang()), { credentials: 'same-origin' })
  return res.ok && /pdf/i.test(res.headers.get('Content-Type') ?? '') ? res.blob() : undefined
}

/**
 * Brings the kept copy up to date: the member's bookings of the next 30
 * days and their itineraries, saved as one record. A copy of another member
 * is erased, and nothing written: that member never chose to keep theirs.
 * Switched off meanwhile (the flag gone), nothing is written either.
 */
export async function refreshKept(memberId: string, now = new Date()): Promise<KeptRecord | undefined> {
  const previous = await readKept()
  if (previous && previous.memberId !== memberId) {
    await eraseKept()
    return undefined
  }
  const result = await searchReservations(keptQuery(todayJST(now)))
  const trips = tripsToKeep(result.reservations, now)
  const itineraries: Record<string, Blob> = {}
  for (const t of trips) {
    const pdf = await itinerary(t.pnr).catch(() => undefined)
    const kept = pdf ?? previous?.itineraries[t.pnr]
    if (kept) itineraries[t.pnr] = kept
  }
  if (!keepsTrips()) return undefined
  const record: KeptRecord = { memberId, savedAt: now.getTime(), trips, itineraries }
  await set(RECORD, record, store())
  return record
}

/** Switches keeping on: anything kept before erased, the flag set, then a first copy. */
export async function keepTrips(memberId: string): Promise<KeptRecord | undefined> {
  await eraseKept()
  setKeepsTrips(true)
  return refreshKept(memberId)
}
