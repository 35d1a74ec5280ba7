import { useTranslation } from 'react-i18next'
import type { Segment } from '../api'
import { useLang } from '@/i18n/useLang'
import { formatLocal } from '../format'

/** One flight: local times at each airport, cancelled and irregular flights marked in words and colour. */
export function SegmentRow({ segment: s }: { segment: Segment }) {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  const classes = ['segment', s.isCancelled ? 'segment--cancelled' : '', s.isIrregular ? 'segment--irregular' : ''].filter(Boolean).join(' ')
  return (
    <li className={classes} data-segment-key={s.key}>
      <div className="segment__flight">
        <span className="segment__label">{t('segment.flight')}</span> <strong>{s.flight}</strong>
        {s.isCancelled && <span className="badge badge--danger">{t('segment.cancelled')}</span>}
        {!s.isCancelled && s.isIrregular && (
          <span className="badge badge--danger" title={t('segment.irregular')}>
            {s.flightStatusLabel || t('segment.irregular')}
          </span>
        )}
      </div>
      <div className="segment__leg">
        <span className="segment__label">{t('segment.departure')}</span>{' '}
        <span>
          {s.originAirport} ({s.originAirportCode}) <time dateTime={s.departDateTime}>{formatLocal(s.departDateTime, lang)}</time>
        </span>
        {s.estimatedDepartDateTime && !s.actualDepartDateTime && (
          <span className="segment__irregular">
            {' '}
            {t('segment.estimated')} <time dateTime={s.estimatedDepartDateTime}>{formatLocal(s.estimatedDepartDateTime, lang)}</time>
          </span>
        )}
        {s.actualDepartDateTime && (
          <span>
            {' '}
            {t('segment.actual')} <time dateTime={s.actualDepartDateTime}>{formatLocal(s.actualDepartDateTime, lang)}</time>
          </span>
        )}
        {(s.originTerminal || s.originGate) && (
          <span className="segment__meta">
            {' '}
            {s.originTerminal && `${t('segment.terminal')} ${s.originTerminal}`} {s.originGate && `${t('segment.gate')} ${s.originGate}`}
          </span>
        )}
      </div>
      <div className="segment__leg">
        <span className="segment__label">{t('segment.arrival')}</span>{' '}
        <span>
          {s.destinationAirport} ({s.destinationAirportCode}) <time dateTime={s.arrivalDateTime}>{formatLocal(s.arrivalDateTime, lang)}</time>
        </span>
      </div>
    </li>
  )
}
