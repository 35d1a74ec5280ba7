import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { ModalContext, type ModalRender, type Modals } from './modalContext'
import { ErrorModal, LoadingModal, ValidationErrorModal } from './StandardModals'

interface Entry {
  id: string
  render: ModalRender
}

/** Holds the single modal stack of the app and renders it above everything. */
export function ModalProvider({ children }: { children: ReactNode }) {
  const [stack, setStack] = useState<Entry[]>([])
  const seq = useRef(0)
  // A ref mirror lets open() dedupe by id synchronously (two 403s in one tick open one modal).
  const idsRef = useRef<string[]>([])

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
    setStack((s) => [...s, { id, render }])
    return id
  }, [])

  const modals = useMemo<Modals>(
    () => ({
      open,
      close,
      closeAll,
      ids: stack.map((e) => e.id),
      openError: (o) => open((c, active) => <ErrorModal close={c} active={active} title={o?.title} message={o?.message} />),
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
