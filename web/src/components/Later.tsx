import { useEffect, useState, type ReactNode } from 'react'

/**
 * Renders its children in a task of their own, after the page around them
 * has been painted: for what sits below the fold on a phone. Preact renders a
 * whole tree in one task, and on a phone's CPU a long page is a long freeze
 * (total blocking time); split this way, the visible part paints first and
 * the rest follows a moment later, before anyone can scroll to it.
 *
 * Siblings each get a task. Keep a Later below the fold, in space that
 * nothing visible sits under (the page's end: `.main` is a screen tall), so
 * its arrival moves nothing on screen; `minHeight` holds room for it if
 * something does.
 */
export function Later({ children, minHeight }: { children: ReactNode; minHeight?: string }) {
  const [shown, setShown] = useState(false)
  useEffect(() => {
    const id = setTimeout(() => setShown(true))
    return () => clearTimeout(id)
  }, [])
  if (shown) return <>{children}</>
  return minHeight ? <div style={{ minHeight }} aria-hidden="true" /> : null
}
