/**
 * What a flight's card shows after the airline's changes, one rule for the
 * bookings page, the home page's flights and the trips kept on the device
 * (components/SegmentRow.tsx), as the itinerary PDF does
 * (booking.Segment.ShownTimes, ShownDate, ShowsGate and StruckGate in Go).
 */
import type { Segment } from './api'
import { localDate } from './format'

/** A flight that will not depart: the segment cancelled, or the flight cancelled or suspended. */
export function willNotDepart(s: Segment): boolean {
  return s.isCancelled || s.flightStatus === 'CANCELLED' || s.flightStatus === 'SUSPENDED'
}

export interface ShownFlight {
  /** the departure and arrival shown large: a delay's estimates while the flight has not left, else the schedule */
  dep: string
  arr: string
  /** the times are a delay's: the schedule is shown struck through beside them */
  late: boolean
  /** the flight's date as shown: the shown departure's local date at the origin airport */
  date: string
  /** the scheduled date, when a delay moved the flight to another day (shown struck through beside the date) */
  scheduledDate?: string
}

/**
 * The times and date a card shows. A delay past midnight is on its new
 * date (local at the origin airport, from the time's own offset), never
 * the old date with "+1"; "+1" then marks an arrival after that date.
 */
export function shownFlight(s: Segment): ShownFlight {
  const est = s.estimatedDepartDateTime
  const late = !!est && !s.actualDepartDateTime && !willNotDepart(s) && Date.parse(est) > Date.parse(s.departDateTime)
  const dep = late ? est : s.departDateTime
  const arr = late ? (s.estimatedArrivalDateTime ?? moved(s.arrivalDateTime, Date.parse(est) - Date.parse(s.departDateTime))) : s.arrivalDateTime
  const date = localDate(dep)
  const scheduled = localDate(s.departDateTime)
  return { dep, arr, late, date, ...(scheduled !== date && { scheduledDate: scheduled }) }
}

/** The calendar days from one local date ("YYYY-MM-DD") to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000)
}

/**
 * The departure gate a card shows, and the one before the airline's last
 * gate change, struck through beside it; a flight that will not depart
 * shows no gate at all.
 */
export function shownGate(s: Segment): { gate?: string; was?: string } {
  if (willNotDepart(s) || !s.originGate) return {}
  const was = s.flightChange?.previousGate
  return { gate: s.originGate, ...(was && was !== s.originGate && { was }) }
}

/** "2026-12-01T10:20:00+09:00" moved by ms, written with the same offset. */
function moved(value: string, ms: number): string {
  const m = /([+-]\d{2}):(\d{2})$|Z$/.exec(value)
  if (!m) return value
  const offsetMin = m[1] ? (m[1].startsWith('-') ? -1 : 1) * (Math.abs(+m[1]) * 60 + +m[2]) : 0
  const local = new Date(Date.parse(value) + ms + offsetMin * 60_000).toISOString().slice(0, 19)
  return local + (m[1] ? `${m[1]}:${m[2]}` : 'Z')
}
