import { useLang, useTranslation } from '@/i18n/translation'
import { calendarFileUrl } from '../calendarApi'

/** "Add to calendar": the booking's .ics file (every flight as an event). */
export function CalendarFileLink({ pnr, className = 'button', role }: { pnr: string; className?: string; role?: string }) {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  return (
    <a className={className} role={role} href={calendarFileUrl(pnr, lang)} download={`booking-${pnr}.ics`}>
      {t('calendar.addToCalendar')}
    </a>
  )
}
