import '../passes.css'
import { useTranslation } from '@/i18n/translation'
import { MaintenanceNotice } from '../components/common'
import { PageHeader } from '@/components/PageHeader'

/** The pass maintenance page (gogopass_maintenance_error). */
export default function MaintenancePage() {
  const { t } = useTranslation('passes')
  return (
    <div className="page page--narrow passes">
      <PageHeader title={t('gogo.title')} />
      <MaintenanceNotice />
    </div>
  )
}
