import { describe, expect, it } from 'vitest'
import { screen, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { stubFetch, json, MEMBER_SESSION } from '@/test/fetchStub'

const base = {
  statusCode: 'CONFIRMED',
  status: 'Confirmed',
  isShowHotelLink: false,
  originAirportCode: 'KIX',
  originAirport: 'Osaka (Kansai)',
  originTerminal: '1',
  originGate: '31',
  destinationAirportCode: 'ICN',
  destinationAirport: 'Seoul (Incheon)',
  destinationTerminal: '1',
  isCancelled: false,
  isPast: false,
  certificates: [],
}
const rescheduled = {
  ...base,
  key: '1',
  flight: 'MM001',
  flightNumber: '001',
  departDateTime: '2026-11-30T09:05:00+09:00',
  arrivalDateTime: '2026-11-30T10:55:00+09:00',
  flightStatus: 'ON_TIME',
  flightStatusLabel: 'On time',
  isIrregular: false,
  flightChange: { kind: 'time_change', sequence: 2, previousDepartDateTime: '2026-11-30T08:30:00+09:00', previousArrivalDateTime: '2026-11-30T10:20:00+09:00' },
}
const cancelled = {
  ...base,
  key: '1',
  flight: 'MM002',
  flightNumber: '002',
  departDateTime: '2026-12-04T13:45:00+09:00',
  arrivalDateTime: '2026-12-04T15:30:00+09:00',
  flightStatus: 'CANCELLED',
  flightStatusLabel: 'Cancelled',
  isIrregular: true,
  flightChange: { kind: 'cancellation', sequence: 1, previousDepartDateTime: '2026-12-04T13:45:00+09:00', previousArrivalDateTime: '2026-12-04T15:30:00+09:00' },
}
// MM171 KIX 08:30 → CTS 10:20, delayed to 23:45: the new arrival is 01:35 the next day.
const delayed = {
  ...base,
  key: '1',
  flight: 'MM171',
  flightNumber: '171',
  destinationAirportCode: 'CTS',
  destinationAirport: 'Sapporo (New Chitose)',
  departDateTime: '2027-01-27T08:30:00+09:00',
  arrivalDateTime: '2027-01-27T10:20:00+09:00',
  estimatedDepartDateTime: '2027-01-27T23:45:00+09:00',
  estimatedArrivalDateTime: '2027-01-28T01:35:00+09:00',
  flightStatus: 'NOT_YET_DEPARTED_WITH_DELAY',
  flightStatusLabel: 'Delayed',
  isIrregular: true,
  flightChange: { kind: 'delay', sequence: 1, previousDepartDateTime: '2027-01-27T08:30:00+09:00', previousArrivalDateTime: '2027-01-27T10:20:00+09:00' },
}
const reservation = (pnr: string, s: object) => ({ pnr, bookingDate: '2026-10-06', statusCode: 'CONFIRMED', status: 'Confirmed', isOutdated: false, passengers: [], segments: [s] })

describe('flight changes on the bookings page', () => {
  it('shows the time before a schedule change and a cancellation by the airline, in red', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/reservations': () =>
        json({ reservations: [reservation('RES1AA', rescheduled), reservation('RES2BB', cancelled)], perPage: 10, currentPage: 1, total: 2, totalPages: 1 }),
    })
    renderApp('/bookings?lang=en')
    const moved = await screen.findByRole('article', { name: /RES1AA/ })
    expect(within(moved).getByText('Changed by the airline: was 08:30')).toBeTruthy()
    expect(within(moved).getByText('09:05')).toBeTruthy()
    const gone = screen.getByRole('article', { name: /RES2BB/ })
    const note = within(gone).getByText('The airline has cancelled this flight.')
    expect(note.className).toContain('flight__live--late')
    expect(gone.querySelector('.flight--cancelled')).not.toBeNull()
    // A cancellation keeps its time: no "was" line.
    expect(within(gone).queryByText(/was/)).toBeNull()
  })

  it('shows a delay as the airline apps do: the new times large with +1 on the next day, the schedule struck through beside them', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/reservations': () => json({ reservations: [reservation('CTS4EF', delayed)], perPage: 10, currentPage: 1, total: 1, totalPages: 1 }),
    })
    renderApp('/bookings?lang=en')
    const card = await screen.findByRole('article', { name: /CTS4EF/ })
    const [dep, arr] = Array.from(card.querySelectorAll('.flight__time'))
    expect(dep.textContent).toBe('Departure 23:45')
    expect(dep.getAttribute('datetime')).toBe('2027-01-27T23:45:00+09:00')
    expect(arr.textContent).toBe('Arrival 01:35+1 (+1 day)')
    expect(arr.getAttribute('datetime')).toBe('2027-01-28T01:35:00+09:00')
    expect(dep.className).toContain('flight__time--late')
    const struck = Array.from(card.querySelectorAll('s.flight__was')).map((e) => e.textContent)
    expect(struck).toEqual(['Scheduled 08:30', 'Scheduled 10:20'])
    // The duration is the new one's; the old "Estimated" line is gone.
    expect(within(card).getByText('1 h 50 min')).toBeTruthy()
    expect(within(card).queryByText(/Estimated/)).toBeNull()
  })
})

// MM171 KIX 23:30 → CTS 01:20 the next day, delayed to 00:40: the flight now leaves on the 27th.
const pastMidnight = {
  ...base,
  key: '1',
  flight: 'MM171',
  flightNumber: '171',
  destinationAirportCode: 'CTS',
  destinationAirport: 'Sapporo (New Chitose)',
  departDateTime: '2027-01-26T23:30:00+09:00',
  arrivalDateTime: '2027-01-27T01:20:00+09:00',
  estimatedDepartDateTime: '2027-01-27T00:40:00+09:00',
  estimatedArrivalDateTime: '2027-01-27T02:30:00+09:00',
  flightStatus: 'NOT_YET_DEPARTED_WITH_DELAY',
  flightStatusLabel: 'Delayed',
  isIrregular: true,
  flightChange: { kind: 'gate', sequence: 2, previousDepartDateTime: '2027-01-26T23:30:00+09:00', previousArrivalDateTime: '2027-01-27T01:20:00+09:00', previousGate: '12' },
}
const cancelledRegated = { ...cancelled, flightChange: { ...cancelled.flightChange, previousGate: '12' } }

describe('a flight card after a change', () => {
  const stub = () =>
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/reservations': () =>
        json({ reservations: [reservation('LATE01', pastMidnight), reservation('GONE01', cancelledRegated)], perPage: 10, currentPage: 1, total: 2, totalPages: 1 }),
    })

  it.each([
    ['en', 'Wed, Jan 27, 2027', 'Tue, Jan 26, 2027', 'Gate 31', 'was gate 12', 'Scheduled'],
    ['jp', '2027年1月27日(水)', '2027年1月26日(火)', '31\u2060番ゲート', '変更前の12\u2060番ゲート', '定刻'],
    ['th', 'พ. 27 ม.ค. 2570', 'อ. 26 ม.ค. 2570', 'ประตู 31', 'ประตูเดิม 12', 'ตามกำหนดการ'],
  ])('%s: a delay past midnight on its new date, the old gate struck through, no gate when cancelled', async (lang, newDate, oldDate, gate, wasGate, scheduled) => {
    stub()
    renderApp(`/bookings?lang=${lang}`)
    const card = await screen.findByRole('article', { name: /LATE01/ })
    // the new date, the scheduled one struck through beside it (said as the schedule)
    expect(card.querySelector('.flight__date')?.textContent).toBe(newDate)
    expect(card.querySelector('.flight__date')?.getAttribute('datetime')).toBe('2027-01-27')
    expect(card.querySelector('s.flight__was-date')?.textContent).toBe(`${scheduled} ${oldDate}`)
    // the new times count from the new date: no "+1" on the departure, none on the arrival of the same day
    const [dep, arr] = Array.from(card.querySelectorAll('.flight__time--late'))
    expect(dep.textContent).toMatch(/00:40$/)
    expect(arr.textContent).toMatch(/02:30$/)
    expect(card.querySelectorAll('.flight__time--late .flight__plus')).toHaveLength(0)
    // the schedule keeps its own date's count: its arrival was the next day
    const struck = Array.from(card.querySelectorAll('.flight__times s.flight__was'))
    expect(struck[0].textContent).toMatch(/23:30$/)
    expect(struck[1].querySelector('.flight__plus [aria-hidden]')?.textContent).toBe('+1')
    // the gate: the new one, the old one struck through with its words for a screen reader
    const where = card.querySelector('.flight__gate')!
    const del = where.querySelector('del')!
    expect(where.textContent).toBe(`${gate} ${wasGate}12`)
    expect(del.querySelector('.visually-hidden')?.textContent).toBe(wasGate)
    expect(del.querySelector('[aria-hidden="true"]')?.textContent).toBe('12')
    // cancelled: no gate at all, neither new nor old
    const gone = screen.getByRole('article', { name: /GONE01/ })
    expect(gone.querySelector('.flight__gate')).toBeNull()
    expect(gone.querySelector('del')).toBeNull()
    expect(gone.textContent).not.toContain(gate)
    expect(gone.querySelector('.flight__where')?.textContent).not.toBe('')
  })
})

describe('a flight\'s duration', () => {
  const flight = (pnr: string, dep: string, arr: string) =>
    reservation(pnr, { ...base, key: '1', flight: 'MM300', flightNumber: '300', departDateTime: dep, arrivalDateTime: arr, flightStatus: 'ON_TIME', flightStatusLabel: 'On time', isIrregular: false })
  for (const [lang, hours, mins, both] of [
    ['en', '2 h', '45 min', '1 h 5 min'],
    ['jp', '2時間', '45分', '1時間5分'],
  ] as const) {
    it(`${lang}: reads whole hours without "0 min" and a short flight without "0 h"`, async () => {
      stubFetch({
        'GET /api/session/info': MEMBER_SESSION,
        'GET /api/masters/airports': [],
        'GET /api/reservations': () => json({
          reservations: [
            flight('HOURS1', '2027-02-01T08:00:00+09:00', '2027-02-01T10:00:00+09:00'),
            flight('MINS01', '2027-02-02T08:00:00+09:00', '2027-02-02T08:45:00+09:00'),
            flight('BOTH01', '2027-02-03T08:00:00+09:00', '2027-02-03T09:05:00+09:00'),
          ],
          perPage: 10, currentPage: 1, total: 3, totalPages: 1,
        }),
      })
      renderApp(`/bookings?lang=${lang}`)
      const text = async (pnr: string) =>
        (await screen.findByRole('article', { name: new RegExp(pnr) })).querySelector('.flight__duration')?.textContent?.replace(/\s/g, ' ')
      expect(await text('HOURS1')).toBe(hours)
      expect(await text('MINS01')).toBe(mins)
      expect(await text('BOTH01')).toBe(both)
    })
  }
})
