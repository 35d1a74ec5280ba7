import { describe, expect, it } from 'vitest'
import type { Segment } from './api'
import { daysBetween, shownFlight, shownGate, willNotDepart } from './flightCard'

function segment(extra: Partial<Segment>): Segment {
  return {
    key: '1',
    statusCode: 'CONFIRMED',
    status: 'Confirmed',
    flight: 'MM171',
    flightNumber: '171',
    isShowHotelLink: false,
    originAirportCode: 'KIX',
    originAirport: 'Osaka (Kansai)',
    originTerminal: '1',
    originGate: '31',
    destinationAirportCode: 'CTS',
    destinationAirport: 'Sapporo (New Chitose)',
    destinationTerminal: '',
    departDateTime: '2027-01-26T23:30:00+09:00',
    arrivalDateTime: '2027-01-27T01:20:00+09:00',
    isCancelled: false,
    isPast: false,
    isIrregular: false,
    certificates: [],
    ...extra,
  }
}
const delay = { flightStatus: 'NOT_YET_DEPARTED_WITH_DELAY', isIrregular: true }

describe('shownFlight', () => {
  it.each([
    ['on time', {}, { dep: '2027-01-26T23:30:00+09:00', arr: '2027-01-27T01:20:00+09:00', late: false, date: '2027-01-26' }],
    [
      'delayed past midnight: the new date, the schedule on its own',
      { ...delay, estimatedDepartDateTime: '2027-01-27T00:40:00+09:00', estimatedArrivalDateTime: '2027-01-27T02:30:00+09:00' },
      { dep: '2027-01-27T00:40:00+09:00', arr: '2027-01-27T02:30:00+09:00', late: true, date: '2027-01-27', scheduledDate: '2027-01-26' },
    ],
    [
      'delayed the same day',
      { ...delay, estimatedDepartDateTime: '2027-01-26T23:50:00+09:00', estimatedArrivalDateTime: '2027-01-27T01:40:00+09:00' },
      { dep: '2027-01-26T23:50:00+09:00', arr: '2027-01-27T01:40:00+09:00', late: true, date: '2027-01-26' },
    ],
    [
      'delayed past midnight, no estimated arrival: the arrival moves with the departure, in its airport time',
      { ...delay, estimatedDepartDateTime: '2027-01-27T00:40:00+09:00' },
      { dep: '2027-01-27T00:40:00+09:00', arr: '2027-01-27T02:30:00+09:00', late: true, date: '2027-01-27', scheduledDate: '2027-01-26' },
    ],
    [
      'the new date is the origin airport’s local one (Bangkok, UTC+07:00), not the browser’s',
      {
        ...delay,
        originAirportCode: 'BKK',
        departDateTime: '2027-01-26T22:50:00+07:00',
        arrivalDateTime: '2027-01-27T06:30:00+09:00',
        estimatedDepartDateTime: '2027-01-26T23:55:00+07:00',
        estimatedArrivalDateTime: '2027-01-27T07:35:00+09:00',
      },
      { dep: '2027-01-26T23:55:00+07:00', arr: '2027-01-27T07:35:00+09:00', late: true, date: '2027-01-26' },
    ],
    [
      'departed: the actual time is said apart, the schedule stays',
      { ...delay, estimatedDepartDateTime: '2027-01-27T00:40:00+09:00', actualDepartDateTime: '2027-01-27T00:45:00+09:00' },
      { dep: '2027-01-26T23:30:00+09:00', late: false, date: '2027-01-26' },
    ],
    [
      'cancelled after a delay: the schedule, struck through as cancelled',
      { flightStatus: 'CANCELLED', isIrregular: true, estimatedDepartDateTime: '2027-01-27T00:40:00+09:00' },
      { dep: '2027-01-26T23:30:00+09:00', late: false, date: '2027-01-26' },
    ],
  ] as const)('%s', (_name, extra, want) => {
    const got = shownFlight(segment(extra))
    expect(got).toMatchObject(want)
    if (!('scheduledDate' in want)) expect(got.scheduledDate).toBeUndefined()
  })

  it('counts calendar days between local dates', () => {
    expect([daysBetween('2027-01-26', '2027-01-27'), daysBetween('2027-01-27', '2027-01-27'), daysBetween('2026-12-31', '2027-01-02')]).toEqual([1, 0, 2])
  })
})

describe('shownGate', () => {
  const change = (previousGate?: string) => ({ kind: 'gate', sequence: 1, previousDepartDateTime: 'a', previousArrivalDateTime: 'b', ...(previousGate && { previousGate }) })
  it.each([
    ['changed: the one before it struck through', { flightChange: change('12') }, { gate: '31', was: '12' }],
    ['never changed', {}, { gate: '31' }],
    ['changed back to the same gate', { flightChange: change('31') }, { gate: '31' }],
    ['no gate known', { originGate: '' }, {}],
    ['flight cancelled: no gate at all', { flightStatus: 'CANCELLED', flightChange: change('12') }, {}],
    ['flight suspended', { flightStatus: 'SUSPENDED' }, {}],
    ['segment cancelled', { isCancelled: true, flightChange: change('12') }, {}],
  ] as const)('%s', (_name, extra, want) => {
    expect(shownGate(segment(extra as Partial<Segment>))).toEqual(want)
  })

  it('a flight that will not depart', () => {
    expect([willNotDepart(segment({})), willNotDepart(segment({ flightStatus: 'CANCELLED' })), willNotDepart(segment({ isCancelled: true }))]).toEqual([false, true, true])
  })
})
