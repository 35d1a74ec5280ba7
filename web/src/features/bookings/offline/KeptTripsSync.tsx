import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { platformKeys } from '@/api/queryKeys'
import { useSession } from '@/app/session/SessionProvider'
import { keepsTrips } from '@/app/pwa/keptFlag'
import { currentMemberId, eraseKept, refreshKept } from './store'

/**
 * Keeps the kept trips true while the device is online (the shell mounts it
 * only then, and only on a device that may hold a copy):
 * - the server says there is no session (a logout elsewhere, "sign out
 *   everywhere", a password change, the account deleted, or the session's
 *   end): the copy is erased;
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
    // An answer, not a failure to ask: only the server's "no session" erases.
    if (status === 'loggedOut' && qc.getQueryData(platformKeys.session) === false) void eraseKept()
    if (status !== 'loggedIn') return
    void currentMemberId()
      .then((id) => refreshKept(id))
      .catch(() => {
        // kept as it was; the next connection tries again
      })
  }, [status, qc])
  return null
}
