/**
 * Whether this device keeps a member's trips: a flag beside the kept copy
 * (IndexedDB, features/bookings/offline/store.ts), readable at once and
 * without the store's code, so the shell and other features (a password
 * change) load that code only on a device that keeps trips.
 */
const KEY = 'members.keptTrips'

export function keepsTrips(): boolean {
  try {
    return globalThis.localStorage?.getItem(KEY) === '1'
  } catch {
    return false
  }
}

export function setKeepsTrips(on: boolean): void {
  try {
    if (on) globalThis.localStorage?.setItem(KEY, '1')
    else globalThis.localStorage?.removeItem(KEY)
  } catch {
    // storage refused (private mode): the choice cannot be kept
  }
}

/** Erases the kept trips if this device keeps any (the store's code loads only then). */
export async function eraseKeptTripsIfAny(): Promise<void> {
  if (!keepsTrips()) return
  const { eraseKept } = await import('@/features/bookings/offline/store')
  await eraseKept()
}
