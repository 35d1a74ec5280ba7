import { formatClock, formatDate } from '@/i18n/format'
import type { Lang } from '@/i18n/languages'

/** The device's offset from UTC at d: "UTC+09:00", "UTC-03:30". */
export function utcOffset(d: Date): string {
  const minutes = -d.getTimezoneOffset()
  const abs = Math.abs(minutes)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `UTC${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
}

/**
 * When the kept copy was saved, in the device's time with its zone (a
 * traveller's phone changes zone): "10:42 (UTC+09:00)" today, with the date
 * before it on another day.
 */
export function savedAtLabel(savedAt: number, lang: Lang, now: Date = new Date()): string {
  const d = new Date(savedAt)
  const clock = `${formatClock(d.getHours(), d.getMinutes())} (${utcOffset(d)})`
  return d.toDateString() === now.toDateString() ? clock : `${formatDate(d, lang)} ${clock}`
}
