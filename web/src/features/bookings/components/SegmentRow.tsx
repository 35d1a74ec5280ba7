import { Fragment } from 'react'
import { useLang, useTranslation } from '@/i18n/translation'
import type { Segment } from '../api'
import { formatDate } from '@/i18n/format'
import { durationMinutes, localDate, localTime } from '../format'

/**
 * One flight as airline sites show it: large departure and arrival times
 * with the airport codes joined by a route line, the date, the duration and
 * a status chip. Times are the airports' own local times; cancelled and
 * irregular flights are marked in words and colour.
 */
export function SegmentRow({ segment: s }: { segment: Segment }) {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  const classes = ['flight', s.isCancelled ? 'flight--cancelled' : '', s.isIrregular ? 'flight--irregular' : '', s.isPast ? 'flight--past' : '']
    .filter(Boolean)
    .join(' ')
  const minutes = durationMinutes(s.departDateTime, s.arrivalDateTime)
  const estimated = !s.actualDepartDateTime ? s.estimatedDepartDateTime : undefined
  return (
    <li className={classes} data-segment-key={s.key}>
      <div className="flight__top">
        <span className="flight__number" translate="no">
          {s.flight}
        </span>
        <time className="flight__date" dateTime={localDate(s.departDateTime)}>
          {formatDate(localDate(s.departDateTime), lang, { weekday: true })}
        </time>
        <StatusChip segment={s} />
      </div>
      <div className="flight__route">
        <div className="flight__end">
          <time className="flight__time" dateTime={s.departDateTime}>
            <span className="visually-hidden">{t('segment.departure')} </span>
            {localTime(s.departDateTime)}
          </time>
          <span className="flight__code" translate="no">
            {s.originAirportCode}
          </span>
          <AirportName name={s.originAirport} />
          <Where terminal={s.originTerminal} gate={s.originGate} />
        </div>
        <div className="flight__line" aria-hidden={minutes === null}>
          {minutes !== null && (
            <span className="flight__duration">{t('segment.duration', { hours: Math.floor(minutes / 60), minutes: minutes % 60 })}</span>
          )}
        </div>
        <div className="flight__end flight__end--arrival">
          <time className="flight__time" dateTime={s.arrivalDateTime}>
            <span className="visually-hidden">{t('segment.arrival')} </span>
            {localTime(s.arrivalDateTime)}
            {localDate(s.arrivalDateTime) !== localDate(s.departDateTime) && <sup className="flight__plus">{t('segment.nextDay')}</sup>}
          </time>
          <span className="flight__code" translate="no">
            {s.destinationAirportCode}
          </span>
          <AirportName name={s.destinationAirport} />
          <Where terminal={s.destinationTerminal} />
        </div>
      </div>
      {(estimated || s.actualDepartDateTime) && (
        <p className={`flight__live ${estimated ? 'flight__live--late' : ''}`}>
          {estimated && (
            <>
              {t('segment.estimated')} <time dateTime={estimated}>{localTime(estimated)}</time>
            </>
          )}
          {s.actualDepartDateTime && (
            <>
              {t('segment.actual')} <time dateTime={s.actualDepartDateTime}>{localTime(s.actualDepartDateTime)}</time>
            </>
          )}
        </p>
      )}
    </li>
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

function Where({ terminal, gate }: { terminal: string; gate?: string }) {
  const { t } = useTranslation('bookings')
  if (!terminal && !gate) return null
  // Each "Terminal 3" stays on one line: never a break inside the word (Thai and Japanese included).
  return (
    <span className="flight__where">
      {terminal && <span className="nowrap">{t('segment.terminalN', { n: terminal })}</span>}
      {gate && <span className="nowrap">{t('segment.gateN', { n: gate })}</span>}
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
