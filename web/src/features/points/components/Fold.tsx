import { useSyncExternalStore, useState, type ReactNode } from 'react'
import { MOBILE_MAX_WIDTH } from '@/app/viewport'

const PHONE = `(max-width: ${MOBILE_MAX_WIDTH}px)`

function subscribe(onChange: () => void) {
  if (typeof window.matchMedia !== 'function') return () => {}
  const mq = window.matchMedia(PHONE)
  mq.addEventListener('change', onChange)
  return () => mq.removeEventListener('change', onChange)
}

/** Whether the window is phone-wide (767 px or less). */
export function useIsPhone(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => typeof window.matchMedia === 'function' && window.matchMedia(PHONE).matches,
    () => false,
  )
}

/**
 * A section whose body a phone folds: its heading is a disclosure button
 * (aria-expanded, aria-controls) that opens the body. On wider screens the
 * heading is plain and the body always shows.
 */
export function Fold({ id, title, className = 'card', children }: { id: string; title: string; className?: string; children: ReactNode }) {
  const phone = useIsPhone()
  const [open, setOpen] = useState(false)
  const shown = !phone || open
  return (
    <section className={`${className} points-fold`} aria-labelledby={`${id}-title`} data-folded={!shown || undefined}>
      <h2 id={`${id}-title`}>
        {phone ? (
          <button type="button" className="points-fold__toggle" aria-expanded={open} aria-controls={`${id}-body`} onClick={() => setOpen((o) => !o)}>
            {title}
          </button>
        ) : (
          title
        )}
      </h2>
      <div id={`${id}-body`} hidden={!shown}>
        {children}
      </div>
    </section>
  )
}
