import { useTranslation } from '@/i18n/translation'
import { Dialog } from '@/components/Dialog'
import { useModals } from '@/app/modals/modalContext'
import { SessionTimedOutError } from '@/api/errors'
import { useDeleteCard, type SavedCard } from '../api'
import { CardSummary } from './CardSummary'

/**
 * The delete-card flow: confirm → loading → done (with the
 * mail-failure flag). 200 means mail sent, 204 not sent; both reload the
 * list. 403 is the session timeout (the shell shows it); anything else is
 * the generic API error.
 */
export function useDeleteCardFlow() {
  const { t } = useTranslation('payment')
  const modals = useModals()
  const del = useDeleteCard()

  function run(card: SavedCard, onDone?: () => void) {
    const loading = modals.openLoading()
    del.mutate(card, {
      onSuccess: (mailSent) => {
        modals.close(loading)
        modals.open((close) => (
          <Dialog title={t('delete.doneTitle')} onDismiss={close} actions={<>
              <button type="button" className="button button--primary" data-autofocus onClick={() => { close(); onDone?.() }}>{t('close')}</button>
            </>}>
            <p role="status">{mailSent ? t('delete.done') : t('delete.doneNoMail')}</p>
          </Dialog>
        ))
      },
      onError: (e) => {
        modals.close(loading)
        if (!(e instanceof SessionTimedOutError)) modals.openError({ error: e })
      },
    })
  }

  function confirm(card: SavedCard, onDone?: () => void) {
    modals.open((close) => (
      <Dialog title={t('delete.title')} onDismiss={close} actions={<>
          <button type="button" className="button button--primary" onClick={() => { close(); run(card, onDone) }}>{t('delete.button')}</button>
          <button type="button" className="button button--secondary" data-autofocus onClick={close}>{t('cancel')}</button>
        </>}>
        <p>{t('delete.confirm')}</p>
        <p><CardSummary card={card} /></p>
      </Dialog>
    ))
  }

  /** The expired-card dialog: "Credit card has expired" with Delete and Cancel. */
  function expired(card: SavedCard, onDone?: () => void) {
    modals.open((close) => (
      <Dialog title={t('expired.title')} onDismiss={close} role="alertdialog" actions={<>
          <button type="button" className="button button--primary" onClick={() => { close(); run(card, onDone) }}>{t('delete.button')}</button>
          <button type="button" className="button button--secondary" data-autofocus onClick={close}>{t('cancel')}</button>
        </>}>
        <p>{t('expired.text')}</p>
        <p><CardSummary card={card} /></p>
      </Dialog>
    ))
  }

  return { confirm, expired, pending: del.isPending }
}
