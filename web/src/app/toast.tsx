import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { apiEvents } from '@/api/client'
import { useTranslation } from '@/i18n/translation'

export const TOAST_MS = 5000

export interface Toasts {
  /** Shows an error toast at the top for 5 s; default text "Processing was interrupted because an error occurred." */
  showError(message?: string): void
  /**
   * While the session-timeout modal is up no toast shows (the modal says what
   * happened; a red toast over it only alarms). The shell lifts it when the modal closes.
   */
  setSuppressed(suppressed: boolean): void
}

const ToastContext = createContext<Toasts | null>(null)

/** Error toasts: useToast().showError(). */
export function useToast(): Toasts {
  const ctx = useContext(ToastContext)
  if (!ctx) throw new Error('useToast outside ToastProvider')
  return ctx
}

interface Toast {
  id: number
  message?: string
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  const [toasts, setToasts] = useState<Toast[]>([])
  const seq = useRef(0)

  const dismiss = useCallback((id: number) => setToasts((ts) => ts.filter((x) => x.id !== id)), [])

  const suppressed = useRef(false)
  const setSuppressed = useCallback((on: boolean) => {
    suppressed.current = on
    if (on) setToasts((ts) => (ts.length ? [] : ts))
  }, [])
  // Set at once on the 403, before the modal renders: the failing call's own toast comes next.
  useEffect(
    () =>
      apiEvents.subscribe((e) => {
        if (e.type === 'sessionTimedOut') setSuppressed(true)
      }),
    [setSuppressed],
  )

  // The toasts' timers, cleared when the provider unmounts: none fires
  // into a page (or a test's document) that is gone.
  const timers = useRef(new Set<number>())
  useEffect(() => {
    const pending = timers.current
    return () => {
      pending.forEach((timer) => window.clearTimeout(timer))
      pending.clear()
    }
  }, [])

  const showError = useCallback(
    (message?: string) => {
      if (suppressed.current) return
      const id = ++seq.current
      setToasts((ts) => [...ts.filter((x) => x.message !== message), { id, message }])
      const timer = window.setTimeout(() => {
        timers.current.delete(timer)
        dismiss(id)
      }, TOAST_MS)
      timers.current.add(timer)
    },
    [dismiss],
  )

  const value = useMemo(() => ({ showError, setSuppressed }), [showError, setSuppressed])

  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" aria-live="assertive" role="region" aria-label={t('toast.region')}>
        {toasts.map((toast) => (
          <div key={toast.id} className="toast toast--error" role="alert">
            <span>{toast.message ?? t('error.api')}</span>
            <button type="button" className="toast__close" onClick={() => dismiss(toast.id)} aria-label={t('modal.close')}>
              <span aria-hidden="true">×</span>
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  )
}
