import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { platformKeys } from '@/api/queryKeys'
import { sessionInfoQuery } from '@/api/platform'
import { useSession } from '@/app/session/SessionProvider'
import { keepsTrips } from '@/app/pwa/keptFlag'
import { currentMemberId, eraseKept, refreshKept } from './store'

/**
 * Keeps the kept trips true while the device is online (the shell mounts it
 * only then, and only on a device that may hold a copy):
 * - the server says the session was ended on purpose ("sign out
 *   everywhere" or one device from the security centre, a password change
 *   or reset, the account deleted: the session check's sessionEnded
 *   "revoked"): the copy is erased. A session that only ran out keeps it,
 *   so the trips are still there at the gate and the choice stays on after
 *   the next login;
 * - a member is logged in: another member's copy is erased, the member's own
 *   brought up to date (at start, and each time the network comes back).
 */
export default function KeptTripsSync() {
  const { status } = useSession()
  const qc = useQueryClient()
  useEffect(() => {
    // An erasure a closed page left unfinished ends first.
    if (!keepsTrips()) {
      void eraseKept()
      return
    }
    // An answer, not a failure to ask: only the server's "ended on purpose"
    // erases. Asked afresh: a page's 403 leaves an older session info behind.
    if (status === 'loggedOut' && qc.getQueryData(platformKeys.session) === false) {
      void qc
        .fetchQuery({ ...sessionInfoQuery, staleTime: 0 })
        .then((info) => (info.sessionEnded === 'revoked' ? eraseKept() : undefined))
        .catch(() => {
          // no answer: kept, the next connection asks again
        })
    }
    if (status !== 'loggedIn') return
    void currentMemberId()
      .then((id) => refreshKept(id))
      .catch(() => {
        // kept as it was; the next connection tries again
      })
  }, [status, qc])
  return null
}
