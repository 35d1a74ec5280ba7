import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { featureKeys, platformKeys } from '@/api/queryKeys'
import { sessionInfoQuery } from '@/api/platform'
import { forgetPushIfAny } from './pushChoice'

/**
 * On a device whose flight change alerts are on (pwa/push.ts), while online:
 * after a login the subscription is renewed under the new session (so its
 * logout switches the device off) or, for another member, ended; a session
 * the server ended on purpose ends it too.
 */
export default function PushSync({ status }: { status: string }) {
  const qc = useQueryClient()
  useEffect(() => {
    if (status === 'loggedIn') {
      void import('./push')
        .then(async (m) => m.renewPush(await m.currentMember()))
        .catch(() => undefined)
    } else if (status === 'loggedOut' && qc.getQueryData(platformKeys.session) === false) {
      void qc
        .fetchQuery({ ...sessionInfoQuery, staleTime: 0 })
        .then((info) => (info.sessionEnded === 'revoked' ? forgetPushIfAny() : undefined))
        .catch(() => undefined)
    }
  }, [status, qc])
  // The service worker took a flight change: the bookings shown are refreshed.
  useEffect(() => {
    const sw = navigator.serviceWorker
    if (!sw) return
    const changed = (e: MessageEvent) => {
      if ((e.data as { type?: string } | null)?.type === 'members-flight-change') void qc.invalidateQueries({ queryKey: featureKeys('bookings').all })
    }
    sw.addEventListener('message', changed)
    return () => sw.removeEventListener('message', changed)
  }, [qc])
  return null
}
