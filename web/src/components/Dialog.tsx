import { useEffect, useId, useRef, type ReactNode, type KeyboardEvent, type MouseEvent } from 'react'
import { useTranslation } from '@/i18n/translation'

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

export interface DialogProps {
  /** The heading; it labels the dialog (aria-labelledby). */
  title: ReactNode
  children?: ReactNode
  /** Buttons at the bottom. */
  actions?: ReactNode
  /**
   * Called by the close (X) button, Escape and a click on the backdrop.
   * Leave it out for a dialog the user cannot dismiss (session timed out, loading).
   */
  onDismiss?: () => void
  /** Only the top dialog of the stack takes focus and keys; the others are inert. */
  active?: boolean
  /** alertdialog for errors that need an answer. */
  role?: 'dialog' | 'alertdialog'
  className?: string
}

/**
 * An accessible modal dialog: role=dialog, aria-modal, labelled by its title,
 * focus moved in on open (to the element with data-autofocus, else the first
 * focusable one), Tab kept inside, focus given back on close.
 * Open it through useModals().open(close => <Dialog …/>).
 */
export function Dialog({ title, children, actions, onDismiss, active = true, role = 'dialog', className }: DialogProps) {
  const { t } = useTranslation()
  const titleId = useId()
  const bodyId = useId()
  const ref = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!active) return
    const previous = document.activeElement as HTMLElement | null
    const el = ref.current
    if (el) {
      const target = el.querySelector<HTMLElement>('[data-autofocus]') ?? el.querySelector<HTMLElement>(FOCUSABLE) ?? el
      target.focus()
    }
    return () => {
      if (previous && previous.isConnected && typeof previous.focus === 'function') previous.focus()
    }
  }, [active])

  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    if (!active) return
    if (e.key === 'Escape') {
      e.stopPropagation()
      if (onDismiss) onDismiss()
      return
    }
    if (e.key !== 'Tab' || !ref.current) return
    const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)]
    if (items.length === 0) {
      e.preventDefault()
      return
    }
    const first = items[0]
    const last = items[items.length - 1]
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault()
      last.focus()
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault()
      first.focus()
    }
  }

  function onBackdrop(e: MouseEvent<HTMLDivElement>) {
    if (e.target === e.currentTarget && onDismiss) onDismiss()
  }

  return (
    <div className="modal-backdrop" onMouseDown={onBackdrop} inert={!active}>
      <div
        ref={ref}
        className={`modal ${className ?? ''}`}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={children ? bodyId : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <div className="modal__head">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          {onDismiss && (
            <button type="button" className="modal__close" onClick={onDismiss} aria-label={t('modal.close')}>
              <span aria-hidden="true">×</span>
            </button>
          )}
        </div>
        {children && (
          <div id={bodyId} className="modal__body">
            {children}
          </div>
        )}
        {actions && <div className="modal__actions">{actions}</div>}
      </div>
    </div>
  )
}

export interface ConfirmDialogProps {
  title: ReactNode
  children?: ReactNode
  /** The modal stack's close (what useModals().open hands the render function). */
  close: () => void
  active?: boolean
  cancelLabel: ReactNode
  confirmLabel: ReactNode
  /** Runs after the dialog has closed. */
  onConfirm: () => void
  /** The confirm button takes the focus (for actions that are easy to undo). */
  autoFocusConfirm?: boolean
}

/**
 * "Are you sure?": the question, a secondary Cancel and the primary action
 * side by side. Escape, the backdrop and Cancel close it; the action closes
 * it, then runs.
 */
export function ConfirmDialog({ title, children, close, active, cancelLabel, confirmLabel, onConfirm, autoFocusConfirm }: ConfirmDialogProps) {
  return (
    <Dialog
      title={title}
      active={active}
      onDismiss={close}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={close}>
            {cancelLabel}
          </button>
          <button
            type="button"
            className="button button--primary"
            data-autofocus={autoFocusConfirm || undefined}
            onClick={() => {
              close()
              onConfirm()
            }}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Dialog>
  )
}
