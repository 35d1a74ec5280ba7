import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { json, stubFetch, MEMBER_SESSION } from '@/test/fetchStub'

const konbini = {
  paymentProcessId: 'pp-k', productType: 'peachpoints', description: 'Peach Points (JPY)', amount: 5000, currency: 'JPY',
  paymentMethod: 'convenienceStore', expiresAt: '2026-12-01T14:59:00Z', createdAt: '2026-11-28T03:00:00Z',
  payUrl: 'https://payments.stripe.com/konbini/voucher/test',
  // Stripe's konbini slip: one confirmation number, a payment code per chain
  slip: { confirmationNumber: '11223344556', paymentCodes: { lawson: 'L-123456', familymart: 'F-654321', newmart: 'N-1' } },
}

describe('a konbini slip on Pending payments', () => {
  for (const [lang, family, lawson] of [
    ['en', 'Payment code at FamilyMart', 'Payment code at Lawson'],
    ['jp', 'ファミリーマートの支払番号', 'ローソンの支払番号'],
    ['th', 'รหัสชำระเงินที่ แฟมิลี่มาร์ท', 'รหัสชำระเงินที่ ลอว์สัน'],
  ] as const) {
    it(`lists the payment code of each store, known chains first (${lang})`, async () => {
      stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/payments/pending': { payments: [konbini] } })
      renderApp(`/payments/pending?lang=${lang}`)
      const card = await screen.findByRole('article', { name: 'Peach Points (JPY)' })
      const slip = within(card).getByRole('region')
      const terms = within(slip).getAllByRole('term').map((e) => e.textContent)
      const values = within(slip).getAllByRole('definition').map((e) => e.textContent)
      expect(terms.slice(1)).toEqual([family, lawson, expect.stringContaining('newmart')])
      expect(values).toEqual(['11223344556', 'F-654321', 'L-123456', 'N-1'])
      // Stripe gives no ATM or Pay-easy way to pay: the hint names the store only
      expect(within(slip).queryByText(/ATM|Pay-easy/)).toBeNull()
    })
  }

  it('names ATM and Pay-easy for a slip that has their numbers (the sandbox)', async () => {
    const sandbox = { ...konbini, slip: { receiptNumber: '9198-5248-5699', institutionNumber: '58091', customerNumber: '1234-5678-9012' } }
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/payments/pending': { payments: [sandbox] } })
    renderApp('/payments/pending?lang=en')
    const card = await screen.findByRole('article', { name: 'Peach Points (JPY)' })
    expect(within(within(card).getByRole('region')).getByText(/an ATM or in your internet banking \(Pay-easy\)/)).toBeTruthy()
  })
})

describe('cancelling a waiting payment', () => {
  const slipProcess = {
    paymentProcessId: 'pp-k', productType: 'peachpoints', status: 'pending', amount: 5000, currency: 'JPY', description: 'Peach Points (JPY)',
    paymentMethod: 'convenienceStore', expiresAt: '2026-12-01T14:59:00Z', nextAction: { url: 'https://gateway.example/pay/1' },
  } as const

  it('on Pending payments: asks first, then the focus goes to what happened, which links back to the purchase', async () => {
    let pending = [konbini]
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/payments/pending': () => json({ payments: pending }),
      'POST /api/payments/pp-k/cancel': () => {
        pending = []
        return json({ ...slipProcess, status: 'failed', failureCode: 'canceled' })
      },
    })
    renderApp('/payments/pending?lang=en')
    const card = await screen.findByRole('article', { name: 'Peach Points (JPY)' })
    fireEvent.click(within(card).getByRole('button', { name: 'Cancel this payment' }))
    fireEvent.click(await within(card).findByRole('button', { name: 'Yes, cancel it' }))
    const done = await screen.findByText('The payment for Peach Points (JPY) has been cancelled. Nothing was charged.')
    const notice = done.closest('[role="status"]')!
    await waitFor(() => expect(document.activeElement).toBe(notice))
    expect(within(notice as HTMLElement).getByRole('link', { name: 'Buy Peach Points' }).getAttribute('href')).toBe('/points?lang=en')
  })

  it('on the result page: asks first, then says it was cancelled (not failed), that nothing was charged, with the focus on it and Start again in it', async () => {
    let cancelled = false
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/payment_processes/pp-k/status': () => json(cancelled ? { ...slipProcess, status: 'failed', failureCode: 'canceled' } : slipProcess),
      'POST /api/payments/pp-k/cancel': () => {
        cancelled = true
        return json({ ...slipProcess, status: 'failed', failureCode: 'canceled' })
      },
    })
    renderApp('/payment/peachpoints/pp-k/result?lang=en')
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel this payment' }))
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, cancel it' }))
    const title = await screen.findByText('You cancelled this payment.')
    expect(screen.queryByText('The payment was not completed.')).toBeNull()
    const notice = title.closest('[role="status"]')!
    expect(notice.textContent).toContain('Nothing was charged. The slip can no longer be paid: do not pay it at a store, an ATM or your bank.')
    await waitFor(() => expect(document.activeElement).toBe(notice))
    expect(within(notice as HTMLElement).getByRole('link', { name: 'Start again' }).getAttribute('href')).toBe('/points/sale?again=1&lang=en')
  })
})
