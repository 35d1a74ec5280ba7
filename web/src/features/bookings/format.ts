import { formatClock } from '@/i18n/format'

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2})?([+-]\d{2}:\d{2}|Z)$/

/** The airport-local calendar date of "2026-11-30T08:30:00+09:00": "2026-11-30". */
export function localDate(value: string): string {
  const m = LOCAL.exec(value)
  return m ? `${m[1]}-${m[2]}-${m[3]}` : value.slice(0, 10)
}

/**
 * The airport-local time of day of "2026-11-30T08:30:00+09:00" in the
 * 24-hour style of every language ("08:30"): the offset in the string decides the
 * wall clock, not the browser's zone.
 */
export function localTime(value: string): string {
  const m = LOCAL.exec(value)
  if (!m) return value
  return formatClock(+m[4], +m[5])
}

/** Minutes between two RFC 3339 instants (with their offsets), or null when either is unreadable. */
export function durationMinutes(from: string, to: string): number | null {
  const a = Date.parse(from)
  const b = Date.parse(to)
  if (Number.isNaN(a) || Number.isNaN(b) || b < a) return null
  return Math.round((b - a) / 60_000)
}
