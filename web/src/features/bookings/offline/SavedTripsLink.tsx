import { useEffect, useState } from 'react'
import { useLang, useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { keepsTrips } from '@/app/pwa/keptFlag'
import { savedAtLabel } from './savedAt'
import { readKept } from './store'

/**
 * "Your saved trips (last updated …)" while this device keeps a copy: a
 * session that ran out leaves it (docs/offline.md). The login page loads this
 * code only on a device that keeps trips.
 */
export default function SavedTripsLink() {
  const { t } = useTranslation()
  const lang = useLang()
  const [savedAt, setSavedAt] = useState<number | null>(null)
  useEffect(() => {
    if (!keepsTrips()) return
    let live = true
    void readKept()
      .then((r) => {
        if (live && r) setSavedAt(r.savedAt)
      })
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [])
  if (savedAt === null) return null
  return (
    <p className="card login__saved-trips" data-testid="login-saved-trips">
      <AppLink to="/saved-trips">{t('login.savedTrips', { time: savedAtLabel(savedAt, lang) })}</AppLink>
    </p>
  )
}
