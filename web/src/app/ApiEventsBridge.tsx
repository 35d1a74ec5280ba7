import { useEffect, useRef } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { apiEvents } from '@/api/client'
import { revisionAction } from '@/api/revision'
import { markEndedElsewhereTold } from '@/api/sessionHint'
import { useLang } from '@/i18n/translation'
import { useModals, MODAL_IDS } from './modals/modalContext'
import { RevisionErrorModal, SessionTimedOutModal } from './modals/StandardModals'
import { useSession } from './session/SessionProvider'
import { pageNavigation } from './pageNavigation'
import { LOGIN_PATH, SORRY_PATH, loginPathFor, withLang } from './routing/paths'

/** Turns API client events into shell behaviour: timeout modal, revision reload/modal, /sorry. */
export function ApiEventsBridge() {
  const modals = useModals()
  const { markTimedOut } = useSession()
  const navigate = useNavigate()
  const location = useLocation()
  const lang = useLang()
  // The handlers read the latest location and language without resubscribing.
  const latest = useRef({ location, lang })
  useEffect(() => {
    latest.current = { location, lang }
  }, [location, lang])

  const { open, closeAll } = modals

  useEffect(() => {
    return apiEvents.subscribe((event) => {
      switch (event.type) {
        case 'sessionTimedOut':
          markTimedOut()
          if (event.endedElsewhere) markEndedElsewhereTold()
          open(
            (_close, active) => (
              <SessionTimedOutModal
                close={_close}
                active={active}
                endedElsewhere={event.endedElsewhere === true}
                onConfirm={() => {
                  const { location: loc, lang: l } = latest.current
                  closeAll()
                  if (loc.pathname !== LOGIN_PATH) navigate(loginPathFor(loc.pathname + loc.search, l))
                }}
              />
            ),
            { id: MODAL_IDS.sessionTimedOut },
          )
          break
        case 'revisionMismatch': {
          const action = revisionAction(window.location.href, event.theirs)
          if (action.kind === 'reload') pageNavigation.replace(action.url)
          else
            open((close, active) => <RevisionErrorModal close={close} active={active} reload={() => pageNavigation.reload()} />, {
              id: MODAL_IDS.revisionError,
            })
          break
        }
        case 'cdnBlocked':
          pageNavigation.replaceDocument(event.html)
          break
        case 'originAccessDenied':
          if (latest.current.location.pathname !== SORRY_PATH) navigate(withLang(SORRY_PATH, latest.current.lang), { replace: true })
          break
      }
    })
  }, [open, closeAll, markTimedOut, navigate])

  return null
}
