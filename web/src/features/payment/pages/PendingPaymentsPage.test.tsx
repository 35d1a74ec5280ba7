import { describe, expect, it } from 'vitest'
import { screen, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { stubFetch, MEMBER_SESSION } from '@/test/fetchStub'

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
    })
  }
})
