import { localFlag } from '@/api/localFlag'

/**
 * Whether this device keeps a member's trips: a flag beside the kept copy
 * (IndexedDB, features/bookings/offline/store.ts), readable at once and
 * without the store's code, so the shell and other features (a password
 * change) load that code only on a device that keeps trips.
 */
const kept = localFlag('members.keptTrips')
// Set while an erasure runs, cleared with the choice once the copy is gone:
// a page closed or left in between leaves it, and the next page finishes
// the erasure (the choice alone, cleared first, would leave a copy that
// nothing erases any more).
const erasing = localFlag('members.keptTrips.erasing')

/** The device keeps trips: the choice is on and no erasure is under way (no copy is written otherwise). */
export function keepsTrips(): boolean {
  return kept.get() && !erasing.get()
}

/** The device may hold a copy: it keeps trips, or an erasure has not finished. */
export function mayHoldTrips(): boolean {
  return kept.get() || erasing.get()
}

/** Records the member's choice (storage refused, private mode: it cannot be kept). */
export function setKeepsTrips(on: boolean): void {
  kept.set(on)
}

/** Marks an erasure under way (on: nothing is written from then on) or ended. */
export function setErasing(on: boolean): void {
  erasing.set(on)
}

/** Erases the kept trips if this device may hold any (the store's code loads only then). */
export async function eraseKeptTripsIfAny(): Promise<void> {
  if (!mayHoldTrips()) return
  const { eraseKept } = await import('@/features/bookings/offline/store')
  await eraseKept()
}
