import { useEffect, useId, useState } from 'react'
import { useTranslation } from '@/i18n/translation'
import { currentMember, pushIsOn, pushSupport, PushRefused, switchPushOff, switchPushOn, type PushSupport } from './push'
import './push.css'

type State =
  | { kind: 'checking' }
  | { kind: 'off' }
  | { kind: 'switching' }
  | { kind: 'on' }
  | { kind: 'refused'; reason: PushRefused['reason'] | 'offFailed' }

/**
 * "Notify me on this device about changes to my flights": on the
 * notification settings and beside "Keep my trips on this device". Off by
 * default; on only by the member's press, which the browser's permission
 * prompt follows. A device that cannot receive notifications says so (on
 * an iPhone or iPad outside the home screen: install the app first).
 * compact leaves out what it does and its card (the bookings page, inside
 * "Keep my trips on this device", where the label says enough; the
 * notification settings explain it).
 */
export function PushToggle({ compact = false }: { compact?: boolean }) {
  // its texts: the push namespace (src/features/push/locales), loaded with the pages that show it (app/routes.tsx)
  const { t } = useTranslation('push')
  const id = useId()
  const [support, setSupport] = useState<PushSupport>(() => pushSupport())
  const [member, setMember] = useState<string | null>(null)
  const [state, setState] = useState<State>({ kind: 'checking' })

  useEffect(() => {
    if (support !== 'ready') return
    let live = true
    void currentMember()
      .then(async (m) => {
        const on = await pushIsOn(m)
        if (live) {
          setMember(m)
          setState({ kind: on ? 'on' : 'off' })
        }
      })
      .catch(() => live && setState({ kind: 'off' }))
    return () => {
      live = false
    }
  }, [support])

  const change = async (on: boolean) => {
    if (!on) {
      setState({ kind: 'off' })
      try {
        await switchPushOff()
      } catch {
        setState({ kind: 'refused', reason: 'offFailed' })
      }
      return
    }
    setState({ kind: 'switching' })
    try {
      await switchPushOn(member ?? (await currentMember()))
      setState({ kind: 'on' })
    } catch (e) {
      const reason = e instanceof PushRefused ? e.reason : 'failed'
      if (reason === 'blocked') setSupport(pushSupport())
      setState({ kind: 'refused', reason })
    }
  }

  const usable = support === 'ready'
  const on = usable && (state.kind === 'on' || state.kind === 'switching')
  const message =
    support === 'unsupported' ? t('unsupported')
      : support === 'installFirst' ? t('installFirst')
        : support === 'blocked' ? t('blocked')
          : state.kind === 'switching' ? t('switching')
            : state.kind === 'on' ? t('on')
              : state.kind === 'refused' && state.reason !== 'blocked' ? t(state.reason)
                : ''
  return (
    <section className={`push-choice${compact ? ' push-choice--compact' : ''}`} aria-labelledby={`${id}-label`}>
      <div className="push-choice__row">
        <input
          id={id}
          type="checkbox"
          className="push-choice__box"
          checked={on}
          disabled={!usable || state.kind === 'checking' || state.kind === 'switching'}
          aria-describedby={compact ? `${id}-state` : `${id}-hint ${id}-state`}
          onChange={(e) => void change(e.target.checked)}
        />
        <label id={`${id}-label`} htmlFor={id} className="push-choice__label">
          {t('label')}
        </label>
      </div>
      {!compact && (
        <p id={`${id}-hint`} className="push-choice__hint">
          {t('hint')}
        </p>
      )}
      <p id={`${id}-state`} className={`push-choice__state${usable ? '' : ' push-choice__state--cannot'}`} role="status">
        {message}
      </p>
    </section>
  )
}
