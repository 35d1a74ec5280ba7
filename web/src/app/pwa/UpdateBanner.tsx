import { useTranslation } from '@/i18n/translation'
import { useUpdate } from './update'

/** Shown once a new release's service worker waits: "A new release is ready. Reload to update" (loaded with the worker's registration, App.tsx). */
export default function UpdateBanner() {
  const { t } = useTranslation()
  const reload = useUpdate()
  if (!reload) return null
  return (
    <div className="update-banner" role="status">
      <span>{t('pwa.newRelease')}</span>
      <button type="button" className="button button--small" onClick={reload}>
        {t('pwa.reload')}
      </button>
    </div>
  )
}
