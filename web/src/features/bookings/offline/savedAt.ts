import { formatClock, formatDate } from '@/i18n/format'
import type { Lang } from '@/i18n/languages'

/** When the kept copy was saved, in the device's time: "10:42" today, with the date before it on another day. */
export function savedAtLabel(savedAt: number, lang: Lang, now: Date = new Date()): string {
  const d = new Date(savedAt)
  const clock = formatClock(d.getHours(), d.getMinutes())
  return d.toDateString() === now.toDateString() ? clock : `${formatDate(d, lang)} ${clock}`
}
