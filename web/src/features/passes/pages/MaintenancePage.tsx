import '../passes.css'
import { useTranslation } from 'react-i18next'
import { MaintenanceNotice } from '../components/common'

/** The pass maintenance page (gogopass_maintenance_error). */
export default function MaintenancePage() {
  const { t } = useTranslation('passes')
  return (
    <div className="page page--narrow passes">
      <h1 className="page__title">{t('gogo.title')}</h1>
      <MaintenanceNotice />
    </div>
  )
}
