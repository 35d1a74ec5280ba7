import { useTranslation } from '@/i18n/translation'
import { useToast } from '@/app/toast'
import { useJapanTime } from '@/components/JapanTime'
import { useCancelEmailChange, useEmailChange } from '../api'

/** The e-mail change waiting for its confirmation link, with a way to cancel it. */
export function PendingEmailChange() {
  const { t } = useTranslation('account')
  const japanTime = useJapanTime()
  const toast = useToast()
  const pending = useEmailChange()
  const cancel = useCancelEmailChange()
  if (!pending.data) return null
  // Japan time, 24-hour, the language's date: the same as the mail that carries the link.
  const until = japanTime(pending.data.expiresAt)
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
