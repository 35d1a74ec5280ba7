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
