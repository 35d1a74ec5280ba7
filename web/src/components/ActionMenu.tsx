import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react'

/**
 * A "more actions" button with a popup list: keeps a row of actions short.
 * Children are the items (buttons or links with role="menuitem" and the
 * class menu__item). Escape, a click outside or choosing an item closes it.
 * Keys as the ARIA menu button pattern has them: opening moves the focus
 * to the first item (ArrowDown, Enter, Space or a click on the button) or
 * the last (ArrowUp on the button); in the menu ArrowDown and ArrowUp move
 * between the items (wrapping), Home and End go to the first and the last,
 * Tab closes it.
 */
export function ActionMenu({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false)
  // Which item takes the focus when the menu opens.
  const startAt = useRef<'first' | 'last'>('first')
  const id = useId()
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const popup = useRef<HTMLDivElement>(null)
  // The popup opens under the button, moved left as far as it must to end inside the window
  // (a button at the right of a 320 px phone's row).
  useLayoutEffect(() => {
    const el = popup.current
    if (!open || !el) return
    keepInWindow(el)
    const onResize = () => keepInWindow(el)
    window.addEventListener('resize', onResize)
    return () => window.removeEventListener('resize', onResize)
  }, [open])
  useEffect(() => {
    if (!open) return
    const onDown = (e: MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false)
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false)
        button.current?.focus()
      }
    }
    document.addEventListener('mousedown', onDown)
    document.addEventListener('keydown', onKey)
    const items = menuItems(root.current)
    ;(startAt.current === 'last' ? items[items.length - 1] : items[0])?.focus()
    startAt.current = 'first'
    return () => {
      document.removeEventListener('mousedown', onDown)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])
  return (
    <div className="menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="button button--secondary button--small"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((v) => !v)}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return
          e.preventDefault()
          startAt.current = e.key === 'ArrowUp' ? 'last' : 'first'
          if (open) {
            const items = menuItems(root.current)
            ;(e.key === 'ArrowUp' ? items[items.length - 1] : items[0])?.focus()
          } else setOpen(true)
        }}
      >
        {label}
        <span className="menu__caret" aria-hidden="true" />
      </button>
      <div
        ref={popup}
        id={id}
        role="menu"
        className="menu__popup"
        hidden={!open}
        onClick={(e) => {
          if ((e.target as HTMLElement).closest('[role="menuitem"]')) setOpen(false)
        }}
        onKeyDown={(e) => {
          if (e.key === 'Tab') {
            setOpen(false)
            return
          }
          const items = menuItems(root.current)
          const at = items.indexOf(document.activeElement as HTMLElement)
          const next =
            e.key === 'ArrowDown' ? items[(at + 1) % items.length]
            : e.key === 'ArrowUp' ? items[(at - 1 + items.length) % items.length]
            : e.key === 'Home' ? items[0]
            : e.key === 'End' ? items[items.length - 1]
            : undefined
          if (!next) return
          e.preventDefault()
          next.focus()
        }}
      >
        {children}
      </div>
    </div>
  )
}

const WINDOW_MARGIN = 8

/** Shifts an open popup left (its `left`) until its right edge is WINDOW_MARGIN inside the window, never past its left one. */
function keepInWindow(el: HTMLElement) {
  el.style.left = ''
  const r = el.getBoundingClientRect()
  const over = r.right - (document.documentElement.clientWidth - WINDOW_MARGIN)
  if (over <= 0) return
  const shift = Math.min(over, Math.max(0, r.left - WINDOW_MARGIN))
  el.style.left = `${el.offsetLeft - shift}px`
}

/** The menu's items that can be chosen, in order. */
function menuItems(root: HTMLElement | null): HTMLElement[] {
  return [...(root?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])].filter((el) => !el.hasAttribute('disabled'))
}
