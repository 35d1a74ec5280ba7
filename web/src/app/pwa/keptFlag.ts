import { localFlag } from '@/api/localFlag'

/**
 * Whether this device keeps a member's trips: a flag beside the kept copy
 * (IndexedDB, features/bookings/offline/store.ts), readable at once and
 * without the store's code, so the shell and other features (a password
 * change) load that code only on a device that keeps trips.
 */
const kept = localFlag('members.keptTrips')

export function keepsTrips(): boolean {
  return kept.get()
}

/** Records the member's choice (storage refused, private mode: it cannot be kept). */
export function setKeepsTrips(on: boolean): void {
  kept.set(on)
}

/** Erases the kept trips if this device keeps any (the store's code loads only then). */
export async function eraseKeptTripsIfAny(): Promise<void> {
  if (!keepsTrips()) return
  const { eraseKept } = await import('@/features/bookings/offline/store')
  await eraseKept()
}
