import { Component, useEffect, type ErrorInfo, type ReactNode } from 'react'
import { useTranslation } from '@/i18n/translation'
import { Dialog } from '@/components/Dialog'
import { RevisionMismatchError } from '@/api/errors'
import { revisionAction } from '@/api/revision'
import { isPageBug, reportException } from './exceptionNotify'
import { MODAL_IDS, useModals } from './modals/modalContext'
import { pageNavigation } from './pageNavigation'

/** A lazy chunk that no longer exists: the server was redeployed under us. */
export function isChunkLoadError(error: unknown): boolean {
  const msg = error instanceof Error ? error.message : String(error)
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported|Unable to preload CSS/i.test(msg)
}

interface State {
  error: unknown
}

/**
 * Catches render errors: a revision mismatch (or a vanished lazy chunk) reloads
 * the page once; anything else is reported through the beacon and shown as the
 * internal-error modal.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null }

  static getDerivedStateFromError(error: unknown): State {
    return { error }
  }

  componentDidCatch(error: unknown, _info: ErrorInfo) {
    if (error instanceof RevisionMismatchError) return // the API events bridge reloads or shows the modal
    if (isChunkLoadError(error)) {
      const action = revisionAction(window.location.href, 'reload')
      if (action.kind === 'reload') pageNavigation.replace(action.url)
      return
    }
    reportException(error)
  }

  render() {
    if (this.state.error == null) return this.props.children
    return <InternalErrorModal onReset={() => this.setState({ error: null })} />
  }
}

/**
 * Errors thrown outside rendering (an event handler, a timer) and promises
 * rejected with nobody to catch them: main.tsx reports them through the
 * beacon; this opens the same internal-error modal as the render boundary,
 * over the page, which stays as it was.
 */
export function UncaughtErrors() {
  const { open } = useModals()
  useEffect(() => {
    const show = (reason: unknown) => {
      if (!isPageBug(reason) || isChunkLoadError(reason)) return
      open((close) => <InternalErrorModal onReset={close} />, { id: MODAL_IDS.internalError })
    }
    const onError = (e: ErrorEvent) => show(e.error ?? e.message)
    const onRejection = (e: PromiseRejectionEvent) => show(e.reason)
    window.addEventListener('error', onError)
    window.addEventListener('unhandledrejection', onRejection)
    return () => {
      window.removeEventListener('error', onError)
      window.removeEventListener('unhandledrejection', onRejection)
    }
  }, [open])
  return null
}

function InternalErrorModal({ onReset }: { onReset: () => void }) {
  const { t } = useTranslation()
  return (
    <Dialog
      role="alertdialog"
      title={t('error.systemTitle')}
      actions={
        <>
          <button type="button" className="button" onClick={onReset}>
            {t('modal.close')}
          </button>
          <button type="button" className="button button--primary" onClick={() => pageNavigation.reload()} data-autofocus>
            {t('revision.refresh')}
          </button>
        </>
      }
    >
      <p>{t('error.internal')}</p>
    </Dialog>
  )
}
