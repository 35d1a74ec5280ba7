import { describe, expect, it } from 'vitest'
import type { Reservation, Segment } from '../api'
import { asSegment, keptQuery, tripsToKeep } from './keptTrips'

const NOW = new Date('2026-11-28T03:00:00Z') // 12:00 in Japan

function segment(key: string, depart: string, arrive: string, extra: Partial<Segment> = {}): Segment {
  return {
    key,
    statusCode: 'CONFIRMED',
    status: 'Confirmed',
    flight: `MM${key}`,
    isShowHotelLink: true,
    originAirportCode: 'KIX',
    originAirport: 'Osaka (Kansai)',
    originTerminal: '1',
    originGate: '12',
    destinationAirportCode: 'ICN',
    destinationAirport: 'Seoul (Incheon)',
    destinationTerminal: '1',
    departDateTime: depart,
    arrivalDateTime: arrive,
    flightNumber: key,
    isCancelled: false,
    isPast: false,
    isIrregular: false,
    certificates: ['boarding'],
    ...extra,
  }
}

function booking(pnr: string, segments: Segment[]): Reservation {
  return {
    pnr,
    bookingDate: '2026-11-01',
    statusCode: 'CONFIRMED',
    status: 'Confirmed',
    isOutdated: false,
    passengers: [{ lastname: 'YAMADA', firstname: 'HANAKO', passengerType: 'ADULT' }],
    segments,
  }
}

describe('tripsToKeep', () => {
  const soon = booking('SOON01', [segment('001', '2026-12-08T08:30:00+09:00', '2026-12-08T10:20:00+09:00')])
  const edge = booking('EDGE30', [segment('002', '2026-12-28T11:59:00+09:00', '2026-12-28T14:00:00+09:00')])
  const later = booking('LATE31', [segment('003', '2026-12-28T12:01:00+09:00', '2026-12-28T14:00:00+09:00')])
  const flying = booking('FLYING', [segment('004', '2026-11-28T11:00:00+09:00', '2026-11-28T13:00:00+09:00')])
  const landed = booking('LANDED', [segment('005', '2026-11-28T09:00:00+09:00', '2026-11-28T11:30:00+09:00')])
  const returning = booking('RETURN', [
    segment('006', '2026-11-20T09:00:00+09:00', '2026-11-20T11:00:00+09:00'),
    segment('007', '2026-12-02T09:00:00+09:00', '2026-12-02T11:00:00+09:00'),
  ])

  it('keeps the bookings with a flight not yet arrived that departs within 30 days', () => {
    expect(tripsToKeep([soon, edge, later, flying, landed, returning], NOW).map((t) => t.pnr)).toEqual(['SOON01', 'EDGE30', 'FLYING', 'RETURN'])
  })

  it('keeps only the listed fields: nothing else of an answer reaches the device', () => {
    const withMore = {
      ...soon,
      totalAmount: 38760,
      currency: 'JPY',
      pin: '1234',
      passengers: [{ ...soon.passengers[0], email: 'a@example.com', passportNo: 'X1' }],
      segments: [{ ...soon.segments[0], fare: 'x', flightChange: { kind: 'gate', sequence: 1, previousDepartDateTime: 'a', previousArrivalDateTime: 'b', secret: 1 } }],
    } as unknown as Reservation
    const [kept] = tripsToKeep([withMore], NOW)
    expect(Object.keys(kept).sort()).toEqual(['passengers', 'pnr', 'segments', 'status', 'statusCode'])
    expect(Object.keys(kept.passengers[0]).sort()).toEqual(['firstname', 'lastname', 'passengerType'])
    const json = JSON.stringify(kept)
    for (const word of ['totalAmount', 'currency', 'pin', 'email', 'passportNo', 'fare', 'secret', 'bookingDate', 'certificates', 'isShowHotelLink']) expect(json).not.toContain(`"${word}"`)
    expect(kept.segments[0].flightChange).toEqual({ kind: 'gate', sequence: 1, previousDepartDateTime: 'a', previousArrivalDateTime: 'b' })
    expect(kept.segments[0].originGate).toBe('12')
  })

  it('shows a kept flight as the flight row does, past or not at the time of viewing', () => {
    const [kept] = tripsToKeep([flying], NOW)
    expect(asSegment(kept.segments[0], NOW)).toMatchObject({ isPast: true, isShowHotelLink: false, certificates: [] })
    expect(asSegment(kept.segments[0], new Date('2026-11-28T01:00:00Z')).isPast).toBe(false)
  })

  it('asks for the active bookings from today, with flight status', () => {
    expect(keptQuery('2026-11-28')).toMatchObject({ lastDepartDateFrom: '2026-11-28', status: 'ACTIVE', withFlightStatus: true, order: 'asc' })
  })
})
