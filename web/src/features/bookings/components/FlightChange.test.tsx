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
