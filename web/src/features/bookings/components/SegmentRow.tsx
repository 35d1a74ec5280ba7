import { Fragment, type ReactNode } from 'react'
import { useLang, useTranslation } from '@/i18n/translation'
import type { Segment } from '../api'
import { formatDate } from '@/i18n/format'
import { durationMinutes, localDate, localTime } from '../format'
import { daysBetween, shownFlight, shownGate } from '../flightCard'

/**
 * One flight as airline sites show it: large departure and arrival times
 * with the airport codes joined by a route line, the date, the duration and
 * a status chip. Times are the airports' own local times; cancelled and
 * irregular flights are marked in words and colour. After a change
 * (flightCard.ts): a delay's new times and date, the schedule struck
 * through beside them; a new gate with the one before it struck through;
 * no gate for a flight that will not depart.
 */
export function SegmentRow({ segment: s }: { segment: Segment }) {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  const flightCancelled = s.flightChange !== undefined && s.flightStatus === 'CANCELLED'
  const classes = [
    'flight',
    s.isCancelled || flightCancelled ? 'flight--cancelled' : '',
    s.isIrregular ? 'flight--irregular' : '',
    s.flightChange ? 'flight--changed' : '',
    s.isPast ? 'flight--past' : '',
  ]
    .filter(Boolean)
    .join(' ')
  // A delay shows as the airline apps do: the new times large, the schedule struck through beside them,
  // and a delay past midnight the new date (the schedule's own date struck through beside it).
  const { dep, arr, late: estimated, date: day, scheduledDate } = shownFlight(s)
  const scheduledDay = scheduledDate ?? day
  const gate = shownGate(s)
  const minutes = durationMinutes(dep, arr)
  return (
    <li className={classes} data-segment-key={s.key}>
      <div className="flight__top">
        <span className="flight__number" translate="no">
          {s.flight}
        </span>
        <span className="flight__dates">
          <time className="flight__date" dateTime={day}>
            {formatDate(day, lang, { weekday: true })}
          </time>
          {scheduledDate && (
            <s className="flight__was flight__was-date">
              <span className="visually-hidden">{t('segment.scheduled')} </span>
              <time dateTime={scheduledDate}>{formatDate(scheduledDate, lang, { weekday: true })}</time>
            </s>
          )}
        </span>
        <StatusChip segment={s} />
      </div>
      <div className="flight__route">
        <div className="flight__end">
          <span className="flight__times">
            <time className={`flight__time${estimated ? ' flight__time--late' : ''}`} dateTime={dep}>
              <span className="visually-hidden">{t('segment.departure')} </span>
              {localTime(dep)}
            </time>
            {estimated && <Scheduled at={s.departDateTime} day={scheduledDay} />}
          </span>
          <span className="flight__code" translate="no">
            {s.originAirportCode}
          </span>
          <AirportName name={s.originAirport} />
          <Where terminal={s.originTerminal} gate={gate.gate} was={gate.was} />
        </div>
        <div className="flight__line" aria-hidden={minutes === null}>
          {minutes !== null && (
            <span className="flight__duration">{t(durationKey(minutes), { hours: Math.floor(minutes / 60), minutes: minutes % 60 })}</span>
          )}
        </div>
        <div className="flight__end flight__end--arrival">
          <span className="flight__times">
            {estimated && <Scheduled at={s.arrivalDateTime} day={scheduledDay} />}
            <time className={`flight__time${estimated ? ' flight__time--late' : ''}`} dateTime={arr}>
              <span className="visually-hidden">{t('segment.arrival')} </span>
              {localTime(arr)}
              <DayShift from={day} to={localDate(arr)} />
            </time>
          </span>
          <span className="flight__code" translate="no">
            {s.destinationAirportCode}
          </span>
          <AirportName name={s.destinationAirport} />
          <Where terminal={s.destinationTerminal} />
        </div>
      </div>
      {s.actualDepartDateTime && (
        <p className="flight__live">
          {t('segment.actual')} <time dateTime={s.actualDepartDateTime}>{localTime(s.actualDepartDateTime)}</time>
        </p>
      )}
      <FlightChangeNote segment={s} />
    </li>
  )
}

/** "+1" beside a time on the day after the date it is read with (its days counted; nothing on the same day). */
function DayShift({ from, to }: { from: string; to: string }) {
  const { t } = useTranslation('bookings')
  const days = daysBetween(from, to)
  if (!days) return null
  const shown = days > 0 ? `+${days}` : String(days)
  return (
    <sup className="flight__plus">
      <span aria-hidden="true">{shown}</span>
      <span className="visually-hidden"> ({days === 1 ? t('segment.nextDay') : shown})</span>
    </sup>
  )
}

/** A scheduled time replaced by a delay's estimate: struck through beside the new one, its days counted from the scheduled date. */
function Scheduled({ at, day }: { at: string; day: string }) {
  const { t } = useTranslation('bookings')
  return (
    <s className="flight__was">
      <span className="visually-hidden">{t('segment.scheduled')} </span>
      <time dateTime={at}>{localTime(at)}</time>
      <DayShift from={day} to={localDate(at)} />
    </s>
  )
}

/**
 * What the airline changed on the flight: the time before a schedule
 * change, a cancellation, a diversion, a new gate. A delay shows its new
 * times as the main ones above, the schedule struck through.
 */
function FlightChangeNote({ segment: s }: { segment: Segment }) {
  const { t } = useTranslation('bookings')
  const c = s.flightChange
  if (!c) return null
  const lines: { key: string; text: ReactNode; late?: boolean }[] = []
  if (s.flightStatus === 'CANCELLED') lines.push({ key: 'cancelled', text: t('flightChange.cancelled'), late: true })
  if (c.previousDepartDateTime !== s.departDateTime) {
    lines.push({
      key: 'was',
      text: t('flightChange.was', { time: localTime(c.previousDepartDateTime) }),
    })
  }
  if (c.divertedToAirport) lines.push({ key: 'diverted', text: t('flightChange.diverted', { airport: c.divertedToAirport }), late: true })
  if (c.kind === 'gate') lines.push({ key: 'gate', text: t('flightChange.gate') })
  if (lines.length === 0) return null
  return (
    <ul className="flight__change" data-flight-change={c.kind}>
      {lines.map((l) => (
        <li key={l.key} className={l.late ? 'flight__live--late' : undefined}>
          {l.text}
        </li>
      ))}
    </ul>
  )
}

/**
 * An airport's name, each part kept whole ("โตเกียว" "(นาริตะ)", "大阪" "(関西)"):
 * Thai and Japanese have no spaces, and a transliterated name is not in the
 * browser's dictionary, so it would otherwise break mid-word.
 */
function AirportName({ name }: { name: string }) {
  const parts = name.split(/\s*(?=\()/)
  const gap = /\s\(/.test(name) ? ' ' : ''
  return (
    <span className="flight__airport">
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 && gap}
          <span className="nowrap">{p}</span>
        </Fragment>
      ))}
    </span>
  )
}

/** The terminal and the gate; a changed gate has the one before it struck through beside it ("was gate 12" to a screen reader). */
function Where({ terminal, gate, was }: { terminal: string; gate?: string; was?: string }) {
  const { t } = useTranslation('bookings')
  if (!terminal && !gate) return null
  // Each "Terminal 3" stays on one line: never a break inside the word (Thai and Japanese included).
  return (
    <span className="flight__where">
      {terminal && <span className="nowrap">{t('segment.terminalN', { n: terminal })}</span>}
      {gate && (
        <span className="nowrap flight__gate">
          {t('segment.gateN', { n: gate })}
          {was && (
            <>
              {' '}
              <del className="flight__was-gate">
                <span className="visually-hidden">{t('segment.wasGateN', { n: was })}</span>
                <span aria-hidden="true">{was}</span>
              </del>
            </>
          )}
        </span>
      )}
    </span>
  )
}

function StatusChip({ segment: s }: { segment: Segment }) {
  const { t } = useTranslation('bookings')
  if (s.isCancelled) return <span className="chip chip--danger">{t('segment.cancelled')}</span>
  if (s.isIrregular) return <span className="chip chip--danger">{s.flightStatusLabel || t('segment.irregular')}</span>
  if (s.isPast) return <span className="chip chip--muted">{t('segment.flown')}</span>
  return <span className="chip chip--ok">{s.status}</span>
}

/** A flight of whole hours reads "2 h", one under an hour "45 min". */
function durationKey(minutes: number) {
  if (minutes % 60 === 0) return 'segment.durationHours'
  if (minutes < 60) return 'segment.durationMinutes'
  return 'segment.duration'
}
