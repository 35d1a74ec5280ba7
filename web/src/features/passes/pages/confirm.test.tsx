import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { stubFetch, MEMBER_SESSION } from '@/test/fetchStub'

const range = (begin: string, end: string) => ({ begin, end })
const plans = [{
  id: 'gp-all', name: 'Peach GoGo Pass', nameAlt: 'All routes',
  periods: [{ id: 'gp-all-next', availablePeriodToBoard: range('2027-01-10', '2027-04-10'), availablePeriodToBook: range('2026-12-20', '2027-04-01'),
    currencyCode: 'JPY', price: { happy: 54800, happlus: 74800 }, lotteryQuota: 50 }],
}]
const member = { firstname: 'HANAKO', lastname: 'PEACH', email: 'hanako@example.com' }
/** The unlimited pass on sale, nothing owned or waiting: the answers of the pass page's calls. */
const routes = {
  'GET /api/session/info': MEMBER_SESSION,
  'GET /api/user': member,
  'GET /api/gogo_pass_status': { isGogoPassPublic: true, isGogoPassPurchasable: true, isGogoPassLotteryPhase: false, isGogoPassMaintenance: false },
  'GET /api/coupon_ticket_status': { isCouponTicketPublic: false },
  'GET /api/gogo_pass': { gogoPasses: plans, purchasable: true, maintenance: false, wins: [] },
  'GET /api/user/gogo_pass': { gogoPasses: [], entries: [] },
  'GET /api/cc': { creditcards: [] },
  'GET /api/cc/pending': { pending: false },
  'GET /api/payments/pending': { payments: [] },
} as const

describe('the unlimited pass says what is bought before the payment', () => {
  it('the choice: pass, periods, the fare explained, the passenger (the member) and the price', async () => {
    stubFetch(routes)
    renderApp('/gogo-pass?lang=en')
    const fares = await screen.findByRole('radiogroup', { name: 'Fare type' })
    fireEvent.click(within(fares).getByRole('radio', { name: /Happlus/ }))
    const s = await screen.findByRole('region', { name: 'Your choice' })
    within(s).getByText('Peach GoGo Pass (All routes)')
    expect(s.textContent).toContain('Jan 10, 2027 –')
    expect(s.textContent).toContain('Dec 20, 2026 –')
    within(s).getByText('Happlus')
    within(s).getByText('Flights are booked at the Standard fare: a higher price, with more included than the Lite fare.')
    await within(s).findByText('HANAKO PEACH')
    within(s).getByText('The pass is in your name: only you can fly with it.')
    within(s).getByText('JPY 74,800')
  })

  it('"Start again" (?again) after a declined payment shows the plan, period and fare sent last; a plain visit does not', async () => {
    sessionStorage.setItem('sale-fields:gogo_pass', JSON.stringify({ planId: 'gp-all', periodId: 'gp-all-next', fareType: 'happlus' }))
    stubFetch(routes)
    const { unmount } = renderApp('/gogo-pass?again=1&lang=en')
    const s = await screen.findByRole('region', { name: 'Your choice' })
    within(s).getByText('Happlus')
    within(s).getByText('JPY 74,800')
    unmount()
    stubFetch(routes)
    renderApp('/gogo-pass?lang=en')
    await screen.findByRole('radiogroup', { name: 'Fare type' })
    expect(screen.queryByRole('region', { name: 'Your choice' })).toBeNull()
    sessionStorage.clear()
  })

  it('the confirm page names the passenger: the member', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/user': member,
      'GET /api/payment_processes/pp1/status': {
        paymentProcessId: 'pp1', transactionId: 'tx1', status: 'prepared', paymentMethod: 'creditCard', card: { brand: 'visa', last4: '4242' },
        refundedAmount: 0, createdAt: '2026-11-20T01:00:00Z', expiresAt: '2026-11-20T01:30:00Z',
        productType: 'gogo_pass', amount: 74800, currency: 'JPY', description: 'Peach GoGo Pass Jan 10, 2027 – Apr 10, 2027',
        details: { planId: 'gp-all', periodId: 'gp-all-next', fareType: 'happlus', board: range('2027-01-10', '2027-04-10'), book: range('2026-12-20', '2027-04-01') },
      },
    })
    renderApp('/payment/gogo_pass/pp1?lang=en')
    const d = await screen.findByRole('region', { name: 'What you are buying' })
    within(d).getByText('Happlus')
    within(d).getByText('Flights are booked at the Standard fare: a higher price, with more included than the Lite fare.')
    await within(d).findByText('HANAKO PEACH')
    within(d).getByText('1 passenger')
    within(d).getByText('JPY 74,800')
    expect(within(d).queryByText(/refund fee/)).toBeNull()
  })
})

describe('a period the member holds a pass of', () => {
  const twoPeriods = [{ ...plans[0], periods: [...plans[0].periods, { id: 'gp-all-later', availablePeriodToBoard: range('2027-05-01', '2027-07-31'),
    availablePeriodToBook: range('2027-04-01', '2027-07-20'), currencyCode: 'JPY', price: { happy: 54800, happlus: 74800 }, lotteryQuota: 0 }] }]
  const held = { id: 'mine', code: 'GP-1', planId: 'gp-all', periodId: 'gp-all-next', name: 'Peach GoGo Pass', nameAlt: 'All routes',
    availablePeriodToBoard: range('2027-01-10', '2027-04-10'), availablePeriodToBook: range('2026-12-20', '2027-04-01'), fareType: 'happy' as const,
    currencyCode: 'JPY', purchasedPrice: 54800, purchasedAt: '2026-11-20T01:00:00Z', source: 'purchase' as const }
  const shell = (mine: (typeof held)[], extra: Record<string, unknown> = {}) => stubFetch({
    'GET /api/session/info': MEMBER_SESSION,
    'GET /api/user': member,
    'GET /api/gogo_pass_status': { isGogoPassPublic: true, isGogoPassPurchasable: true, isGogoPassLotteryPhase: false, isGogoPassMaintenance: false },
    'GET /api/coupon_ticket_status': { isCouponTicketPublic: false },
    'GET /api/gogo_pass': { gogoPasses: twoPeriods, purchasable: true, maintenance: false, wins: [] },
    'GET /api/user/gogo_pass': { gogoPasses: mine, entries: [] },
    'GET /api/cc': { creditcards: [] },
    'GET /api/cc/pending': { pending: false },
    'GET /api/payments/pending': { payments: [] },
    'GET /api/payment_availability': { creditCard: ['visa'], registerCreditCard: ['visa'], otherPayment: [], convenienceStore: true },
    ...extra,
  })

  it('is marked on the picker, with a link to My passes, and cannot be picked; the others can', async () => {
    shell([held])
    renderApp('/gogo-pass?lang=en')
    const badge = await screen.findByText('You have this pass')
    const note = badge.closest('p')!
    expect(within(note).getByRole('link', { name: 'See it in My passes' }).getAttribute('href')).toMatch(/^\/my-passes/)
    const radios = screen.getAllByRole('radio') as HTMLInputElement[]
    expect(radios.filter((r) => r.closest('.period')?.contains(note)).length).toBe(3) // the period and its two fares
    for (const r of radios.filter((r) => r.closest('.period')?.contains(note))) expect(r.disabled).toBe(true)
    for (const r of radios.filter((r) => !r.closest('.period')?.contains(note))) expect(r.disabled).toBe(false)
    expect(screen.getAllByText('You have this pass')).toHaveLength(1)
  })

  it('the refusal when bought meanwhile (another tab) links to My passes', async () => {
    shell([], {
      'GET /api/cc': { creditcards: [{ token: 't1', cardNumber: '************4242', brand: 'visa', creditCardType: 'visa', expirationDate: '30/12',
        currency: 'ALL', isValid: true, gateway: 'ndhk', holderName: 'HANAKO PEACH' }] },
      'POST /api/gogo_pass/buy/validate': () => new Response(JSON.stringify({ message: 'You already have this pass for this period, or a payment for it is still being processed. Please check My passes.', errorKey: 'gogopass_already_held' }), { status: 409, headers: { 'Content-Type': 'application/json' } }),
    })
    renderApp('/gogo-pass?lang=en')
    const fares = await screen.findAllByRole('radiogroup', { name: 'Fare type' })
    fireEvent.click(within(fares[0]).getByRole('radio', { name: /Happy/ }))
    const go = (await screen.findByRole('button', { name: 'Go to confirmation' })) as HTMLButtonElement
    await waitFor(() => expect(go.disabled).toBe(false))
    fireEvent.click(go)
    const alert = await screen.findByText(/You already have this pass for this period/)
    expect(within(alert).getByRole('link', { name: 'Go to My passes' }).getAttribute('href')).toMatch(/^\/my-passes/)
  })
})
