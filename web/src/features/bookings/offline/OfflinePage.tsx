import { useEffect, useMemo, useState, type MouseEvent } from 'react'
import { useLocation } from 'react-router'
import { useLang, useTranslation } from '@/i18n/translation'
import { formatPersonName } from '@/i18n/format'
import { AppLink } from '@/app/routing/AppLink'
import { SegmentRow } from '../components/SegmentRow'
import { asSegment, keptNames, tripStatus, type KeptRecord, type KeptTrip } from './keptTrips'
import { readKept } from './store'
import { keepsTrips } from '@/app/pwa/keptFlag'
import { savedAtLabel } from './savedAt'
import { useDocumentTitle } from '@/components/useDocumentTitle'
import '../bookings.css'
import './offline.css'

/** The pages that show the kept trips without a connection; every other page says it needs one. */
const TRIP_PAGES = ['/', '/bookings', '/saved-trips']

/**
 * What the app shows while the device has no network (AppRoutes): on "/"
 * and /bookings the kept trips, if the member chose to keep them, else the
 * offline notice; on any other page, that the page needs a connection.
 * Nothing here calls the server, and nothing that would is shown as a control.
 * Online, /saved-trips shows the same kept trips to a visitor (loginLink:
 * with a link back to the login page).
 */
export default function OfflinePage({ notAnswering = false, loginLink = false }: { notAnswering?: boolean; loginLink?: boolean }) {
  const { pathname } = useLocation()
  const { t } = useTranslation('bookings')
  const { t: tc } = useTranslation()
  return (
    <>
      {notAnswering && (
        <p className="offline__not-answering" role="status" data-testid="not-answering">
          {t('offline.notAnswering')}
        </p>
      )}
      {TRIP_PAGES.includes(pathname) ? <KeptTripsView /> : <NeedsConnection />}
      {/* /saved-trips online, reached from the login page: the way back to it (offline, nothing that needs the server is offered) */}
      {loginLink && (
        <p className="offline__login">
          <AppLink to="/login">{tc('login.title')}</AppLink>
        </p>
      )}
    </>
  )
}

function NeedsConnection() {
  const { t } = useTranslation('bookings')
  useDocumentTitle(t('offline.title'))
  return (
    <section className="offline" aria-labelledby="offline-title">
      <h1 id="offline-title">{t('offline.title')}</h1>
      <p className="offline__notice">{t('offline.needsConnection')}</p>
      {keepsTrips() && (
        <p>
          <AppLink to="/">{t('offline.seeKept')}</AppLink>
        </p>
      )}
    </section>
  )
}

function KeptTripsView() {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  const [record, setRecord] = useState<KeptRecord | null | undefined>(undefined)
  useEffect(() => {
    let live = true
    const read = keepsTrips() ? readKept().catch(() => undefined) : Promise.resolve(undefined)
    void read.then((r) => {
      if (live) setRecord(r ?? null)
    })
    return () => {
      live = false
    }
  }, [])
  // the tab names the view from its first render, while the copy is read
  useDocumentTitle(t(record === null ? 'offline.title' : 'offline.tripsTitle'))
  if (record === undefined) return null
  if (record === null) {
    return (
      <section className="offline" aria-labelledby="offline-title">
        <h1 id="offline-title">{t('offline.title')}</h1>
        <p className="offline__notice">{t('offline.notKept')}</p>
      </section>
    )
  }
  const now = new Date()
  return (
    <section className="offline" aria-labelledby="offline-title">
      <h1 id="offline-title">{t('offline.tripsTitle')}</h1>
      <p className="offline__saved" data-testid="kept-saved">
        {t('offline.saved', { time: savedAtLabel(record.savedAt, lang, now) })}
      </p>
      {record.trips.length === 0 ? (
        <p>{t('offline.noTrips')}</p>
      ) : (
        <ul className="offline__trips">
          {record.trips.map((trip) => (
            <KeptTripCard key={trip.pnr} trip={trip} itinerary={record.itineraries[trip.pnr]} now={now} />
          ))}
        </ul>
      )}
    </section>
  )
}

function KeptTripCard({ trip, itinerary, now }: { trip: KeptTrip; itinerary?: Blob; now: Date }) {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  // The statuses and airports in the page's language, whichever language saved the copy.
  const names = useMemo(() => keptNames((key, options) => t(key, options)), [t])
  // The kept PDF, saved from the device (a phone opens it in its viewer): its
  // address is made as the link is followed, and dropped a minute later.
  const save = (e: MouseEvent<HTMLAnchorElement>) => {
    if (!itinerary) return
    const url = URL.createObjectURL(itinerary)
    e.currentTarget.href = url
    setTimeout(() => URL.revokeObjectURL(url), 60_000)
  }
  return (
    <li className="kept-trip" data-pnr={trip.pnr}>
      <article className="card reservation" aria-label={`${t('booking.pnr')} ${trip.pnr}`}>
        <header className="reservation__header">
          <h2 className="reservation__pnr">
            <span className="reservation__pnr-label">{t('booking.pnr')}</span> <span translate="no">{trip.pnr}</span>
          </h2>
          <span className="reservation__meta">
            <span className="chip chip--muted">{tripStatus(trip, names)}</span>
          </span>
        </header>
        {trip.passengers.length > 0 && (
          <p className="reservation__passengers">
            {t('booking.passengers')}: {trip.passengers.map((p) => formatPersonName(p.firstname, p.lastname, lang)).join(', ')}
          </p>
        )}
        <ul className="flights">
          {trip.segments.map((s) => (
            <SegmentRow key={s.key} segment={asSegment(s, now, names)} />
          ))}
        </ul>
        {itinerary && (
          <div className="reservation__actions">
            <a className="button button--secondary button--small" href="#itinerary" download={`itinerary-${trip.pnr}.pdf`} onClick={save}>
              {t('offline.itinerary')}
            </a>
          </div>
        )}
      </article>
    </li>
  )
}
