import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { ModalContext, type ModalRender, type Modals } from './modalContext'
import { ErrorModal, LoadingModal, ValidationErrorModal } from './StandardModals'

interface Entry {
  id: string
  render: ModalRender
  /**
   * The control that opened the modal, taken when open() is called: by the
   * time the dialog mounts the page behind is inert and the browser has
   * already moved focus off it, so the dialog itself cannot know it.
   */
  opener: HTMLElement | null
}

/** The element that has focus now, unless that is nothing or the page body. */
function focusedControl(): HTMLElement | null {
  const el = document.activeElement
  return el instanceof HTMLElement && el !== document.body ? el : null
}

/** Holds the single modal stack of the app and renders it above everything. */
export function ModalProvider({ children }: { children: ReactNode }) {
  const [stack, setStack] = useState<Entry[]>([])
  const seq = useRef(0)
  // A ref mirror lets open() dedupe by id synchronously (two 403s in one tick open one modal).
  const idsRef = useRef<string[]>([])
  const stackRef = useRef<Entry[]>([])
  const shown = useRef<Entry[]>([])

  const close = useCallback((id: string) => {
    idsRef.current = idsRef.current.filter((x) => x !== id)
    setStack((s) => s.filter((e) => e.id !== id))
  }, [])

  const closeAll = useCallback(() => {
    idsRef.current = []
    setStack([])
  }, [])

  const open = useCallback((render: ModalRender, options?: { id?: string }) => {
    const id = options?.id ?? `modal-${++seq.current}`
    if (idsRef.current.includes(id)) return id
    idsRef.current = [...idsRef.current, id]
    // opened from inside another modal (a chooser that opens a dialog): focus goes back to what opened that one
    let opener = focusedControl()
    if (opener?.closest('.modal-layer')) opener = stackRef.current[stackRef.current.length - 1]?.opener ?? null
    setStack((s) => [...s, { id, render, opener }])
    return id
  }, [])

  // When modals close and focus is left on nothing (the dialog that had it is
  // gone), give it back to the control that opened the last one closed.
  useEffect(() => {
    stackRef.current = stack
    const removed = shown.current.filter((e) => !stack.includes(e))
    shown.current = stack
    if (removed.length === 0 || focusedControl()?.isConnected) return
    const back = [...removed].reverse().find((e) => e.opener?.isConnected)
    back?.opener?.focus()
  }, [stack])

  const modals = useMemo<Modals>(
    () => ({
      open,
      close,
      closeAll,
      ids: stack.map((e) => e.id),
      openError: (o) => open((c, active) => <ErrorModal close={c} active={active} title={o?.title} message={o?.message} error={o?.error} />),
      openValidationErrors: (errors, labels) =>
        open((c, active) => <ValidationErrorModal close={c} active={active} errors={errors} labels={labels} />),
      openLoading: () => open((c, active) => <LoadingModal close={c} active={active} />),
    }),
    [open, close, closeAll, stack],
  )

  return (
    <ModalContext.Provider value={modals}>
      <div className="app-root" inert={stack.length > 0}>
        {children}
      </div>
      {stack.length > 0 &&
        createPortal(
          <div className="modal-layer">
            {stack.map((e, i) => (
              <ModalSlot key={e.id} entry={e} active={i === stack.length - 1} close={close} />
            ))}
          </div>,
          document.body,
        )}
    </ModalContext.Provider>
  )
}

function ModalSlot({ entry, active, close }: { entry: Entry; active: boolean; close: (id: string) => void }) {
  return <>{entry.render(() => close(entry.id), active)}</>
}
