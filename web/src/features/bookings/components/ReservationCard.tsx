import '../bookings.css'
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useLang } from '@/i18n/useLang'
import { formatDate, formatMoney } from '@/i18n/format'
import { useToast } from '@/app/toast'
import { documentUrl, useEditReservation, useOffers, useSendItinerary, type Reservation, type Segment } from '../api'
import { FORBIDDEN_ADDRESSEE } from '../schema'
import { SegmentRow } from './SegmentRow'
import { CalendarFileLink } from './CalendarFileLink'

/** A booking with its segments and, unless outdated, its actions. */
export function ReservationCard({ reservation: r, compact = false }: { reservation: Reservation; compact?: boolean }) {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  const headingId = useId()
  return (
    <article className="card reservation" aria-labelledby={headingId}>
      <header className="reservation__header">
        <h3 id={headingId} className="reservation__pnr">
          {t('booking.pnr')} <span translate="no">{r.pnr}</span>
        </h3>
        <span className="reservation__meta">
          {t('booking.bookingDate')} {formatDate(r.bookingDate, lang)} · {r.status}
        </span>
      </header>
      {!compact && r.passengers.length > 0 && (
        <p className="reservation__passengers">
          {t('booking.passengers')}: {r.passengers.map((p) => `${p.lastname} ${p.firstname}`).join(', ')}
        </p>
      )}
      <ul className="segments">
        {r.segments.map((s) => (
          <SegmentRow key={s.key} segment={s} />
        ))}
      </ul>
      {r.isOutdated ? (
        <p className="reservation__outdated">{t('booking.outdated')}</p>
      ) : (
        !compact && <ReservationActions reservation={r} />
      )}
    </article>
  )
}

function ReservationActions({ reservation: r }: { reservation: Reservation }) {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  const toast = useToast()
  const sendmail = useSendItinerary()
  const edit = useEditReservation()
  const [mailNote, setMailNote] = useState<string | null>(null)
  const base = `/api/reservations/${encodeURIComponent(r.pnr)}`

  const onSendmail = async () => {
    setMailNote(null)
    try {
      const res = await sendmail.mutateAsync(r.pnr)
      setMailNote(res.mailSent ? t('actions.mailSent') : t('actions.mailNotSent'))
    } catch {
      toast.showError()
    }
  }
  const onEdit = async () => {
    try {
      const res = await edit.mutateAsync(r.pnr)
      window.location.assign(res.url)
    } catch (e) {
      toast.showError(e instanceof Error && 'serverMessage' in e ? (e as { serverMessage?: string }).serverMessage : undefined)
    }
  }
  return (
    <section className="reservation__actions" aria-label={t('actions.label', { pnr: r.pnr })}>
      <div className="actions">
        <a className="button" href={documentUrl(`${base}/itinerary`, lang)} target="_blank" rel="noopener">
          {t('actions.itinerary')}
          <span className="visually-hidden"> {t('actions.opensNewTab')}</span>
        </a>
        <CalendarFileLink pnr={r.pnr} />
        <button type="button" className="button" onClick={() => void onSendmail()} disabled={sendmail.isPending}>
          {t('actions.sendmail')}
        </button>
        <button type="button" className="button button--secondary" onClick={() => void onEdit()} disabled={edit.isPending}>
          {t('actions.edit')}
        </button>
      </div>
      {mailNote && (
        <p className="reservation__note" role="status">
          {mailNote}
        </p>
      )}
      <ReceiptForm base={base} />
      {r.segments.map((s) => (
        <SegmentActions key={s.key} pnr={r.pnr} base={base} segment={s} />
      ))}
    </section>
  )
}

function ReceiptForm({ base }: { base: string }) {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  const id = useId()
  const [error, setError] = useState<string | null>(null)
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const v = String(new FormData(e.currentTarget).get('addressee') ?? '')
    if (FORBIDDEN_ADDRESSEE.test(v) || v.length > 100) {
      e.preventDefault()
      setError(t('validation.addressee'))
    } else setError(null)
  }
  return (
    <form className="receipt-form" method="get" action={`${base}/receipt`} target="_blank" onSubmit={onSubmit} noValidate>
      <input type="hidden" name="lang" value={lang} />
      <div className={`field ${error ? 'field--invalid' : ''}`}>
        <label htmlFor={id} className="field__label">
          {t('actions.addressee')}
        </label>
        <input
          id={id}
          name="addressee"
          className="field__input"
          maxLength={100}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        />
        <p id={`${id}-hint`} className="field__hint">
          {t('actions.addresseeHint')}
        </p>
        {error && (
          <p id={`${id}-error`} className="field__error" role="alert">
            {error}
          </p>
        )}
      </div>
      <button type="submit" className="button">
        {t('actions.receipt')}
        <span className="visually-hidden"> {t('actions.opensNewTab')}</span>
      </button>
    </form>
  )
}

function SegmentActions({ pnr, base, segment: s }: { pnr: string; base: string; segment: Segment }) {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  const [offers, setOffers] = useState<'hotel' | 'rental' | null>(null)
  const certs = s.certificates
  const showOffers = s.isShowHotelLink && !s.isCancelled && !s.isPast
  if (certs.length === 0 && !showOffers) return null
  const certPath: Record<string, string> = { boarding: 'boarding_certificate', delay: 'delay_certificate', cancellation: 'cancellation_certificate' }
  return (
    <div className="segment-actions" aria-label={`${s.flight} ${s.originAirportCode}-${s.destinationAirportCode}`} role="group">
      <span className="segment-actions__title">
        {s.flight} {s.originAirportCode}→{s.destinationAirportCode}
      </span>
      <div className="actions">
        {certs.map((c) => (
          <a key={c} className="button" href={documentUrl(`${base}/${encodeURIComponent(s.key)}/${certPath[c]}`, lang)} target="_blank" rel="noopener">
            {t(`actions.${c}`)}
            <span className="visually-hidden"> {t('actions.opensNewTab')}</span>
          </a>
        ))}
        {showOffers && (
          <>
            <button type="button" className="button" aria-expanded={offers === 'hotel'} onClick={() => setOffers(offers === 'hotel' ? null : 'hotel')}>
              {t('actions.hotel')}
            </button>
            <button type="button" className="button" aria-expanded={offers === 'rental'} onClick={() => setOffers(offers === 'rental' ? null : 'rental')}>
              {t('actions.rental')}
            </button>
          </>
        )}
      </div>
      {offers && <Offers pnr={pnr} segmentKey={s.key} kind={offers} />}
    </div>
  )
}

function Offers({ pnr, segmentKey, kind }: { pnr: string; segmentKey: string; kind: 'hotel' | 'rental' }) {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  const q = useOffers(pnr, segmentKey, kind, true)
  if (!q.data) return <p role="status">{q.isError ? '' : '…'}</p>
  return (
    <div className="offers">
      <p className="offers__title">{t('actions.offersFor', { city: q.data.city, date: formatDate(q.data.checkIn, lang) })}</p>
      <ul>
        {q.data.offers.map((o) => (
          <li key={o.id}>
            <a href={o.url} target="_blank" rel="noopener noreferrer">
              {o.name}
            </a>{' '}
            — {o.area} — {formatMoney(o.price, o.currency, lang)} {t(kind === 'hotel' ? 'actions.perNight' : 'actions.perDay')}
          </li>
        ))}
      </ul>
    </div>
  )
}
