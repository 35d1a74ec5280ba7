import { describe, expect, it } from 'vitest'
import type { Reservation, Segment } from '../api'
import { asSegment, keptNames, keptQuery, tripStatus, tripsToKeep, type KeptNames } from './keptTrips'
import jp from '../locales/jp.json'
import th from '../locales/th.json'

const NOW = new Date('2026-11-28T03:00:00Z') // 12:00 in Japan

/** The names of a catalogue, as the offline view makes them from its t. */
function namesOf(catalogue: Record<string, unknown>): KeptNames {
  return keptNames((key, { defaultValue }) => {
    const v = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], catalogue)
    return typeof v === 'string' ? v : defaultValue
  })
}
const saved: KeptNames = { airport: (_c, s) => s, bookingStatus: (_c, s) => s, flightStatus: (_c, s) => s }

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
      segments: [
        { ...soon.segments[0], fare: 'x', flightChange: { kind: 'gate', sequence: 1, previousDepartDateTime: 'a', previousArrivalDateTime: 'b', previousGate: '9', secret: 1 } },
      ],
    } as unknown as Reservation
    const [kept] = tripsToKeep([withMore], NOW)
    expect(Object.keys(kept).sort()).toEqual(['passengers', 'pnr', 'segments', 'status', 'statusCode'])
    expect(Object.keys(kept.passengers[0]).sort()).toEqual(['firstname', 'lastname', 'passengerType'])
    const json = JSON.stringify(kept)
    for (const word of ['totalAmount', 'currency', 'pin', 'email', 'passportNo', 'fare', 'secret', 'bookingDate', 'certificates', 'isShowHotelLink']) expect(json).not.toContain(`"${word}"`)
    expect(kept.segments[0].flightChange).toEqual({ kind: 'gate', sequence: 1, previousDepartDateTime: 'a', previousArrivalDateTime: 'b', previousGate: '9' })
    expect(kept.segments[0].originGate).toBe('12')
  })

  it('shows a kept flight as the flight row does, past or not at the time of viewing', () => {
    const [kept] = tripsToKeep([flying], NOW)
    expect(asSegment(kept.segments[0], NOW, saved)).toMatchObject({ isPast: true, isShowHotelLink: false, certificates: [] })
    expect(asSegment(kept.segments[0], new Date('2026-11-28T01:00:00Z'), saved).isPast).toBe(false)
  })

  it('names the airports and statuses of a copy saved in English in the language of the page, from their codes', () => {
    const delayed = booking('DELAY1', [
      segment('008', '2026-12-08T08:30:00+09:00', '2026-12-08T10:20:00+09:00', {
        flightStatus: 'NOT_YET_DEPARTED_WITH_DELAY',
        flightStatusLabel: 'Delayed (not yet departed)',
        flightChange: { kind: 'diversion', sequence: 2, previousDepartDateTime: 'a', previousArrivalDateTime: 'b', divertedToAirportCode: 'NRT', divertedToAirport: 'Tokyo (Narita)' },
      }),
      segment('009', '2026-12-09T08:30:00+09:00', '2026-12-09T10:20:00+09:00', { originAirportCode: 'XXX', originAirport: 'Nowhere', isCancelled: true, status: 'Cancelled' }),
    ])
    const [kept] = tripsToKeep([delayed], NOW)
    for (const [catalogue, want] of [
      [jp, { airport: '大阪(関西)', to: 'ソウル(仁川)', status: '予約確定', flight: '遅延（出発前）', diverted: '東京(成田)', cancelled: 'キャンセル済み' }],
      [th, { airport: 'โอซาก้า (คันไซ)', to: 'โซล (อินชอน)', status: 'ยืนยันแล้ว', flight: 'ล่าช้า (ยังไม่ออกเดินทาง)', diverted: 'โตเกียว (นาริตะ)', cancelled: 'ยกเลิกแล้ว' }],
    ] as const) {
      const names = namesOf(catalogue)
      const [a, b] = kept.segments.map((s) => asSegment(s, NOW, names))
      expect([a.originAirport, a.destinationAirport, a.status, a.flightStatusLabel, a.flightChange?.divertedToAirport]).toEqual([
        want.airport,
        want.to,
        want.status,
        want.flight,
        want.diverted,
      ])
      // an airport the catalogue does not know keeps the name it was saved with
      expect([b.originAirport, b.status]).toEqual(['Nowhere', want.cancelled])
      expect(tripStatus(kept, names)).toBe(want.status)
      // the copy itself is left as it was saved
      expect(kept.segments[0].originAirport).toBe('Osaka (Kansai)')
    }
  })

  it('asks for the active bookings from today, with flight status', () => {
    expect(keptQuery('2026-11-28')).toMatchObject({ lastDepartDateFrom: '2026-11-28', status: 'ACTIVE', withFlightStatus: true, order: 'asc' })
  })
})
