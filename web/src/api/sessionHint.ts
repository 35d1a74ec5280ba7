import { localFlag } from './localFlag'

/**
 * Whether this browser had a member session the last time the app looked.
 * The session cookie is not readable from the page, so this is only a hint:
 * with it, a member page's first load asks for its data beside the session
 * check (one round trip, as members come back logged in); without it (a
 * visitor, or after a logout) the data waits for the check, so a visitor's
 * first load of a member address sends no call that would be refused (a
 * refused call is an error in the browser's console). A wrong hint costs
 * only that: a round trip, or the refused calls once.
 */
const hint = localFlag('members.hadSession')

export function hadSession(): boolean {
  return hint.get()
}

/** Records the hint (storage refused, private mode: it stays off and the page waits for the check). */
export function rememberSession(loggedIn: boolean): void {
  hint.set(loggedIn)
}

/**
 * Whether this browser has told the member that this device was logged out
 * from another one (the login page's notice, or the dialog of a page that
 * was open). The server reports it on every session check until a login
 * here replaces the ended session's cookie; the member is told once, not
 * on each reload. A session check that no longer reports it forgets the
 * telling, so a later ending is told again.
 */
const toldEndedElsewhere = localFlag('members.toldEndedElsewhere')

/** Whether the login page says the device was logged out from another one: reported, and not told yet. */
export function endedElsewhereUntold(reported: boolean): boolean {
  return reported && !toldEndedElsewhere.get()
}

/** Records that the member was told (once a notice or dialog shows it). */
export function markEndedElsewhereTold(): void {
  toldEndedElsewhere.set(true)
}

/** Follows a session check: one that does not report the ending forgets the telling. */
export function followEndedElsewhere(reported: boolean): void {
  if (!reported) toldEndedElsewhere.set(false)
}
