import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import type { components } from '@/api/schema'
import { stubFetch, json, MEMBER_SESSION } from '@/test/fetchStub'

const range = (begin: string, end: string) => ({ begin, end })
const coupon: components['schemas']['PurchasedCoupon'] = {
  id: 'c1', name: 'Kansai Discovery Pass', description: 'A book of flights.', availablePeriodToBoard: range('2026-12-04', '2027-03-03'),
  availablePeriodToBook: range('2026-11-20', '2027-02-23'), fareType: 'happlus', currencyCode: 'JPY', pricePerPerson: 32800,
  purchasedPrice: 65600, purchasedAt: '2026-11-14T06:00:00Z', purchaser: { lastname: 'Yamada', firstname: 'Hanako', birthday: '1988-04-12', gender: 'female' },
  availableDaysAfterFirstUse: 14, availableNumberOfUse: 8, numberOfUsed: 2, items: 2, passengers: [{ passengerType: 'adult', lastname: 'Yamada', firstname: 'Taro' }],
  refundFee: 18000, refundAmount: 47600, refundable: true, disabled: false,
}
const status = { 'GET /api/gogo_pass_status': { isGogoPassPublic: true, isGogoPassPurchasable: true, isGogoPassLotteryPhase: false, isGogoPassMaintenance: false }, 'GET /api/coupon_ticket_status': { isCouponTicketPublic: true } }

describe('my passes', () => {
  it('shows every coupon field and the refund amount before refunding', async () => {
    let refunded = false
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, ...status,
      'GET /api/user/gogo_pass': { gogoPasses: [], entries: [] },
      'GET /api/user/coupon_ticket': () => json({ couponTickets: [{ ...coupon, disabled: refunded, refundable: !refunded }] }),
      'POST /api/user/coupon_ticket/refund': () => { refunded = true; return json({ couponTicket: { ...coupon, disabled: true, refundable: false } }) },
    })
    renderApp('/my-passes?lang=en')
    const card = await screen.findByRole('article', { name: 'Kansai Discovery Pass' })
    expect(within(card).getByText('Standard')).toBeTruthy()
    expect(within(card).getByText('6 of 8 flights left')).toBeTruthy()
    expect(within(card).getByText('14 days after first use')).toBeTruthy()
    fireEvent.click(within(card).getByRole('button', { name: 'Refund' }))
    const dialog = await screen.findByRole('dialog', { name: 'Refund the coupon pass' })
    expect(within(dialog).getByText('JPY 47,600')).toBeTruthy()
    expect(within(dialog).getByText(/JPY 9,000 × 2/)).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }))
    await screen.findByRole('dialog', { name: 'Refund complete' })
    await waitFor(() => expect(screen.getByText('Refunded')).toBeTruthy())
    expect(within(screen.getByRole('article', { name: 'Kansai Discovery Pass' })).queryByRole('button', { name: 'Refund' })).toBeNull()
  })
})

describe('pass exchange', () => {
  it('shows the contact-center screen on gogopass_exchange_error', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, ...status,
      // Every catalogued key comes with a 500 (the page reads the key).
      'POST /api/gogo_pass/exchange/validate': json({ message: 'x', errorKey: 'gogopass_exchange_error' }, 500),
    })
    renderApp('/gogo-pass/exchange?lang=en')
    fireEvent.click(await screen.findByRole('button', { name: 'Next' }))
    expect(await screen.findByText('Enter the conversion code')).toBeTruthy()
    fireEvent.input(screen.getByLabelText(/Exchange code/), { target: { value: 'GPX-1' } })
    fireEvent.input(screen.getByLabelText(/Password/), { target: { value: 'secret' } })
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    const alert = await screen.findByRole('alert', { name: 'The pass could not be exchanged' })
    expect(alert.textContent).toContain('contact the contact center')
  })

  it('goes to the maintenance page on gogopass_maintenance_error (a 500)', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, ...status,
      'POST /api/gogo_pass/exchange/validate': json({ message: 'x', errorKey: 'gogopass_maintenance_error' }, 500),
    })
    renderApp('/gogo-pass/exchange?lang=en')
    fireEvent.input(await screen.findByLabelText(/Exchange code/), { target: { value: 'GPX-1' } })
    fireEvent.input(screen.getByLabelText(/Password/), { target: { value: 'secret' } })
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    await waitFor(() => expect(window.location.pathname).toBe('/gogo-pass/maintenance'))
  })

  it('says the period is held already on gogopass_already_held, in the page language', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, ...status,
      'POST /api/gogo_pass/exchange/validate': json({ message: 'x', errorKey: 'gogopass_already_held' }, 409),
    })
    renderApp('/gogo-pass/exchange?lang=jp')
    await screen.findByLabelText(/引き換えコード|コード/)
    fireEvent.input(screen.getByLabelText(/引き換えコード|コード/), { target: { value: 'GPX-1' } })
    fireEvent.input(screen.getByLabelText(/パスワード/), { target: { value: 'secret' } })
    fireEvent.click(screen.getByRole('button', { name: /次へ/ }))
    expect(await screen.findByText(/この期間のパスはすでにお持ち/)).toBeTruthy()
  })

  it('hides the pass pages when the pass is not public', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION })
    renderApp('/gogo-pass?lang=en')
    expect(await screen.findByText('The unlimited pass is not on sale at the moment.')).toBeTruthy()
  })
})

describe('unlimited pass purchase', () => {
  it('goes to the maintenance page when the purchase answers gogopass_maintenance_error (a 500)', async () => {
    const api = stubFetch({
      'GET /api/session/info': MEMBER_SESSION, ...status,
      'GET /api/gogo_pass': { purchasable: true, maintenance: false, wins: [], gogoPasses: [{ id: 'gp', name: 'Peach GoGo Pass', nameAlt: 'All-you-can-fly pass', periods: [{
        id: 'gp-next', availablePeriodToBoard: range('2027-01-10', '2027-03-31'), availablePeriodToBook: range('2026-11-20', '2027-03-20'),
        currencyCode: 'JPY', price: { happy: 54800, happlus: 74800 }, lotteryQuota: 0 }] }] },
      'GET /api/cc': { creditcards: [{ token: 't1', cardNumber: '************4242', brand: 'visa', creditCardType: 'visa', expirationDate: '30/12',
        currency: 'ALL', isValid: true, gateway: 'ndhk', holderName: 'HANAKO YAMADA' }] },
      'GET /api/payment_availability': { creditCard: ['visa'], registerCreditCard: ['visa'], otherPayment: [], convenienceStore: true },
      'GET /api/cc/pending': { pending: false },
      'POST /api/gogo_pass/buy/validate': json({ message: 'maintenance', errorKey: 'gogopass_maintenance_error' }, 500),
    })
    renderApp('/gogo-pass?lang=en')
    const happlus = await screen.findAllByRole('radio')
    fireEvent.click(happlus.find((r) => (r as HTMLInputElement).value === 'happlus')!)
    const confirm = (await screen.findByRole('button', { name: 'Go to confirmation' }, { timeout: 8000 })) as HTMLButtonElement
    await waitFor(() => expect(confirm.disabled).toBe(false)) // the cards and the pending check are in
    fireEvent.click(confirm)
    await waitFor(() => expect(api.called('POST /api/gogo_pass/buy/validate')).toBe(1))
    await waitFor(() => expect(window.location.pathname).toBe('/gogo-pass/maintenance'))
  })
})

describe('coupon pass', () => {
  it('labels passenger errors with their position and totals seats, not infants', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, ...status,
      'GET /api/masters/countries': [{ code: 'KR', name: 'Korea' }],
      'GET /api/coupon_ticket': { couponTickets: [{ id: 'p', name: 'Kansai Discovery Pass', description: 'd', periods: [{ id: 'w', description: 'Winter',
        availablePeriodToBoard: range('2026-12-04', '2027-03-03'), availablePeriodToBook: range('2026-11-20', '2027-02-23'),
        plan: { lite: { availableDaysAfterFirstUse: 7, availableNumberOfUse: 4, currencyCode: 'JPY', pricePerPerson: 19800 },
          standard: { availableDaysAfterFirstUse: 14, availableNumberOfUse: 8, currencyCode: 'JPY', pricePerPerson: 32800 } } }] }] },
    })
    renderApp('/coupon-pass?lang=en')
    fireEvent.click(await screen.findByRole('button', { name: 'Add a passenger' }))
    fireEvent.click(screen.getByRole('button', { name: 'Add a passenger' }))
    expect(screen.getByText('3 passengers')).toBeTruthy()
    expect(screen.getByText('JPY 98,400')).toBeTruthy()
    fireEvent.change(screen.getByLabelText(/Passenger 3 type/), { target: { value: 'infant' } })
    await waitFor(() => expect(screen.getByText('JPY 65,600')).toBeTruthy())
    expect(screen.getByText('3 passengers')).toBeTruthy()
    // the refund fee and the terms stand beside "I agree", counted for the seats chosen
    const agree = screen.getByLabelText(/I agree to the terms/)
    const note = document.getElementById(agree.getAttribute('aria-describedby') ?? '')!
    expect(note.textContent).toContain("A refund costs JPY 9,000 per item (each passenger with a seat): JPY 18,000 for this purchase's 2\u00a0items.")
    expect(within(note).getByRole('link', { name: /terms and conditions/ }).getAttribute('href')).toMatch(/\/terms\/coupon-pass\?lang=en$/)
    fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }))
    await waitFor(() => expect(screen.getAllByText('Passenger 2: this field is required.', { selector: '.field__error' }).length).toBeGreaterThan(3))
    expect(screen.getAllByText('Passenger 3: this field is required.', { selector: '.field__error' }).length).toBeGreaterThan(3)
    expect(screen.getAllByText('Please agree to the terms and conditions.').length).toBeGreaterThan(0)
  })

  const plans = {
    lite: { availableDaysAfterFirstUse: 5, availableNumberOfUse: 3, currencyCode: 'JPY', pricePerPerson: 15800 },
    standard: { availableDaysAfterFirstUse: 10, availableNumberOfUse: 6, currencyCode: 'JPY', pricePerPerson: 24800 },
  }
  const domestic = { id: 'oka', name: 'Okinawa Pass', description: 'd', international: false, periods: [{ id: 'summer', description: 'Summer',
    availablePeriodToBoard: range('2026-12-10', '2027-03-10'), availablePeriodToBook: range('2026-11-20', '2027-03-01'), plan: plans }] }
  const saved = { passengers: [{ id: 's1', passengerType: 'CHILD' as const, firstname: 'Sakura', lastname: 'Yamada', gender: 'female', birth: '2020-05-05',
    tel: '', email: '', passportNo: 'TS1122334', passportNationalityCode: 'JP', passportIssueCountryCode: 'JP', passportExpirationDate: '2030-01-01' }] }

  it('a domestic trip asks no passport or entry details; a saved passenger fills the fields in', async () => {
    let sent: { additionalPassengers?: Record<string, string>[] } = {}
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, ...status,
      'GET /api/coupon_ticket': { couponTickets: [domestic] },
      'GET /api/user/passengers': saved,
      'POST /api/coupon_ticket/buy/prepare': ({ body }) => { sent = JSON.parse(body ?? '{}') as typeof sent; return json({ message: 'stop' }, 500) },
    })
    renderApp('/coupon-pass?lang=en')
    fireEvent.click(await screen.findByRole('button', { name: 'Add a passenger' }))
    expect(screen.queryByLabelText(/Passenger 2 passport number/)).toBeNull()
    expect(screen.queryByLabelText(/Passenger 2 means of entry/)).toBeNull()
    screen.getByText('A domestic trip: no passport or entry details are needed.')
    const pick = await screen.findByLabelText('Passenger 2: fill in from a saved passenger')
    fireEvent.change(pick, { target: { value: 's1' } })
    expect((screen.getByLabelText(/Passenger 2 last name/) as HTMLInputElement).value).toBe('Yamada')
    expect((screen.getByLabelText(/Passenger 2 type/) as HTMLSelectElement).value).toBe('child')
    fireEvent.click(screen.getByLabelText(/I agree to the terms/))
    fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }))
    await waitFor(() => expect(sent.additionalPassengers?.[0]?.firstname).toBe('Sakura'))
    expect(screen.queryAllByText(/Passenger 2: this field is required/)).toHaveLength(0)
  })

  it('a payment still waiting is said before the passengers are filled in, above the form', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, ...status,
      'GET /api/coupon_ticket': { couponTickets: [domestic] },
      'GET /api/user/passengers': { passengers: [] },
      'GET /api/cc/pending': { pending: true },
      'GET /api/payments/pending': { payments: [{ paymentProcessId: 'pp9', productType: 'peachpoints', amount: 3000, currency: 'JPY', description: 'Peach Points (JPY)', paymentMethod: 'convenienceStore', expiresAt: '2026-11-23T01:00:00Z', createdAt: '2026-11-20T01:00:00Z' }] },
    })
    renderApp('/coupon-pass?lang=en')
    const block = await screen.findByRole('alert')
    expect(block.textContent).toContain('Peach Points (JPY)')
    const form = await screen.findByRole('form', { name: /coupon pass/i })
    expect(block.compareDocumentPosition(form) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })

  it('a period no longer on sale is an error under the period, not a passenger\'s', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, ...status,
      'GET /api/coupon_ticket': { couponTickets: [domestic] },
      'GET /api/user/passengers': { passengers: [] },
      'POST /api/coupon_ticket/buy/prepare': json({ message: 'invalid', validationErrors: { periodId: ['This period is not on sale any more. Choose another period.'] } }, 400),
    })
    renderApp('/coupon-pass?lang=en')
    fireEvent.click(await screen.findByLabelText(/I agree to the terms/))
    fireEvent.click(screen.getByRole('button', { name: 'Continue to payment' }))
    const err = await screen.findByText('This period is not on sale any more. Choose another period.')
    expect(err.id).toBe('coupon-period-error')
    expect(screen.getByLabelText('Period').getAttribute('aria-invalid')).toBe('true')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.queryAllByRole('alert').filter((a) => /Passenger 1/.test(a.textContent ?? ''))).toHaveLength(0)
  })
})

describe('coupon refund refused', () => {
  it('a second refund says why under its own title, not "System error occurred."', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, ...status,
      'GET /api/user/gogo_pass': { gogoPasses: [], entries: [] },
      'GET /api/user/coupon_ticket': { couponTickets: [coupon] },
      'POST /api/user/coupon_ticket/refund': json({ message: 'This coupon pass has already been refunded.' }, 409),
    })
    renderApp('/my-passes?lang=en')
    const card = await screen.findByRole('article', { name: 'Kansai Discovery Pass' })
    fireEvent.click(within(card).getByRole('button', { name: 'Refund' }))
    const dialog = await screen.findByRole('dialog', { name: 'Refund the coupon pass' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Refund' }))
    const err = await screen.findByRole('alertdialog', { name: 'The coupon pass was not refunded' }).catch(() => screen.findByRole('dialog', { name: 'The coupon pass was not refunded' }))
    expect(within(err).getByText('This coupon pass has already been refunded.')).toBeTruthy()
    expect(screen.queryByText('System error occurred.')).toBeNull()
  })
})

describe('passes in the menu and on to a flight', () => {
  it('the menu has the passes while one is public; a pass leads to booking a flight with it', async () => {
    const pass: components['schemas']['PurchasedGogoPass'] = { id: 'p1', code: 'GP-TEST-0001', planId: 'all', periodId: 'next', name: 'Peach GoGo Pass', nameAlt: 'All-you-can-fly',
      availablePeriodToBoard: range('2027-02-14', '2027-05-15'), availablePeriodToBook: range('2026-11-01', '2099-12-31'), fareType: 'happy',
      currencyCode: 'JPY', purchasedPrice: 54800, purchasedAt: '2026-11-20T01:00:00Z', source: 'purchase' }
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, ...status,
      'GET /api/user/gogo_pass': { gogoPasses: [pass], entries: [] },
      'GET /api/user/coupon_ticket': { couponTickets: [] },
    })
    renderApp('/my-passes?lang=en')
    // on /my-passes itself the menu's entry is the current page (no href)
    await waitFor(() => expect([...screen.getByRole('navigation', { name: 'Main menu' }).querySelectorAll('a')].map((a) => a.textContent)).toContain('Passes'))
    const card = await screen.findByRole('article', { name: 'Peach GoGo Pass' })
    expect(within(card).getByRole('link', { name: 'Book a flight with this pass' }).getAttribute('href')).toMatch(/\/booking\?lang=en&pass=GP-TEST-0001$/)
  })
})
