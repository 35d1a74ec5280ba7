/**
 * What "Keep my trips on this device" keeps: the bookings with a flight in
 * the next 30 days, and of each only what the trip needs at the airport
 * (booking number, passengers' names, flights with local times, terminal,
 * gate and the gate before a change, status at the last update, the change
 * alert), with the codes of its airports and statuses, so the offline view
 * names them in the page's language (KeptNames). The fields are listed
 * one by one: nothing else of an answer (payment data, points, PINs) can
 * reach the device, even if the API grows.
 */
import type { Reservation, ReservationQuery, Segment } from '../api'

export const KEEP_DAYS = 30
const DAY_MS = 86_400_000

export interface KeptSegment {
  key: string
  statusCode: string
  status: string
  flight: string
  flightNumber: string
  originAirportCode: string
  originAirport: string
  originTerminal: string
  originGate: string
  destinationAirportCode: string
  destinationAirport: string
  destinationTerminal: string
  departDateTime: string
  estimatedDepartDateTime?: string
  actualDepartDateTime?: string
  arrivalDateTime: string
  estimatedArrivalDateTime?: string
  actualArrivalDateTime?: string
  flightStatus?: string
  flightStatusLabel?: string
  isCancelled: boolean
  isIrregular: boolean
  flightChange?: Segment['flightChange']
}

export interface KeptTrip {
  pnr: string
  statusCode: string
  status: string
  passengers: { lastname: string; firstname: string; passengerType: string }[]
  segments: KeptSegment[]
}

/** The kept copy in IndexedDB (store.ts). */
export interface KeptRecord {
  /** The member whose trips these are (their profile id): another member's login erases them. */
  memberId: string
  /** When the copy was last brought up to date (ms since the epoch). */
  savedAt: number
  trips: KeptTrip[]
  /** Each kept booking's itinerary PDF, by booking number. */
  itineraries: Record<string, Blob>
}

/** The reservations query of the kept trips: ACTIVE, from today, with flight status, the first 50 by departure. */
export function keptQuery(today: string): ReservationQuery {
  return { lastDepartDateFrom: today, status: 'ACTIVE', perPage: 50, page: 1, order: 'asc', withFlightStatus: true, timeZone: '+09:00' }
}

function keptSegment(s: Segment): KeptSegment {
  const k: KeptSegment = {
    key: s.key,
    statusCode: s.statusCode,
    status: s.status,
    flight: s.flight,
    flightNumber: s.flightNumber,
    originAirportCode: s.originAirportCode,
    originAirport: s.originAirport,
    originTerminal: s.originTerminal,
    originGate: s.originGate,
    destinationAirportCode: s.destinationAirportCode,
    destinationAirport: s.destinationAirport,
    destinationTerminal: s.destinationTerminal,
    departDateTime: s.departDateTime,
    arrivalDateTime: s.arrivalDateTime,
    isCancelled: s.isCancelled,
    isIrregular: s.isIrregular,
  }
  const optional = ['estimatedDepartDateTime', 'actualDepartDateTime', 'estimatedArrivalDateTime', 'actualArrivalDateTime', 'flightStatus', 'flightStatusLabel'] as const
  for (const f of optional) if (s[f] !== undefined) k[f] = s[f]
  if (s.flightChange) {
    const c = s.flightChange
    k.flightChange = {
      kind: c.kind,
      sequence: c.sequence,
      previousDepartDateTime: c.previousDepartDateTime,
      previousArrivalDateTime: c.previousArrivalDateTime,
      ...(c.divertedToAirportCode !== undefined && { divertedToAirportCode: c.divertedToAirportCode }),
      ...(c.divertedToAirport !== undefined && { divertedToAirport: c.divertedToAirport }),
      ...(c.previousGate !== undefined && { previousGate: c.previousGate }),
    }
  }
  return k
}

/**
 * The bookings to keep at `now`: those with a flight not yet arrived that
 * departs within the next 30 days, each reduced to the kept fields.
 */
export function tripsToKeep(reservations: Reservation[], now: Date): KeptTrip[] {
  const t = now.getTime()
  const within = (s: Segment) => Date.parse(s.arrivalDateTime) >= t && Date.parse(s.departDateTime) <= t + KEEP_DAYS * DAY_MS
  return reservations
    .filter((r) => r.segments.some(within))
    .map((r) => ({
      pnr: r.pnr,
      statusCode: r.statusCode,
      status: r.status,
      passengers: r.passengers.map((p) => ({ lastname: p.lastname, firstname: p.firstname, passengerType: p.passengerType })),
      segments: r.segments.map(keptSegment),
    }))
}

/**
 * The names a kept copy is shown with, in the page's language: the copy
 * keeps the codes (airports, booking and flight statuses) beside the
 * names of the language that saved it, and each is named again at display
 * time from the bookings catalogue (its `airports`, `bookingStatus` and
 * `flightStatus`: the server's names, internal/masters/web_names_test.go);
 * a code the catalogue does not know keeps its saved name.
 */
export interface KeptNames {
  airport(code: string, saved: string): string
  bookingStatus(code: string, saved: string): string
  flightStatus(code: string, saved: string): string
}

/** KeptNames from the bookings catalogue's `t` of the page's language. */
export function keptNames(t: (key: string, options: { defaultValue: string }) => string): KeptNames {
  const named = (group: string) => (code: string, saved: string) => (code ? t(`${group}.${code.toUpperCase()}`, { defaultValue: saved }) : saved)
  return { airport: named('airports'), bookingStatus: named('bookingStatus'), flightStatus: named('flightStatus') }
}

/**
 * A kept flight as the flight row (SegmentRow) shows it, in the page's
 * language (names); isPast is worked out at `now`, the offline view's time.
 */
export function asSegment(s: KeptSegment, now: Date, names: KeptNames): Segment {
  const c = s.flightChange
  return {
    ...s,
    status: names.bookingStatus(s.isCancelled ? 'CANCELLED' : 'CONFIRMED', s.status),
    originAirport: names.airport(s.originAirportCode, s.originAirport),
    destinationAirport: names.airport(s.destinationAirportCode, s.destinationAirport),
    ...(s.flightStatus && { flightStatusLabel: names.flightStatus(s.flightStatus, s.flightStatusLabel ?? '') }),
    ...(c && {
      flightChange: {
        ...c,
        ...(c.divertedToAirportCode && { divertedToAirport: names.airport(c.divertedToAirportCode, c.divertedToAirport ?? c.divertedToAirportCode) }),
      },
    }),
    isShowHotelLink: false,
    certificates: [],
    isPast: Date.parse(s.departDateTime) < now.getTime(),
  }
}

/** A kept booking's status in the page's language. */
export function tripStatus(trip: KeptTrip, names: KeptNames): string {
  return names.bookingStatus(trip.statusCode, trip.status)
}
