import { BCP47, type Lang } from '@/i18n/languages'

/**
 * A local date-time of an airport ("2026-11-30T08:30:00+09:00") shown in that
 * airport's own time, with its UTC offset: the offset in the string decides
 * the wall clock, not the browser's zone.
 */
export function formatLocal(value: string, lang: Lang): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2})?([+-]\d{2}:\d{2}|Z)$/.exec(value)
  if (!m) return value
  const [, y, mo, d, h, mi, off] = m
  const wall = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi))
  const text = new Intl.DateTimeFormat(BCP47[lang], { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(wall)
  return `${text} (UTC${off === 'Z' ? '+00:00' : off})`
}
