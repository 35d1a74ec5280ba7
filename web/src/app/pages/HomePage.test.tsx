import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { json, stubFetch, MEMBER_SESSION, VISITOR_SESSION } from '@/test/fetchStub'

describe('home page', () => {
  it('greets the member and shows an active topic banner', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/topic_banner': { target_page: 'home', is_active: true, message1: 'Sale now on', message2: 'Until Friday', href: 'https://example.com/sale' },
    })
    renderApp('/?lang=jp')
    await screen.findByRole('heading', { level: 1, name: 'こんにちは、Sora Hanako 様' })
    const banner = await screen.findByRole('complementary', { name: 'お知らせ' })
    expect(banner.textContent).toContain('Sale now on')
    for (const link of screen.getAllByRole('link', { name: /会員情報/ })) expect(link.getAttribute('href')).toBe('/account?lang=jp')
  })

  it('holds a placeholder until the upcoming flights arrive, then shows them with the shortcuts (nothing moves)', async () => {
    let answer: (r: Response) => void = () => {}
    const pending = new Promise<Response>((resolve) => (answer = resolve))
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/reservations': () => pending })
    renderApp('/?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Hello, Hanako Sora' })
    // While the list loads, its place is held and the shortcuts below it wait.
    expect(document.querySelector('.home__placeholder')).not.toBeNull()
    expect(screen.queryByRole('navigation', { name: 'Shortcuts' })).toBeNull()
    answer(json({ reservations: [], perPage: 5, currentPage: 1, total: 0, totalPages: 0 }))
    await screen.findByRole('navigation', { name: 'Shortcuts' })
    expect(document.querySelector('.home__placeholder')).toBeNull()
    expect(screen.getByRole('heading', { level: 2, name: 'Your upcoming flights' })).toBeTruthy()
  })

  it('holds the placeholder until the pass panel has its passes too (it shows with the flights)', async () => {
    let answer: (r: Response) => void = () => {}
    const pending = new Promise<Response>((resolve) => (answer = resolve))
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/coupon_ticket_status': { isCouponTicketPublic: true },
      'GET /api/user/coupon_ticket': { couponTickets: [] },
      'GET /api/user/gogo_pass': () => pending,
      'GET /api/reservations': { reservations: [], perPage: 5, currentPage: 1, total: 0, totalPages: 0 },
    })
    renderApp('/?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Hello, Hanako Sora' })
    // The flights have answered (rendered, still hidden); the passes have not.
    await screen.findByText('You have no upcoming flights.')
    expect(document.querySelector('.home__placeholder')).not.toBeNull()
    expect(screen.queryByRole('navigation', { name: 'Shortcuts' })).toBeNull()
    answer(json({ gogoPasses: [] }))
    await screen.findByRole('navigation', { name: 'Shortcuts' })
    expect(document.querySelector('.home__placeholder')).toBeNull()
    expect(screen.getByRole('heading', { level: 2, name: 'Your passes' })).toBeTruthy()
  })

  it('shows first, above the nearest flights, every booking the airline changed, whatever its date', async () => {
    const seg = (flight: string, dep: string, extra: object = {}) => ({
      key: '1', statusCode: 'CONFIRMED', status: 'Confirmed', flight, flightNumber: flight.slice(2), isShowHotelLink: false,
      originAirportCode: 'KIX', originAirport: 'Osaka (Kansai)', originTerminal: '1', originGate: '', destinationAirportCode: 'CTS',
      destinationAirport: 'Sapporo (New Chitose)', destinationTerminal: '1', departDateTime: `${dep}T08:30:00+09:00`, arrivalDateTime: `${dep}T10:20:00+09:00`,
      flightStatus: 'ON_TIME', flightStatusLabel: 'On time', isCancelled: false, isPast: false, isIrregular: false, certificates: [], ...extra,
    })
    const res = (pnr: string, s: object) => ({ pnr, bookingDate: '2026-10-06', statusCode: 'CONFIRMED', status: 'Confirmed', isOutdated: false, passengers: [], segments: [s] })
    const near = ['NEAR1A', 'NEAR2B', 'NEAR3C', 'NEAR4D', 'NEAR5E'].map((p, i) => res(p, seg('MM00' + i, `2026-12-0${i + 1}`)))
    const far = res('CTS4EF', seg('MM171', '2027-01-27', {
      estimatedDepartDateTime: '2027-01-27T23:45:00+09:00', estimatedArrivalDateTime: '2027-01-28T01:35:00+09:00',
      flightStatus: 'NOT_YET_DEPARTED_WITH_DELAY', flightStatusLabel: 'Delayed', isIrregular: true,
      flightChange: { kind: 'delay', sequence: 1, previousDepartDateTime: '2027-01-27T08:30:00+09:00', previousArrivalDateTime: '2027-01-27T10:20:00+09:00' },
    }))
    const asked: string[] = []
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/reservations': ({ url }) => {
        asked.push(url.search)
        const list = url.searchParams.get('changed') === 'true' ? [far] : near
        return json({ reservations: list, perPage: 5, currentPage: 1, total: list.length, totalPages: 1 })
      },
    })
    renderApp('/?lang=en')
    const section = await screen.findByRole('region', { name: 'Your upcoming flights' })
    await waitFor(() => expect(within(section).getAllByRole('article')).toHaveLength(6))
    const cards = within(section).getAllByRole('article').map((a) => a.getAttribute('aria-label') ?? a.textContent ?? '')
    expect(cards[0]).toMatch(/CTS4EF/)
    expect(cards[1]).toMatch(/NEAR1A/)
    expect(asked.some((q) => q.includes('changed=true') && !q.includes('lastDepartDateFrom'))).toBe(true)
    // The flights come before the shortcuts and the other panels.
    const nav = screen.getByRole('navigation', { name: 'Shortcuts' })
    expect(section.compareDocumentPosition(nav) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })

  it('shows the banner on its target page only, with a relative link kept in the app', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/masters/airports': [],
      'GET /api/reservations': { reservations: [], perPage: 10, currentPage: 1, total: 0, totalPages: 0 },
      'GET /api/topic_banner': { target_page: 'passengers', is_active: true, message1: 'New: add bookings', message2: '', href: '/bookings' },
      'GET /api/user/passengers': { passengers: [] },
    })
    renderApp('/?lang=en')
    await screen.findByRole('heading', { level: 1, name: /Hello/ })
    expect(screen.queryByRole('complementary', { name: 'News' })).toBeNull()
    fireEvent.click((await screen.findAllByRole('link', { name: /Saved passengers/ }))[0])
    const banner = await screen.findByRole('complementary', { name: 'News' })
    expect(within(banner).getByRole('link').getAttribute('href')).toBe('/bookings?lang=en')
  })

  it('adds the consent script and the analytics tag only when configured', async () => {
    stubFetch({
      'GET /api/session/info': VISITOR_SESSION,
      'GET /api/cookie_consent': { isCookieConsentRequired: true, consentScriptUrl: 'https://consent.example.com/c.js', analyticsTagUrl: 'https://tags.example.com/t.js' },
    })
    renderApp('/login?lang=en')
    await waitFor(() => expect(document.getElementById('cookie-consent-script')?.getAttribute('src')).toBe('https://consent.example.com/c.js'))
    expect(document.getElementById('analytics-tag')?.getAttribute('src')).toBe('https://tags.example.com/t.js')
    expect(screen.getByRole('link', { name: 'Cookie settings' })).toBeTruthy()
    document.getElementById('cookie-consent-script')?.remove()
    document.getElementById('analytics-tag')?.remove()
  })
})
