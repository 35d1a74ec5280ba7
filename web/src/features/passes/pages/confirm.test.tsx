import { describe, expect, it } from 'vitest'
import { fireEvent, screen, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { stubFetch, MEMBER_SESSION } from '@/test/fetchStub'

const range = (begin: string, end: string) => ({ begin, end })
const plans = [{
  id: 'gp-all', name: 'Peach GoGo Pass', nameAlt: 'All routes',
  periods: [{ id: 'gp-all-next', availablePeriodToBoard: range('2027-01-10', '2027-04-10'), availablePeriodToBook: range('2026-12-20', '2027-04-01'),
    currencyCode: 'JPY', price: { happy: 54800, happlus: 74800 }, lotteryQuota: 50 }],
}]
const member = { firstname: 'HANAKO', lastname: 'PEACH', email: 'hanako@example.com' }

describe('the unlimited pass says what is bought before the payment', () => {
  it('the choice: pass, periods, the fare explained, the passenger (the member) and the price', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/user': member,
      'GET /api/gogo_pass_status': { isGogoPassPublic: true, isGogoPassPurchasable: true, isGogoPassLotteryPhase: false, isGogoPassMaintenance: false },
      'GET /api/coupon_ticket_status': { isCouponTicketPublic: false },
      'GET /api/gogo_pass': { gogoPasses: plans, purchasable: true, maintenance: false, wins: [] },
      'GET /api/user/gogo_pass': { gogoPasses: [], entries: [] },
      'GET /api/cc': { creditcards: [] },
      'GET /api/cc/pending': { pending: false },
      'GET /api/payments/pending': { payments: [] },
    })
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
