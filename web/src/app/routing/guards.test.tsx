import { describe, expect, it } from 'vitest'
import { render, screen, waitFor } from '@testing-library/react'
import { App, createAppServices } from '@/app/App'
import { preloadPage } from '@/app/routes'
import { renderApp, currentUrl } from '@/test/renderApp'
import { json, stubFetch, MEMBER_SESSION, VISITOR_SESSION } from '@/test/fetchStub'
import { rememberSession } from '@/api/sessionHint'

describe('routing rules', () => {
  it('sends a logged-out visitor of a member page to /login with the full original path', async () => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION })
    renderApp('/bookings?pnr=ABC123&lang=jp')
    await screen.findByRole('heading', { level: 1, name: 'ログイン' })
    const url = new URL(window.location.href)
    expect(url.pathname).toBe('/login')
    expect(url.searchParams.get('redirect')).toBe('/bookings?pnr=ABC123&lang=jp')
    expect(url.searchParams.get('lang')).toBe('jp')
  })

  it('sends a logged-in member away from an anonymous page to /', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION })
    renderApp('/login?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Hello, Hanako Sora' })
    expect(currentUrl()).toBe('/?lang=en')
  })

  it('adds the lang query parameter from the stored language when missing', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION })
    window.localStorage.setItem('members.lang', 'kr')
    renderApp('/account')
    await screen.findByRole('heading', { level: 1, name: '회원 정보' })
    expect(currentUrl()).toBe('/account?lang=kr')
  })

  it("keeps the member menu bar's room, hidden and inert, while a member page checks the session", async () => {
    let answer = () => {}
    stubFetch({ 'GET /api/session/info': () => new Promise<Response>((r) => (answer = () => r(json(MEMBER_SESSION)))) })
    renderApp('/bookings?lang=en')
    const reserved = await waitFor(() => {
      const nav = document.querySelector('nav.nav')
      if (!nav) throw new Error('no menu bar yet')
      return nav as HTMLElement
    })
    expect(reserved.classList.contains('nav--reserved')).toBe(true)
    expect(reserved.hasAttribute('inert')).toBe(true)
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).toBeNull() // hidden from assistive technology
    answer()
    await waitFor(() => expect(document.querySelector('nav.nav--reserved')).toBeNull())
    expect(document.querySelector('nav.nav')!.hasAttribute('inert')).toBe(false)
  })

  it("starts a guarded first address's session check before the first render, and checks it once", async () => {
    const api = stubFetch({ 'GET /api/session/info': MEMBER_SESSION })
    const services = createAppServices()
    void preloadPage('/bookings', 'en', services.queryClient)
    // Asked for before anything rendered.
    expect(services.queryClient.getQueryState(['session'])?.fetchStatus).toBe('fetching')
    window.history.replaceState(null, '', '/bookings?lang=en')
    render(<App services={services} />)
    await screen.findByRole('heading', { level: 1, name: 'Bookings' })
    expect(api.called('GET /api/session/info')).toBe(1)
  })

  it("preloadPage settles once a member's first page has its data, and at once for a visitor the guard sends away", async () => {
    let answerCountries = () => {}
    const countries = new Promise<Response>((r) => (answerCountries = () => r(json([{ code: 'JP', name: 'Japan' }]))))
    const api = stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/masters/countries': () => countries })
    const member = createAppServices()
    let settled = false
    void preloadPage('/account', 'en', member.queryClient).then(() => (settled = true))
    await waitFor(() => expect(member.queryClient.getQueryData(['session'])).toBe(true))
    // the page's data has been asked for, and its answer is held back
    await waitFor(() => expect(api.called('GET /api/masters/countries')).toBe(1))
    expect(settled).toBe(false) // the country list is still on its way
    answerCountries()
    await waitFor(() => expect(settled).toBe(true))

    stubFetch({ 'GET /api/session/info': VISITOR_SESSION, 'GET /api/masters/countries': () => new Promise<Response>(() => {}) })
    const visitor = createAppServices()
    // Sent to the login page: the account page's data is not waited for.
    await preloadPage('/account', 'en', visitor.queryClient)
    expect(visitor.queryClient.getQueryData(['session'])).toBe(false)
  })

  it("starts the points page's first data before the first render, and asks for each once: summary, first search, timeline and this month's expiring points", async () => {
    const api = stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/peachpoints/summary': [],
      'GET /api/peachpoints': { peachpoints: [], perPage: 10, currentPage: 1, total: 0, totalPages: 0 },
      'GET /api/peachpoints/timeline': { months: [] },
      'GET /api/peachpoints/expired_in': { month: '2026-11', currencyCode: 'JPY', amount: 3000, peachpoints: [] },
    })
    const calls = ['GET /api/peachpoints/summary', 'GET /api/peachpoints', 'GET /api/peachpoints/timeline', 'GET /api/peachpoints/expired_in']
    const services = createAppServices()
    window.history.replaceState(null, '', '/points?lang=en')
    await preloadPage('/points', 'en', services.queryClient)
    // Nothing rendered yet: each has been asked for.
    for (const call of calls) expect(api.called(call), call).toBe(1)
    render(<App services={services} />)
    await screen.findByText('3,000', { exact: false })
    await screen.findByRole('search')
    // The page takes the answers: not asked again on mount.
    for (const call of calls) expect(api.called(call), call).toBe(1)
  })

  describe("a member page's first data starts before the first render, and each call is asked once", () => {
    const range = (begin: string, end: string) => ({ begin, end })
    const plans = [{
      id: 'gp-all', name: 'Peach GoGo Pass', nameAlt: 'All routes',
      periods: [{ id: 'gp-all-next', availablePeriodToBoard: range('2027-01-10', '2027-04-10'), availablePeriodToBook: range('2026-12-20', '2027-04-01'),
        currencyCode: 'JPY', price: { happy: 54800, happlus: 74800 }, lotteryQuota: 50 }],
    }]
    const products = [{ id: 'p', name: 'Kansai Discovery Pass', description: 'd', periods: [{ id: 'w', description: 'Winter',
      availablePeriodToBoard: range('2026-12-04', '2027-03-03'), availablePeriodToBook: range('2026-11-20', '2027-02-23'),
      plan: { lite: { availableDaysAfterFirstUse: 7, availableNumberOfUse: 4, currencyCode: 'JPY', pricePerPerson: 19800 },
        standard: { availableDaysAfterFirstUse: 14, availableNumberOfUse: 8, currencyCode: 'JPY', pricePerPerson: 32800 } } }] }]
    const noBookings = { reservations: [], perPage: 10, currentPage: 1, total: 0, totalPages: 0 }
    const stubs = {
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/gogo_pass_status': { isGogoPassPublic: true, isGogoPassPurchasable: true, isGogoPassLotteryPhase: false, isGogoPassMaintenance: false },
      'GET /api/coupon_ticket_status': { isCouponTicketPublic: true },
      'GET /api/payments/pending': { payments: [] },
      'GET /api/gogo_pass': { gogoPasses: plans, purchasable: true, maintenance: false, wins: [] },
      'GET /api/user/gogo_pass': { gogoPasses: [], entries: [] },
      'GET /api/user/coupon_ticket': { couponTickets: [] },
      'GET /api/coupon_ticket': { couponTickets: products },
      'GET /api/user/passengers': { passengers: [] },
      'GET /api/cc/pending': { pending: false },
      'GET /api/cc': { creditcards: [] },
      'GET /api/reservations': noBookings,
      'GET /api/masters/airports': [{ code: 'KIX', shortName: 'Osaka (Kansai)', localName: '' }],
      'GET /api/calendar/subscription': { active: false },
      'POST /api/peachpoints/buy/preapply': { productType: 'peachpoints', currencies: [{ currencyCode: 'JPY', amounts: [1000, 3000] }] },
      'GET /api/user/email_change': { pending: null },
    } as const

    // Every member page's menu asks for the payments left for later.
    const MENU = ['GET /api/payments/pending']
    const pages: { path: string; calls: Record<string, number>; shown: () => Promise<unknown> }[] = [
      // "/": the changed and the nearest bookings (two searches), the pass panel's passes, coupons and catalogue.
      { path: '/', calls: { 'GET /api/reservations': 2, 'GET /api/user/gogo_pass': 1, 'GET /api/user/coupon_ticket': 1, 'GET /api/gogo_pass': 1 },
        shown: () => screen.findByRole('navigation', { name: 'Shortcuts' }) },
      { path: '/bookings', calls: { 'GET /api/reservations': 1, 'GET /api/masters/airports': 1, 'GET /api/calendar/subscription': 1 },
        shown: () => screen.findByText('No bookings match these conditions.') },
      { path: '/gogo-pass', calls: { 'GET /api/gogo_pass': 1, 'GET /api/user/gogo_pass': 1 },
        shown: () => screen.findByRole('radiogroup', { name: 'Fare type' }) },
      { path: '/coupon-pass', calls: { 'GET /api/coupon_ticket': 1, 'GET /api/masters/countries': 1, 'GET /api/user/passengers': 1, 'GET /api/cc/pending': 1 },
        shown: () => screen.findByRole('button', { name: 'Add a passenger' }) },
      { path: '/points/sale', calls: { 'POST /api/peachpoints/buy/preapply': 1 },
        shown: () => screen.findByRole('heading', { level: 1, name: 'Buy Peach Points' }) },
      { path: '/account', calls: { 'GET /api/user/email_change': 1, 'GET /api/masters/countries': 1 },
        shown: () => screen.findByRole('heading', { level: 1, name: 'Account' }) },
    ]
    it.each(pages)('$path', async ({ path, calls, shown }) => {
      const api = stubFetch(stubs)
      const expected: Record<string, number> = { ...calls }
      for (const call of MENU) expected[call] = 1
      const services = createAppServices()
      window.history.replaceState(null, '', `${path}?lang=en`)
      await preloadPage(path, 'en', services.queryClient)
      // Nothing rendered yet: each has been asked for.
      for (const [call, n] of Object.entries(expected)) expect(api.called(call), call).toBe(n)
      render(<App services={services} />)
      await shown()
      // Settled: nothing under way, and every query the page shows has its answer.
      const { queryClient } = services
      await waitFor(() => {
        expect(queryClient.isFetching()).toBe(0)
        const waiting = queryClient.getQueryCache().findAll({ type: 'active' }).filter((q) => q.state.status !== 'success')
        expect(waiting.map((q) => q.queryKey)).toEqual([])
      })
      // The page took the answers: not asked again on mount.
      for (const [call, n] of Object.entries(expected)) expect(api.called(call), call).toBe(n)
    })

    it.each(pages.map((p) => p.path))("%s without a session: the early requests' 403s open no dialog, the visitor goes to the login page", async (path) => {
      const refused = Object.fromEntries(Object.keys(stubs).filter((k) => !k.includes('_status') && !k.includes('/session/')).map((k) => [k, 403]))
      const api = stubFetch({ ...stubs, ...refused, 'GET /api/session/info': VISITOR_SESSION, 'GET /api/user': 403 })
      rememberSession(true) // the hint says a session, but it has ended since
      renderApp(`${path}?lang=en`, { preload: true })
      await waitFor(() => expect(currentUrl()).toMatch(/^\/login\?/))
      await screen.findByRole('button', { name: 'Log in' })
      // They were sent (and refused) beside the session check.
      expect(api.called('GET /api/payments/pending')).toBe(1)
      expect(screen.queryByRole('dialog')).toBeNull()
      expect(screen.queryByText('Please try to log in again')).toBeNull()
    })
  })

  it('does not check the session on a static page, first address or not', async () => {
    const api = stubFetch({ 'GET /api/session/info': VISITOR_SESSION })
    const { services } = renderApp('/sorry?lang=en', { preload: true })
    await screen.findByRole('heading', { level: 1, name: 'Sorry, the site is busy' })
    // The footer's session info only (once), never the session check.
    expect(api.called('GET /api/session/info')).toBeLessThanOrEqual(1)
    expect(services.queryClient.getQueryData(['session'])).toBeUndefined()
    expect(currentUrl()).toBe('/sorry?lang=en')
  })

  it('shows the 404 page for an unknown path', async () => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION })
    renderApp('/no-such-page?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Page not found' })
  })

  it('logs in and returns to the redirect target', async () => {
    let loggedIn = false
    const api = stubFetch({
      'GET /api/session/info': () => json({ ...MEMBER_SESSION, loggedIn }),
      'POST /api/session': ({ headers, body }) => {
        expect(headers.get('X-Csrf-Token')).toBe('csrf-1')
        expect(JSON.parse(body ?? '{}')).toEqual({ email: 'demo@example.com', password: 'Demo1234' })
        loggedIn = true
        return new Response(null, { status: 204 })
      },
    })
    const { getByLabelText, getByRole } = renderApp('/login?redirect=%2Fpoints%3Fx%3D1&lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Log in' })
    const { fireEvent } = await import('@testing-library/react')
    fireEvent.input(getByLabelText(/E-mail address/), { target: { value: 'demo@example.com' } })
    fireEvent.input(getByLabelText(/Password/), { target: { value: 'Demo1234' } })
    fireEvent.click(getByRole('button', { name: 'Log in' }))
    await waitFor(() => expect(currentUrl()).toBe('/points?x=1&lang=en'))
    expect(api.called('POST /api/session')).toBe(1)
  })

  it('ignores an open-redirect attempt after login', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION })
    renderApp('/login?redirect=%2F%2Fevil.example.com%2Fx&lang=en')
    await waitFor(() => expect(currentUrl()).toBe('/?lang=en'))
  })
})
