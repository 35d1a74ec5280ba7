import { describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { currentUrl, renderApp } from '@/test/renderApp'
import { pageNavigation } from '@/app/pageNavigation'
import { stubFetch, json, MEMBER_SESSION } from '@/test/fetchStub'

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
      'GET /api/session/info': MEMBER_SESSION,
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
    // The next trip comes first, the search form after the results (on a phone the trip is seen first).
    const searchForm = await screen.findByRole('search', { name: 'Search bookings' })
    expect(first.compareDocumentPosition(searchForm) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    // Documents and actions sit in one row; the certificates are in the "More" menu.
    expect(within(first).queryByRole('link', { name: /Delay certificate/ })).toBeNull()
    fireEvent.click(within(first).getByRole('button', { name: 'More' }))
    expect(within(first).getByRole('menuitem', { name: /Delay certificate/ }).getAttribute('href')).toBe('/api/reservations/TPE3XY/1/delay_certificate?lang=en')
    expect(within(first).getByRole('link', { name: /Itinerary/ })).toBeTruthy()
    // The addressee is asked only once the receipt is requested.
    expect(within(first).queryByLabelText('Addressee for the receipt')).toBeNull()
    fireEvent.click(within(first).getByRole('button', { name: 'Receipt (PDF)' }))
    expect(within(first).getByLabelText('Addressee for the receipt')).toBeTruthy()
    expect(within(first).getByRole('button', { name: 'Change booking' })).toBeTruthy()
    const old = screen.getByRole('article', { name: /OLD9ZZ/ })
    expect(within(old).queryByRole('link')).toBeNull()
    expect(within(old).getByText(/more than 180 days/)).toBeTruthy()
    expect(within(old).getByText('Cancelled')).toBeTruthy()

    expect(queries[0].get('form')).toBe('search')
    expect(queries[0].get('status')).toBe('ACTIVE')
    expect(queries[0].get('order')).toBe('asc')
    expect(queries[0].get('bookingDateFrom')).toMatch(/^\d{4}-\d{2}-\d{2}$/)

    // The next page starts at the list's top (the pager sits at the foot of the page).
    const scrolled = vi.fn()
    Element.prototype.scrollIntoView = scrolled
    fireEvent.click(await screen.findByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(queries.at(-1)?.get('page')).toBe('2'))
    expect(queries.at(-1)?.get('bookingDateFrom')).toBe(queries[0].get('bookingDateFrom'))
    await waitFor(() => expect(scrolled).toHaveBeenCalledTimes(1))
    expect(scrolled.mock.contexts[0]).toBe(screen.getByRole('region', { name: 'Search results' }))
  })

  it('shows the client-side rule before calling the server', async () => {
    const stub = stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
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

  it('clears a to-date that precedes its from-date when the field is left, and says why', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/reservations': json({ reservations: [], perPage: 10, currentPage: 1, total: 0, totalPages: 0 }),
    })
    renderApp('/bookings?lang=en')
    await screen.findByText('No bookings match these conditions.')
    const from = screen.getByLabelText(/Departing from/) as HTMLInputElement
    const to = screen.getByLabelText(/Departing to/) as HTMLInputElement
    // The fields are written the English way, whatever the browser's locale.
    expect(from.placeholder).toBe('MMM D, YYYY')
    fireEvent.change(from, { target: { value: '3/10/2026' } })
    fireEvent.blur(from)
    expect(from.value).toBe('Mar 10, 2026')
    // Typed character by character: nothing is cleared while the date is incomplete.
    for (const partial of ['3', '3/', '3/1', '3/1/', '3/1/2', '3/1/20', '3/1/202']) {
      fireEvent.change(to, { target: { value: partial } })
      expect(to.value).toBe(partial)
    }
    fireEvent.change(to, { target: { value: '3/1/2026' } })
    expect(to.value).toBe('3/1/2026')
    fireEvent.blur(to)
    await waitFor(() => expect(to.value).toBe(''))
    expect(screen.getByText('Cleared: this date was before the start date.')).toBeTruthy()
    fireEvent.change(to, { target: { value: 'Mar 20, 2026' } })
    fireEvent.blur(to)
    expect(to.value).toBe('Mar 20, 2026')
    expect(screen.queryByText('Cleared: this date was before the start date.')).toBeNull()
    // Moving the from-date past it clears it too.
    fireEvent.change(from, { target: { value: '2026-04-01' } })
    fireEvent.blur(from)
    expect(from.value).toBe('Apr 1, 2026')
    await waitFor(() => expect(to.value).toBe(''))
  })

  it('shows and reads dates in the member\'s language, and sends them as ISO dates', async () => {
    const queries: URLSearchParams[] = []
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/reservations': (req) => {
        queries.push(req.url.searchParams)
        return json({ reservations: [], perPage: 10, currentPage: 1, total: 0, totalPages: 0 })
      },
    })
    renderApp('/bookings?lang=th')
    const from = (await screen.findByLabelText(/วันที่จอง \(ตั้งแต่\)/)) as HTMLInputElement
    await waitFor(() => expect(from.value).toMatch(/^\d{1,2} \S+ 25\d\d$/))
    fireEvent.change(from, { target: { value: '1/10/2569' } })
    fireEvent.blur(from)
    expect(from.value).toBe('1 ต.ค. 2569')
    fireEvent.submit(screen.getByRole('search'))
    await waitFor(() => expect(queries.at(-1)?.get('bookingDateFrom')).toBe('2026-10-01'))
  })

  it('sends every submit, keeps results and condition on a 400, shows an empty list on a 500', async () => {
    let answer: 'ok' | '400' | '500' = 'ok'
    const queries: URLSearchParams[] = []
    const stub = stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/reservations': (req) => {
        queries.push(req.url.searchParams)
        if (answer === '400') return json({ validationErrors: { pnr: ['Use single-byte letters and digits only.'] } }, 400)
        if (answer === '500') return json({ errorKey: 'x' }, 500)
        return json({ reservations, perPage: 10, currentPage: 1, total: 2, totalPages: 1 })
      },
    })
    renderApp('/bookings?lang=en')
    await screen.findByRole('article', { name: /TPE3XY/ })
    const search = screen.getByRole('button', { name: 'Search' })
    // The same condition again still asks the server.
    const before = stub.called('GET /api/reservations')
    fireEvent.click(search)
    await waitFor(() => expect(stub.called('GET /api/reservations')).toBe(before + 1))
    fireEvent.click(search)
    await waitFor(() => expect(stub.called('GET /api/reservations')).toBe(before + 2))
    await screen.findByRole('article', { name: /TPE3XY/ })

    // A 400: the errors show, the previous results stay.
    answer = '400'
    fireEvent.click(screen.getByLabelText('All bookings'))
    fireEvent.click(search)
    expect((await screen.findAllByText('Use single-byte letters and digits only.')).length).toBeGreaterThan(0)
    fireEvent.click(await screen.findByRole('button', { name: 'Close' }))
    expect(screen.getByRole('article', { name: /TPE3XY/ })).toBeTruthy()
    expect(screen.getByText('2 bookings found')).toBeTruthy()

    // A 500: an empty list, no error toast.
    answer = '500'
    fireEvent.click(search)
    expect(await screen.findByText('No bookings match these conditions.')).toBeTruthy()
    expect(screen.queryByRole('article', { name: /TPE3XY/ })).toBeNull()
    expect(screen.queryByText('Processing was interrupted because an error occurred.')).toBeNull()
    expect(queries.at(-1)?.get('status')).toBe('all')
  })

  it('offers no "Change booking" for a booking whose flights have all departed', async () => {
    const flown = { ...reservations[0], pnr: 'FLOWN1', segments: [{ ...segment, isPast: true, isIrregular: false, flightStatus: 'ARRIVED', certificates: ['boarding'] }] }
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/reservations': json({ reservations: [flown], perPage: 10, currentPage: 1, total: 1, totalPages: 1 }),
    })
    renderApp('/bookings?lang=en')
    const card = await screen.findByRole('article', { name: /FLOWN1/ })
    expect(within(card).getByText('Flown')).toBeTruthy()
    expect(within(card).getByRole('link', { name: /Itinerary/ })).toBeTruthy()
    expect(within(card).queryByRole('button', { name: 'Change booking' })).toBeNull()
  })

  it('shows a booking added by its number in the list at once, with the last condition', async () => {
    let added = false
    const queries: URLSearchParams[] = []
    const extra = { ...reservations[0], pnr: 'NEW1AB' }
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/reservations': (req) => {
        queries.push(req.url.searchParams)
        const list = added ? [extra, ...reservations] : reservations
        return json({ reservations: list, perPage: 10, currentPage: 1, total: list.length, totalPages: 1 })
      },
      'POST /api/reservations': () => {
        added = true
        return json({ pnr: 'NEW1AB' })
      },
    })
    renderApp('/bookings?lang=en')
    await screen.findByRole('article', { name: /TPE3XY/ })
    expect(screen.queryByRole('article', { name: /NEW1AB/ })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Add a booking' }))
    const form = await screen.findByRole('form', { name: 'Add a booking' })
    fireEvent.change(within(form).getByLabelText(/Booking number/), { target: { value: 'new1ab' } })
    fireEvent.change(within(form).getByLabelText(/last name/i), { target: { value: 'SMITH' } })
    fireEvent.submit(form)
    expect(await screen.findByRole('article', { name: /NEW1AB/ })).toBeTruthy()
    expect(queries).toHaveLength(2)
    expect(queries[1].get('status')).toBe(queries[0].get('status'))
  })

  it('puts "Add a booking" at the top of the page, above the search', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/reservations': json({ reservations, perPage: 10, currentPage: 1, total: 2, totalPages: 1 }),
    })
    renderApp('/bookings?lang=en')
    await screen.findByRole('article', { name: /TPE3XY/ })
    const open = screen.getByRole('button', { name: 'Add a booking' })
    const searchForm = screen.getByRole('search')
    expect(open.compareDocumentPosition(searchForm) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    fireEvent.click(open)
    expect(await screen.findByRole('form', { name: 'Add a booking' })).toBeTruthy()
    expect(document.title).toBe('Bookings | Peach Members')
  })

  it('shows the calendar block below the results only once the first search has answered (nothing below them moves)', async () => {
    let answer: (r: Response) => void = () => {}
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/calendar/subscription': { active: false },
      'GET /api/reservations': () => new Promise<Response>((resolve) => (answer = resolve)),
    })
    renderApp('/bookings?lang=en')
    await screen.findByText('Searching…', { selector: 'p' })
    // rendered (its own fetch runs) but not shown while the search is pending
    expect(screen.queryByRole('region', { name: 'Your flights in your calendar' })).toBeNull()
    answer(json({ reservations, perPage: 10, currentPage: 1, total: 2, totalPages: 1 }))
    await screen.findByRole('article', { name: /TPE3XY/ })
    expect(await screen.findByRole('region', { name: 'Your flights in your calendar' })).toBeTruthy()
  })

  it('goes to the booking site through single sign-on', async () => {
    const assign = vi.spyOn(pageNavigation, 'assign').mockImplementation(() => {})
    const stub = stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/reservations': json({ reservations: [], perPage: 10, currentPage: 1, total: 0, totalPages: 0 }),
      'POST /api/sso/booking': json({ url: 'https://booking.example.com/booking/search?lang=en' }),
    })
    renderApp('/bookings?lang=en')
    fireEvent.click(await screen.findByRole('button', { name: 'Search flights on the booking site' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://booking.example.com/booking/search?lang=en'))
    expect(stub.called('POST /api/sso/booking')).toBe(1)
  })

  it('"Change booking" goes to the booking site through single sign-on for that booking', async () => {
    const assign = vi.spyOn(pageNavigation, 'assign').mockImplementation(() => {})
    const bodies: unknown[] = []
    const stub = stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/reservations': json({ reservations: reservations.slice(0, 1), perPage: 10, currentPage: 1, total: 1, totalPages: 1 }),
      'POST /api/sso/booking': ({ body }) => {
        bodies.push(JSON.parse(body ?? '{}'))
        return json({ url: 'https://booking.example.com/booking/TPE3XY/edit?lang=en' })
      },
    })
    renderApp('/bookings?lang=en')
    const card = await screen.findByRole('article', { name: /TPE3XY/ })
    fireEvent.click(within(card).getByRole('button', { name: 'Change booking' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://booking.example.com/booking/TPE3XY/edit?lang=en'))
    expect(bodies).toEqual([{ pnr: 'TPE3XY' }])
    expect(stub.called('POST /api/reservations/TPE3XY/edit')).toBe(0)
  })

  it('keeps the search in the address: a search adds a history entry, Back shows the previous one again, the same search is sent again', async () => {
    const queries: URLSearchParams[] = []
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/reservations': (req) => {
        queries.push(req.url.searchParams)
        return json({ reservations: [], perPage: 10, currentPage: 1, total: 0, totalPages: 0 })
      },
    })
    const first = renderApp('/bookings?lang=en')
    await screen.findByText('No bookings match these conditions.')
    expect(currentUrl()).toBe('/bookings?lang=en') // the default search is not written
    const pnr = screen.getByLabelText(/Booking number/) as HTMLInputElement
    fireEvent.change(pnr, { target: { value: 'hnk7q2' } })
    fireEvent.click(screen.getByLabelText('All bookings'))
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() => expect(queries.at(-1)?.get('pnr')).toBe('HNK7Q2'))
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('pnr')).toBe('hnk7q2'))
    const url = new URLSearchParams(window.location.search)
    expect(url.get('lang')).toBe('en')
    expect(url.get('status')).toBe('all')
    // The same search once more: sent again, no second history entry.
    const sent = queries.length
    const length = window.history.length
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() => expect(queries.length).toBe(sent + 1))
    expect(window.history.length).toBe(length)

    // Back: the default search again, in the form and sent.
    window.history.back()
    await waitFor(() => expect(currentUrl()).toBe('/bookings?lang=en'))
    await waitFor(() => expect(queries.at(-1)?.get('status')).toBe('ACTIVE'))
    expect(queries.at(-1)?.get('pnr')).toBeNull()
    await waitFor(() => expect((screen.getByLabelText(/Booking number/) as HTMLInputElement).value).toBe(''))
    expect((screen.getByLabelText('Upcoming flights') as HTMLInputElement).checked).toBe(true)

    // A reload of a written address searches what it says.
    first.unmount()
    renderApp('/bookings?lang=en&pnr=ABC123&bookingDateFrom=2026-01-01&bookingDateTo=2026-02-01&order=desc&page=2')
    await waitFor(() => expect(queries.at(-1)?.get('pnr')).toBe('ABC123'))
    expect(queries.at(-1)?.get('page')).toBe('2')
    expect(queries.at(-1)?.get('order')).toBe('desc')
  }, 45_000) // two page loads and a history step: slow on a loaded machine

})
