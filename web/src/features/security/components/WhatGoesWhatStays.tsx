import { useTranslation } from '@/i18n/translation'

const GOES = ['profile', 'passengers', 'sessions', 'cards', 'calendar', 'lottery', 'mails', 'bookingLink'] as const
const STAYS = ['payments', 'vouchers', 'bookings'] as const

/** Exactly what a deletion erases and what the airline keeps without the member's name. */
export function WhatGoesWhatStays() {
  const { t } = useTranslation('security')
  return (
    <div className="goes-stays">
      <section aria-labelledby="goes-title">
        <h3 id="goes-title">{t('deletion.goesTitle')}</h3>
        <ul>
          {GOES.map((k) => (
            <li key={k}>{t(`deletion.goes.${k}`)}</li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="stays-title">
        <h3 id="stays-title">{t('deletion.staysTitle')}</h3>
        <ul>
          {STAYS.map((k) => (
            <li key={k}>{t(`deletion.stays.${k}`)}</li>
          ))}
        </ul>
      </section>
    </div>
  )
}
