/**
 * Whose flight change alerts this device receives: the member's profile id
 * when the member switched them on here (push.ts), kept in local storage
 * beside the browser's own push subscription, readable at once and without
 * the push code, so the shell and the features that end a session
 * (logout, a password change, a deletion) load that code only on a device
 * that has it on.
 */
const KEY = 'members.push'

/** The member whose alerts this device receives, or null. */
export function pushMember(): string | null {
  try {
    return globalThis.localStorage?.getItem(KEY) || null
  } catch {
    return null
  }
}

/** Records the member who switched the alerts on here (null: off). */
export function setPushMember(memberId: string | null): void {
  try {
    if (memberId) globalThis.localStorage?.setItem(KEY, memberId)
    else globalThis.localStorage?.removeItem(KEY)
  } catch {
    // storage refused: the choice is not remembered, the browser's subscription stays the truth
  }
}

/**
 * Switches the alerts off on this device, if they are on: the browser's
 * subscription is ended (its push service then refuses the server's
 * pushes) and the choice forgotten. The session's end has already switched
 * the device off on the server: a shared computer never receives the
 * previous member's flights.
 */
export async function forgetPushIfAny(): Promise<void> {
  if (!pushMember()) return
  const { forgetPush } = await import('./push')
  await forgetPush()
}
