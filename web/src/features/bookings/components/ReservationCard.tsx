import '../bookings.css'
import { useId, useState, type FormEvent } from 'react'
import { useLang, useTranslation } from '@/i18n/translation'
import { formatDate, formatMoney, formatPersonName } from '@/i18n/format'
import { useToast } from '@/app/toast'
import { pageNavigation } from '@/app/pageNavigation'
import { documentUrl, useBookingSiteSSO, useOffers, useSendItinerary, type Reservation, type Segment } from '../api'
import { FORBIDDEN_ADDRESSEE } from '../searchForm'
import { SegmentRow } from './SegmentRow'
import { CalendarFileLink } from './CalendarFileLink'
import { ActionMenu } from '@/components/ActionMenu'

/** A booking: its number, date and status, each flight as a compact card, and one row of documents and actions. */
export function ReservationCard({ reservation: r, compact = false }: { reservation: Reservation; compact?: boolean }) {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  const headingId = useId()
  return (
    <article className="card reservation" aria-labelledby={headingId}>
      <header className="reservation__header">
        <h3 id={headingId} className="reservation__pnr">
          <span className="reservation__pnr-label">{t('booking.pnr')}</span> <span translate="no">{r.pnr}</span>
        </h3>
        <span className="reservation__meta">
          <span className="nowrap">
            {t('booking.bookingDate')} {formatDate(r.bookingDate, lang)}
          </span>
          <span className="chip chip--muted">{r.status}</span>
        </span>
      </header>
      {!compact && r.passengers.length > 0 && (
        <p className="reservation__passengers">
          {t('booking.passengers')}: {r.passengers.map((p) => formatPersonName(p.firstname, p.lastname, lang)).join(', ')}
        </p>
      )}
      <ul className="flights">
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

type Panel = { kind: 'receipt' } | { kind: 'hotel' | 'rental'; segment: Segment } | null

const CERT_PATH: Record<string, string> = { boarding: 'boarding_certificate', delay: 'delay_certificate', cancellation: 'cancellation_certificate' }

function ReservationActions({ reservation: r }: { reservation: Reservation }) {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  const toast = useToast()
  const sendmail = useSendItinerary()
  const edit = useBookingSiteSSO()
  const [mailNote, setMailNote] = useState<string | null>(null)
  const [panel, setPanel] = useState<Panel>(null)
  const base = `/api/reservations/${encodeURIComponent(r.pnr)}`
  // A booking whose flights have all departed (or are cancelled) cannot be changed any more.
  const changeable = r.segments.some((s) => !s.isPast && !s.isCancelled)
  const segmentLabel = (s: Segment) => `${s.flight} ${s.originAirportCode}–${s.destinationAirportCode}`
  const withOffers = r.segments.filter((s) => s.isShowHotelLink && !s.isCancelled && !s.isPast)
  const certificates = r.segments.flatMap((s) => s.certificates.map((c) => ({ s, c })))

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
      pageNavigation.assign(res.url)
    } catch (e) {
      toast.showError(e instanceof Error && 'serverMessage' in e ? (e as { serverMessage?: string }).serverMessage : undefined)
    }
  }
  return (
    <section className="reservation__actions" aria-label={t('actions.label', { pnr: r.pnr })}>
      <div className="actions">
        <a className="button button--secondary button--small" href={documentUrl(`${base}/itinerary`, lang)} target="_blank" rel="noopener">
          {t('actions.itinerary')}
          <span className="visually-hidden"> {t('actions.opensNewTab')}</span>
        </a>
        <button
          type="button"
          className="button button--secondary button--small"
          aria-expanded={panel?.kind === 'receipt'}
          onClick={() => setPanel(panel?.kind === 'receipt' ? null : { kind: 'receipt' })}
        >
          {t('actions.receipt')}
        </button>
        <ActionMenu label={t('actions.more')}>
          <button type="button" role="menuitem" className="menu__item" onClick={() => void onSendmail()} disabled={sendmail.isPending}>
            {t('actions.sendmail')}
          </button>
          <CalendarFileLink pnr={r.pnr} className="menu__item" role="menuitem" />
          {certificates.map(({ s, c }) => (
            <a
              key={`${s.key}-${c}`}
              role="menuitem"
              className="menu__item"
              href={documentUrl(`${base}/${encodeURIComponent(s.key)}/${CERT_PATH[c]}`, lang)}
              target="_blank"
              rel="noopener"
            >
              {t(`actions.${c}`)} · <span translate="no">{segmentLabel(s)}</span>
              <span className="visually-hidden"> {t('actions.opensNewTab')}</span>
            </a>
          ))}
          {withOffers.map((s) =>
            (['hotel', 'rental'] as const).map((kind) => (
              <button key={`${s.key}-${kind}`} type="button" role="menuitem" className="menu__item" onClick={() => setPanel({ kind, segment: s })}>
                {t(`actions.${kind}`)} · <span translate="no">{segmentLabel(s)}</span>
              </button>
            )),
          )}
        </ActionMenu>
        {changeable && (
          <button type="button" className="button button--primary button--small actions__end" onClick={() => void onEdit()} disabled={edit.isPending}>
            {t('actions.edit')}
          </button>
        )}
      </div>
      {mailNote && (
        <p className="reservation__note" role="status">
          {mailNote}
        </p>
      )}
      {panel?.kind === 'receipt' && <ReceiptForm base={base} />}
      {(panel?.kind === 'hotel' || panel?.kind === 'rental') && (
        <div className="offers-panel">
          <p className="offers-panel__title">
            {t(`actions.${panel.kind}`)} · <span translate="no">{segmentLabel(panel.segment)}</span>
          </p>
          <Offers pnr={r.pnr} segmentKey={panel.segment.key} kind={panel.kind} />
          <button type="button" className="button button--secondary button--small" onClick={() => setPanel(null)}>
            {t('actions.hideOffers')}
          </button>
        </div>
      )}
    </section>
  )
}

/** The receipt's addressee is asked only once the member asks for the receipt. */
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
          autoFocus
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
      <button type="submit" className="button button--primary">
        {t('actions.openReceipt')}
        <span className="visually-hidden"> {t('actions.opensNewTab')}</span>
      </button>
    </form>
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
      <ul className="offer-cards">
        {q.data.offers.map((o) => (
          <li key={o.id} className="offer-card">
            <p className="offer-card__name">{o.name}</p>
            <p className="offer-card__area">{o.area}</p>
            <p className="offer-card__price">
              <strong>{formatMoney(o.price, o.currency, lang)}</strong> {t(kind === 'hotel' ? 'actions.perNight' : 'actions.perDay')}
            </p>
            <a className="button button--secondary button--small offer-card__link" href={o.url} target="_blank" rel="noopener noreferrer">
              {t('actions.viewOffer')}
              <span className="visually-hidden">
                {' '}
                {o.name} {t('actions.opensNewTab')}
              </span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  )
}
