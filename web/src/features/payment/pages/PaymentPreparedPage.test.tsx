import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { json, stubFetch, MEMBER_SESSION } from '@/test/fetchStub'
import { pluralKey } from '@/i18n/format'

const base = {
  paymentProcessId: 'pp1', transactionId: 'tx1', status: 'prepared' as const, paymentMethod: 'creditCard' as const,
  card: { brand: 'visa', last4: '4242' }, refundedAmount: 0, createdAt: '2026-11-20T01:00:00Z', expiresAt: '2026-11-20T01:30:00Z',
}

const coupon = {
  ...base, productType: 'coupon_ticket', amount: 39800, currency: 'JPY', description: 'Discovery coupon pass',
  details: {
    fareType: 'lite', items: 2, totalPassengersCount: 3,
    period: { availablePeriodToBoard: { begin: '2027-01-10', end: '2027-03-31' }, availablePeriodToBook: { begin: '2026-12-01', end: '2027-03-20' } },
    plan: { availableDaysAfterFirstUse: 30, availableNumberOfUse: 1, pricePerPerson: 19900, currencyCode: 'JPY' },
    purchaser: { lastname: 'PEACH', firstname: 'TARO' },
    additionalPassengers: [{ lastname: 'PEACH', firstname: 'HANAKO' }, { lastname: 'PEACH', firstname: 'MOMO' }],
  },
}

describe('the confirm page says what is bought', () => {
  it('coupon pass: periods, its own Lite fare (not the unlimited pass Happy fare) explained, passengers, total, refund fee and terms link before paying', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/payment_processes/pp1/status': coupon })
    renderApp('/payment/coupon_ticket/pp1?lang=en')
    const d = await screen.findByRole('region', { name: 'What you are buying' })
    within(d).getByText('Discovery coupon pass')
    within(d).getByText('Jan 10, 2027 – Mar 31, 2027')
    within(d).getByText('Lite')
    expect(within(d).queryByText('Happy')).toBeNull()
    within(d).getByText('Flights are booked at the Lite fare: the lower price, with what the Lite fare includes.')
    within(d).getByText('1 flight', { exact: false })
    within(d).getByText('3 passengers')
    within(d).getByText('HANAKO PEACH') // given name first in English
    within(d).getByText('JPY 39,800')
    within(d).getByText('If you refund this coupon pass, a refund fee of JPY 9,000 per item is deducted: JPY 18,000 for its 2 items.')
    expect(within(d).getByRole('link', { name: /terms and conditions/ }).getAttribute('href')).toMatch(/\/terms\/coupon-pass\?lang=en$/)
    screen.getByRole('button', { name: 'Pay' })
  })

  it('points: the nominee and the total; unlimited pass: the Happlus fare explained', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/payment_processes/pp1/status': { ...base, productType: 'peachpoints', amount: 3000, currency: 'JPY', description: 'Peach Points (JPY)', details: { nominee: 'TARO PEACH', currencyCode: 'JPY', amount: 3000 } },
    })
    renderApp('/payment/peachpoints/pp1?lang=en')
    const d = await screen.findByRole('region', { name: 'What you are buying' })
    within(d).getByText('Name on the points')
    within(d).getByText('TARO PEACH')
    expect(within(d).queryByText(/refund fee/)).toBeNull()
  })

  it('plural forms follow the language, "sg" being English', () => {
    expect(pluralKey('x', 1, 'en')).toBe('x_one')
    expect(pluralKey('x', 1, 'sg')).toBe('x_one')
    expect(pluralKey('x', 2, 'sg')).toBe('x_other')
    expect(pluralKey('x', 1, 'jp')).toBe('x_other')
    expect(pluralKey('x', 1, 'th')).toBe('x_other')
  })
})

describe('Pay on the confirm page', () => {
  it('goes to the maintenance page when the pass maintenance window opened after the order was prepared', async () => {
    const passOrder = { ...base, productType: 'gogo_pass', amount: 54800, currency: 'JPY', description: 'Peach GoGo Pass' }
    // the pass status read at 02:59 names no window; at 03:00 it does
    let inWindow = false
    const open = { isGogoPassPublic: true, isGogoPassPurchasable: true, isGogoPassLotteryPhase: false }
    const stub = stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/gogo_pass_status': () =>
        json(inWindow ? { ...open, isGogoPassMaintenance: true, maintenanceFrom: '2026-11-20T03:00:00+09:00', maintenanceUntil: '2026-11-20T05:00:00+09:00' } : open),
      'GET /api/payment_processes/pp1/status': passOrder,
      'POST /api/gogo_pass/buy/pp1/continue': () => {
        inWindow = true
        return json({ message: 'Maintenance is scheduled from 3:00 am to 5:00 am.', errorKey: 'gogopass_maintenance_error' }, 500)
      },
    })
    renderApp('/payment/gogo_pass/pp1?lang=en')
    fireEvent.click(await screen.findByRole('button', { name: 'Pay' }))
    await waitFor(() => expect(window.location.pathname).toBe('/gogo-pass/maintenance'))
    expect(stub.called('POST /api/gogo_pass/buy/pp1/continue')).toBe(1)
    expect(screen.queryByRole('dialog')).toBeNull()
    // the maintenance page gives the hours, as the plans page does
    const notice = await screen.findByRole('status', { name: 'Under maintenance' })
    await waitFor(() => expect(notice.textContent).toMatch(/03:00.*05:00/))
  })

  it('a convenience-store slip is issued to pay by its deadline, not paid now (en and jp)', async () => {
    const slipOrder = { ...base, paymentMethod: 'convenienceStore' as const, card: undefined, productType: 'peachpoints', amount: 5000, currency: 'JPY', description: 'Peach Points (JPY)', details: { nominee: 'TARO PEACH', currencyCode: 'JPY', amount: 5000 } }
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/payment_processes/pp1/status': slipOrder })
    const { unmount } = renderApp('/payment/peachpoints/pp1?lang=en')
    await screen.findByRole('button', { name: 'Issue the payment slip' })
    const text = screen.getByText((_, el) => el?.tagName === 'P' && /get a slip for JPY 5,000\. Then pay it at a convenience store, an ATM or by internet banking \(Pay-easy\) by the deadline shown on the slip\. Nothing is charged until you pay\./.test(el.textContent ?? ''))
    // the amount is one unbreakable piece of the text
    expect(within(text).getByText('JPY 5,000').className).toBe('nowrap')
    expect(screen.queryByText(/Press Pay to pay/)).toBeNull()
    expect(screen.queryByRole('button', { name: 'Pay' })).toBeNull()
    unmount()
    renderApp('/payment/peachpoints/pp1?lang=jp')
    await screen.findByRole('button', { name: 'お支払い番号を発行' })
    screen.getByText((_, el) => el?.tagName === 'P' && /5,000円のお支払い番号を発行します/.test(el.textContent ?? ''))
  })
})

describe('the completed page', () => {
  it("a pass's links to My passes first; points have no such link", async () => {
    const settled = { ...base, status: 'settled' as const, settledAt: '2026-11-20T01:01:00Z' }
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/payment_processes/pp1/status': { ...coupon, ...settled } })
    const { unmount } = renderApp('/payment/coupon_ticket/pp1/completed?lang=en')
    const mine = await screen.findByRole('link', { name: 'See it in My passes' })
    expect(mine.getAttribute('href')).toMatch(/^\/my-passes\?lang=en$/)
    expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toMatch(/^\/coupon-pass/)
    unmount()
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/payment_processes/pp1/status': { ...base, ...settled, productType: 'peachpoints', amount: 3000, currency: 'JPY', description: 'Peach Points (JPY)', details: { nominee: 'TARO PEACH', currencyCode: 'JPY', amount: 3000 } },
    })
    renderApp('/payment/peachpoints/pp1/completed?lang=en')
    await screen.findByRole('link', { name: 'Back' })
    expect(screen.queryByRole('link', { name: 'See it in My passes' })).toBeNull()
  })
})
