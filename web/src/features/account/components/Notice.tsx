import { useTranslation } from '@/i18n/translation'

/** After a save: "saved", or "saved but the notification e-mail may not have been sent" (spec §8). */
export function SavedNotice({ mailSent }: { mailSent: boolean | null }) {
  const { t } = useTranslation('account')
  if (mailSent === null) return null
  return (
    <p role="status" className={mailSent ? 'notice notice--ok' : 'notice notice--warn'}>
      {mailSent ? t('notice.saved') : t('notice.savedNoMail')}
    </p>
  )
}
