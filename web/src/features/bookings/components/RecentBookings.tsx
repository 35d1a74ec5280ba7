import { useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { useRecentReservations } from '../api'
import { todayJST } from '../searchForm'
import { ReservationCard } from './ReservationCard'

/** The home page's recent bookings: today onwards, ACTIVE, 5, ascending, with flight status. */
export function RecentBookings() {
  const { t } = useTranslation('bookings')
  const q = useRecentReservations(todayJST())
  const list = q.data?.reservations ?? []
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
