import { useTranslation } from '@/i18n/translation'
import { Dialog } from '@/components/Dialog'
import { AppLink } from '../routing/AppLink'

/** Tells the member that the registered e-mail address has invalid characters and links to the account page. */
export function InvalidEmailModal({ close, active }: { close: () => void; active: boolean }) {
  const { t } = useTranslation()
  return (
    <Dialog
      active={active}
      title={t('invalidEmail.title')}
      onDismiss={close}
      actions={
        <>
          <button type="button" className="button" onClick={close}>
            {t('modal.close')}
          </button>
          <AppLink to="/account" className="button button--primary" onClick={close} data-autofocus>
            {t('invalidEmail.link')}
          </AppLink>
        </>
      }
    >
      <p>{t('invalidEmail.text')}</p>
    </Dialog>
  )
}
