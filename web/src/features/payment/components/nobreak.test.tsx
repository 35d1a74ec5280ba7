import { describe, expect, it } from 'vitest'
import { screen } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { stubFetch, MEMBER_SESSION } from '@/test/fetchStub'

// Thai has no spaces: Chromium breaks where its dictionary sees a word end,
// and cut อินเทอร์เน็ตแบงกิ้ง (internet banking) inside at 375 px. The slip
// texts keep it whole in a span that does not wrap.
const BANKING = 'อินเทอร์เน็ตแบงกิ้ง'
const slip = {
  paymentProcessId: 'pp-k', transactionId: 'pp-k', productType: 'peachpoints', amount: 5000, currency: 'JPY', description: 'Peach Points (JPY)',
  paymentMethod: 'convenienceStore', refundedAmount: 0, details: {}, createdAt: '2026-11-28T03:00:00Z', expiresAt: '2026-12-01T14:59:00Z',
}

describe('the slip texts keep internet banking whole in Thai', () => {
  for (const [where, path, routes] of [
    ['the confirm page', '/payment/peachpoints/pp-k?lang=th', { 'GET /api/payment_processes/pp-k/status': { ...slip, status: 'prepared' } }],
    ['the waiting slip', '/payment/peachpoints/pp-k/result?lang=th',
      { 'GET /api/payment_processes/pp-k/status': { ...slip, status: 'pending', nextAction: { type: 'redirect', url: 'https://gateway.example/pay/1' } } }],
    ['Pending payments', '/payments/pending?lang=th', { 'GET /api/payments/pending': { payments: [{ ...slip, slip: { receiptNumber: '1234567', institutionNumber: '58091', customerNumber: '9198524856' } }] } }],
  ] as const) {
    it(where, async () => {
      stubFetch({ 'GET /api/session/info': MEMBER_SESSION, ...routes })
      renderApp(path)
      const term = await screen.findByText(BANKING, { selector: '.nowrap' })
      expect(term.parentElement?.textContent).toContain(`${BANKING} (Pay-easy)`)
      expect(document.body.textContent).not.toContain('<nobr>')
    })
  }
})
