import { useTranslation } from '@/i18n/translation'

/** After a save: "saved", or "saved but the notification e-mail may not have been sent". */
/** After a change: "Saved." or, for a removal, "Deleted.", and whether the confirmation mail went. */
export function SavedNotice({ mailSent, deleted = false }: { mailSent: boolean | null; deleted?: boolean }) {
  const { t } = useTranslation('account')
  if (mailSent === null) return null
  const text = deleted ? (mailSent ? t('notice.deleted') : t('notice.deletedNoMail')) : mailSent ? t('notice.saved') : t('notice.savedNoMail')
  return (
    <p role="status" className={mailSent ? 'notice notice--ok' : 'notice notice--warn'}>
      {text}
    </p>
  )
}
