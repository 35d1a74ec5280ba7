import { Component, type ErrorInfo, type ReactNode } from 'react'
import { useTranslation } from '@/i18n/translation'
import { Dialog } from '@/components/Dialog'
import { RevisionMismatchError } from '@/api/errors'
import { revisionAction } from '@/api/revision'
import { reportException } from './exceptionNotify'
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
