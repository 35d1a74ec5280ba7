import { useTranslation } from '@/i18n/translation'
import { useToast } from '@/app/toast'
import { useCancelEmailChange, useEmailChange } from '../api'

/** The e-mail change waiting for its confirmation link, with a way to cancel it. */
export function PendingEmailChange() {
  const { t, i18n } = useTranslation('account')
  const toast = useToast()
  const pending = useEmailChange()
  const cancel = useCancelEmailChange()
  if (!pending.data) return null
  const until = new Date(pending.data.expiresAt).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })
  return (
    <div role="status" className="notice notice--warn pending-email">
      <p>{t('emailChange.pending', { email: pending.data.email, until })}</p>
      <button type="button" className="button button--secondary" disabled={cancel.isPending}
        onClick={() => cancel.mutate(undefined, { onError: () => toast.showError() })}>
        {t('emailChange.cancel')}
      </button>
    </div>
  )
}
