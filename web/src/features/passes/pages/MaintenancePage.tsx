import '../passes.css'
import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from '@/i18n/translation'
import { gogoPassStatusQuery } from '@/api/platform'
import { MaintenanceNotice } from '../components/common'
import { PageHeader } from '@/components/PageHeader'

/**
 * The pass maintenance page (gogopass_maintenance_error). A member sent
 * here by a refused payment holds the pass status read before the window
 * opened (kept for the visit), which names no window: it is read again, so
 * the notice gives the hours (03:00 to 05:00 Japan time) as the plans page
 * does.
 */
export default function MaintenancePage() {
  const { t } = useTranslation('passes')
  const qc = useQueryClient()
  useEffect(() => {
    void qc.invalidateQueries({ queryKey: gogoPassStatusQuery(true).queryKey })
  }, [qc])
  return (
    <div className="page page--narrow passes">
      <PageHeader title={t('gogo.title')} />
      <MaintenanceNotice />
    </div>
  )
}
