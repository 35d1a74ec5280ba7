import { useTranslation } from '@/i18n/translation'

/** Full-screen loading overlay (navigation to another path, session check, lazy pages). */
export function LoadingOverlay() {
  const { t } = useTranslation()
  return (
    <div className="loading-overlay" role="status" aria-live="polite">
      <div className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{t('loading.title')}</span>
    </div>
  )
}
