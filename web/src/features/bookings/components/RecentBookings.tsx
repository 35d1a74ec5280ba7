import { useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { useChangedReservations, useRecentReservations } from '../api'
import { todayJST } from '../searchForm'
import { ReservationCard } from './ReservationCard'

/**
 * The home page's bookings: first every booking with a flight the airline
 * changed that has not left (delay, cancellation, time change, diversion,
 * gate), whatever its date; then the nearest ones (today onwards, ACTIVE, 5,
 * ascending, with flight status), those already shown left out.
 */
export function RecentBookings() {
  const { t } = useTranslation('bookings')
  const q = useRecentReservations(todayJST())
  const changed = useChangedReservations()
  const first = changed.data?.reservations ?? []
  const shown = new Set(first.map((r) => r.pnr))
  const list = [...first, ...(q.data?.reservations ?? []).filter((r) => !shown.has(r.pnr))]
  return (
    <section className="recent-bookings" aria-labelledby="recent-bookings-title">
      <h2 id="recent-bookings-title">{t('recent.heading')}</h2>
      {q.isSuccess && list.length === 0 && <p>{t('recent.none')}</p>}
      {list.map((r) => (
        <ReservationCard key={r.pnr} reservation={r} compact />
      ))}
      <p>
        <AppLink to="/bookings">{t('recent.all')}</AppLink>
      </p>
    </section>
  )
}
