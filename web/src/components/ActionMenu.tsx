import { useEffect, useId, useRef, useState, type ReactNode } from 'react'

/**
 * A "more actions" button with a popup list: keeps a row of actions short.
 * Children are the items (buttons or links with role="menuitem" and the
 * class menu__item). Escape, a click outside or choosing an item closes it.
 */
export function ActionMenu({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false)
  const id = useId()
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
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
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus()
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
      >
        {label}
        <span className="menu__caret" aria-hidden="true" />
      </button>
      <div
        id={id}
        role="menu"
        className="menu__popup"
        hidden={!open}
        onClick={(e) => {
          if ((e.target as HTMLElement).closest('[role="menuitem"]')) setOpen(false)
        }}
      >
        {children}
      </div>
    </div>
  )
}
