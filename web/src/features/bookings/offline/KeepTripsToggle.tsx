import { useEffect, useId, useState, type ReactNode } from 'react'
import { useLang, useTranslation } from '@/i18n/translation'
import { keepsTrips } from '@/app/pwa/keptFlag'
import { currentMemberId, eraseKept, keepTrips, readKept } from './store'
import { savedAtLabel } from './savedAt'
import './offline.css'

type State = { kind: 'off' } | { kind: 'saving' } | { kind: 'saved'; savedAt: number } | { kind: 'failed' }

/**
 * "Keep my trips on this device", on the bookings page: off by default (a
 * shared computer must not keep them). On, the next 30 days' bookings are
 * kept in this browser for the offline view; off, they are erased at once.
 * children are the other choices of this device shown with it (the flight
 * change alerts: app/pwa/PushToggle.tsx).
 */
export function KeepTripsToggle({ children }: { children?: ReactNode }) {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  const id = useId()
  const [state, setState] = useState<State>(() => (keepsTrips() ? { kind: 'saving' } : { kind: 'off' }))

  useEffect(() => {
    if (!keepsTrips()) return
    let live = true
    // A copy is shown as on only for its own member: another member's is erased.
    void Promise.all([readKept(), currentMemberId()])
      .then(async ([r, memberId]) => {
        const own = r?.memberId === memberId
        if (r && !own) await eraseKept()
        if (live) setState(r && own ? { kind: 'saved', savedAt: r.savedAt } : { kind: 'off' })
      })
      .catch(async () => {
        // Whose copy it is could not be asked: the state shown is the device's.
        const r = await readKept().catch(() => undefined)
        if (live) setState(r ? { kind: 'saved', savedAt: r.savedAt } : { kind: 'off' })
      })
    return () => {
      live = false
    }
  }, [])

  const change = async (on: boolean) => {
    if (!on) {
      setState({ kind: 'off' })
      await eraseKept()
      return
    }
    setState({ kind: 'saving' })
    try {
      const r = await keepTrips(await currentMemberId())
      setState(r ? { kind: 'saved', savedAt: r.savedAt } : { kind: 'off' })
    } catch {
      await eraseKept().catch(() => undefined)
      setState({ kind: 'failed' })
    }
  }

  const on = state.kind === 'saving' || state.kind === 'saved'
  return (
    <section className="keep-trips" aria-labelledby={`${id}-label`}>
      <div className="keep-trips__row">
        <input id={id} type="checkbox" className="keep-trips__box" checked={on} disabled={state.kind === 'saving'} aria-describedby={`${id}-hint ${id}-state`} onChange={(e) => void change(e.target.checked)} />
        <label id={`${id}-label`} htmlFor={id} className="keep-trips__label">
          {t('offline.keep')}
        </label>
      </div>
      <p id={`${id}-hint`} className="keep-trips__hint">
        {t('offline.keepHint')}
      </p>
      <p id={`${id}-state`} className="keep-trips__state" role="status">
        {state.kind === 'saving' && t('offline.saving')}
        {state.kind === 'saved' && t('offline.saved', { time: savedAtLabel(state.savedAt, lang) })}
        {state.kind === 'failed' && t('offline.saveFailed')}
      </p>
      {children}
    </section>
  )
}
