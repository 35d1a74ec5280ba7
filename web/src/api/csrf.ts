/**
 * The CSRF token of this browser's session, kept for the session: the server
 * binds it to the session cookie (or the pre-login cookie), so it stays good
 * until that cookie changes (a login, a logout, a new pre-login cookie). The
 * client fetches it once, shares the fetch between calls sent together, and
 * fetches a new one only when the server refuses the one it has (api/client.ts).
 */
export interface CsrfTokens {
  /** The kept token, fetched first if there is none (undefined when it could not be fetched). */
  current(): Promise<string | undefined>
  /**
   * A token other than `refused`: the one kept if another call has already
   * replaced the refused one, a newly fetched one otherwise.
   */
  renew(refused: string | null): Promise<string | undefined>
  /** Drops the kept token (tests, between two apps). */
  forget(): void
}

export function createCsrfTokens(fetchToken: () => Promise<string | undefined>): CsrfTokens {
  let kept: Promise<string | undefined> | undefined
  const current = () => {
    if (!kept) {
      const fetching = fetchToken().then((token) => {
        // A failed fetch is not kept: the next call asks again.
        if (!token && kept === fetching) kept = undefined
        return token
      })
      kept = fetching
    }
    return kept
  }
  return {
    current,
    async renew(refused) {
      const pending = kept
      const token = pending ? await pending : undefined
      // Another call, refused too, has already fetched the new one.
      if (token && token !== refused) return token
      if (kept === pending) kept = undefined
      return current()
    },
    forget() {
      kept = undefined
    },
  }
}
