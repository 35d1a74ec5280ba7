import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { stubFetch, json } from '@/test/fetchStub'

const segment = {
  key: '1',
  statusCode: 'CONFIRMED',
  status: 'Confirmed',
  flight: 'MM101',
  isShowHotelLink: false,
  originAirportCode: 'NRT',
  originAirport: 'Tokyo (Narita)',
  originTerminal: '3',
  originGate: '',
  destinationAirportCode: 'TPE',
  destinationAirport: 'Taipei (Taoyuan)',
  destinationTerminal: '1',
  departDateTime: '2026-11-23T09:15:00+09:00',
  arrivalDateTime: '2026-11-23T12:15:00+08:00',
  flightNumber: '101',
  flightStatus: 'NOT_YET_DEPARTED_WITH_DELAY',
  flightStatusLabel: 'Delayed (not yet departed)',
  isCancelled: false,
  isPast: false,
  isIrregular: true,
  certificates: ['delay'],
}
const reservations = [
  { pnr: 'TPE3XY', bookingDate: '2026-10-06', statusCode: 'CONFIRMED', status: 'Confirmed', isOutdated: false, passengers: [], segments: [segment] },
  {
    pnr: 'OLD9ZZ',
    bookingDate: '2026-01-24',
    statusCode: 'CONFIRMED',
    status: 'Confirmed',
    isOutdated: true,
    passengers: [],
    segments: [{ ...segment, key: '1', flight: 'MM153', isIrregular: false, flightStatus: 'ARRIVED', certificates: ['boarding'], isCancelled: true }],
  },
]

describe('bookings page', () => {
  it('searches with the defaults, marks irregular flights in words, hides actions of outdated bookings and pages with the last condition', async () => {
    const queries: URLSearchParams[] = []
    stubFetch({
      'GET /api/session': 204,
      'GET /api/masters/airports': [{ code: 'KIX', country: 'JP', name: 'Kansai', nameAlt: '', shortName: 'Osaka (Kansai)', shortNameAlt: '', nickName: '', nickNameAlt: '', timeZone: '+09:00' }],
      'GET /api/reservations': (req) => {
        queries.push(req.url.searchParams)
        const page = Number(req.url.searchParams.get('page') ?? '1')
        return json({ reservations, perPage: 10, currentPage: page, total: 12, totalPages: 2 })
      },
    })
    renderApp('/bookings?lang=en')
    const first = await screen.findByRole('article', { name: /TPE3XY/ })
    expect(within(first).getByText('Delayed (not yet departed)')).toBeTruthy()
    expect(within(first).getByRole('link', { name: /Delay certificate/ }).getAttribute('href')).toBe('/api/reservations/TPE3XY/1/delay_certificate?lang=en')
    expect(within(first).getByRole('link', { name: /Itinerary/ })).toBeTruthy()
    const old = screen.getByRole('article', { name: /OLD9ZZ/ })
    expect(within(old).queryByRole('link')).toBeNull()
    expect(within(old).getByText(/more than 180 days/)).toBeTruthy()
    expect(within(old).getByText('Cancelled')).toBeTruthy()

    expect(queries[0].get('form')).toBe('search')
    expect(queries[0].get('status')).toBe('ACTIVE')
    expect(queries[0].get('order')).toBe('asc')
    expect(queries[0].get('bookingDateFrom')).toMatch(/^\d{4}-\d{2}-\d{2}$/)

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(queries.at(-1)?.get('page')).toBe('2'))
    expect(queries.at(-1)?.get('bookingDateFrom')).toBe(queries[0].get('bookingDateFrom'))
  })

  it('shows the client-side rule before calling the server', async () => {
    const stub = stubFetch({
      'GET /api/session': 204,
      'GET /api/masters/airports': [],
      'GET /api/reservations': json({ reservations: [], perPage: 10, currentPage: 1, total: 0, totalPages: 0 }),
    })
    renderApp('/bookings?lang=en')
    await screen.findByText('No bookings match these conditions.')
    const before = stub.called('GET /api/reservations')
    fireEvent.change(screen.getByLabelText(/Booked from/), { target: { value: '2011-05-01' } })
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    expect(await screen.findByText('Select a date after 2012.')).toBeTruthy()
    expect(stub.called('GET /api/reservations')).toBe(before)
  })

  it('clears a to-date that precedes its from-date (spec §5)', async () => {
    stubFetch({
      'GET /api/session': 204,
      'GET /api/masters/airports': [],
      'GET /api/reservations': json({ reservations: [], perPage: 10, currentPage: 1, total: 0, totalPages: 0 }),
    })
    renderApp('/bookings?lang=en')
    await screen.findByText('No bookings match these conditions.')
    const from = screen.getByLabelText(/Departing from/) as HTMLInputElement
    const to = screen.getByLabelText(/Departing to/) as HTMLInputElement
    fireEvent.change(from, { target: { value: '2026-03-10' } })
    fireEvent.change(to, { target: { value: '2026-03-01' } })
    await waitFor(() => expect(to.value).toBe(''))
    fireEvent.change(to, { target: { value: '2026-03-20' } })
    expect(to.value).toBe('2026-03-20')
    // Moving the from-date past it clears it too.
    fireEvent.change(from, { target: { value: '2026-04-01' } })
    await waitFor(() => expect(to.value).toBe(''))
    const bookedTo = screen.getByLabelText(/Booked to/) as HTMLInputElement
    fireEvent.change(bookedTo, { target: { value: '2012-01-02' } })
    await waitFor(() => expect(bookedTo.value).toBe(''))
  })
})
