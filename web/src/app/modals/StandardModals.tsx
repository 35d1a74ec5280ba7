import { useTranslation } from '@/i18n/translation'
import { Dialog } from '@/components/Dialog'
import { isSystemFailure, isTryAgainShortly, ApiError, type ValidationErrors } from '@/api/errors'

interface Base {
  close: () => void
  active: boolean
}

/** The error-message modal: its default heading and text follow the failure (modalContext's ErrorModalOptions). */
export function ErrorModal({ close, active, title, message, error }: Base & { title?: string; message?: string; error?: unknown }) {
  const { t } = useTranslation()
  const answered = error !== undefined && !isSystemFailure(error)
  // a 503 (the database restarting, a gateway out of reach): nothing broke, the same step works in a moment
  const shortly = isTryAgainShortly(error)
  // the server's text of a 4xx, or of a catalogued 5xx (errorKey: the maintenance hours, "contact the contact center")
  const text =
    message ??
    (shortly ? t('error.tryAgainShortly') : error instanceof ApiError && (answered || error.errorKey) ? error.serverMessage : undefined)
  return (
    <Dialog
      role="alertdialog"
      active={active}
      title={title ?? (answered || shortly ? t('error.notDoneTitle') : t('error.systemTitle'))}
      onDismiss={close}
      actions={
        <button type="button" className="button button--primary" onClick={close} data-autofocus>
          {t('modal.ok')}
        </button>
      }
    >
      <p>{text ?? t('error.api')}</p>
    </Dialog>
  )
}

export function ValidationErrorModal({ close, active, errors, labels }: Base & { errors: ValidationErrors; labels?: Record<string, string> }) {
  const { t } = useTranslation()
  const something = 'something' in errors
  const fields = Object.entries(errors).filter(([k]) => k !== 'something')
  return (
    <Dialog
      role="alertdialog"
      active={active}
      title={t('validation.title')}
      onDismiss={close}
      actions={
        <button type="button" className="button button--primary" onClick={close} data-autofocus>
          {t('modal.ok')}
        </button>
      }
    >
      {something ? (
        <p>{t('validation.something')}</p>
      ) : (
        <dl className="validation-list">
          {fields.map(([field, msgs]) => (
            <div key={field}>
              <dt>{labels?.[field] ?? field}</dt>
              {msgs.map((m, i) => (
                <dd key={i}>{m}</dd>
              ))}
            </div>
          ))}
        </dl>
      )}
    </Dialog>
  )
}

export function LoadingModal({ active }: Base) {
  const { t } = useTranslation()
  return (
    <Dialog active={active} title={t('loading.title')} className="modal--loading">
      <div className="spinner" aria-hidden="true" />
    </Dialog>
  )
}

export function RevisionErrorModal({ close, active, reload }: Base & { reload: () => void }) {
  const { t } = useTranslation()
  return (
    <Dialog
      role="alertdialog"
      active={active}
      title={t('revision.title')}
      actions={
        <>
          <button type="button" className="button" onClick={close}>
            {t('modal.close')}
          </button>
          <button type="button" className="button button--primary" onClick={reload} data-autofocus>
            {t('revision.refresh')}
          </button>
        </>
      }
    >
      <p>{t('revision.text')}</p>
    </Dialog>
  )
}

/** Cannot be dismissed (no X, no Escape, no backdrop); its only button leads to the login. */
export function SessionTimedOutModal({ active, onConfirm, endedElsewhere = false }: Base & { onConfirm: () => void; endedElsewhere?: boolean }) {
  const { t } = useTranslation()
  // signed out from another device: said as such, not "due to inactivity"
  const words = endedElsewhere ? 'sessionEndedElsewhere' : 'sessionTimedOut'
  return (
    <Dialog
      role="alertdialog"
      active={active}
      title={t(`${words}.title`)}
      actions={
        <button type="button" className="button button--primary" onClick={onConfirm} data-autofocus>
          {t('sessionTimedOut.button')}
        </button>
      }
    >
      <p>{t(`${words}.text`)}</p>
    </Dialog>
  )
}
