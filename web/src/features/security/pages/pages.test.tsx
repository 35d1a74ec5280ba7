import { describe, expect, it } from 'vitest'
import { fireEvent, screen, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { stubFetch, json, MEMBER_SESSION } from '@/test/fetchStub'

describe('your data', () => {
  it('explains each part of the export and asks for the password before mailing the deletion link', async () => {
    let password = ''
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'POST /api/me/deletion': (req) => {
        password = JSON.parse(req.body ?? '{}').password
        return password === 'Demo1234'
          ? json({ mailSent: true })
          : json({ validationErrors: { password: ['The password is not correct.'] } }, 400)
      },
    })
    renderApp('/your-data?lang=en')
    expect((await screen.findByRole('link', { name: 'Download my data (JSON)' }, { timeout: 20000 })).getAttribute('href')).toBe('/api/me/export')
    expect(screen.getByText('Saved payment cards: brand and last four digits only.')).toBeTruthy()
    const zone = screen.getByRole('region', { name: 'Delete your account' })
    expect(within(zone).getByText(/Payment records/)).toBeTruthy()

    fireEvent.click(within(zone).getByRole('button', { name: 'Send me the confirmation link' }))
    expect(await within(zone).findByText('Enter your password.')).toBeTruthy()
    expect(password).toBe('')

    fireEvent.change(within(zone).getByLabelText(/Current password/), { target: { value: 'Wrong1234' } })
    fireEvent.click(within(zone).getByRole('button', { name: 'Send me the confirmation link' }))
    expect(await within(zone).findAllByText('The password is not correct.')).not.toHaveLength(0)

    fireEvent.change(within(zone).getByLabelText(/Current password/), { target: { value: 'Demo1234' } })
    fireEvent.click(within(zone).getByRole('button', { name: 'Send me the confirmation link' }))
    expect(await within(zone).findByText(/We sent a confirmation link/)).toBeTruthy()
  }, 40000)

  it('refuses a dead confirmation link without offering the delete button', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'POST /api/me/deletion/validate': json({ message: 'gone' }, 404),
    })
    renderApp('/delete-account/abc?lang=en')
    expect(await screen.findByText(/This link is invalid or has expired/, undefined, { timeout: 20000 })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Delete my account permanently' })).toBeNull()
  }, 40000)

  it('waits for a pending payment and links to it', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'POST /api/me/deletion/validate': 204,
      'GET /api/me/deletion/losses': { pendingPayment: { paymentProcessId: 'pp1', productType: 'peachpoints' }, coupons: [], points: [] },
    })
    renderApp('/delete-account/abc?lang=en')
    expect(await screen.findByText('A payment is still being processed', undefined, { timeout: 20000 })).toBeTruthy()
    expect(screen.getByRole('link', { name: "See the payment's status" }).getAttribute('href')).toContain('/payment/peachpoints/pp1/result')
    expect((screen.getByRole('button', { name: 'Delete my account permanently' }) as HTMLButtonElement).disabled).toBe(true)
  }, 40000)

  it('has each coupon pass and point balance ticked by name before deleting, and sends the acks', async () => {
    let sent: unknown = null
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'POST /api/me/deletion/validate': 204,
      'GET /api/me/deletion/losses': {
        pendingPayment: null,
        coupons: [{ ack: 'coupon:c1', id: 'c1', name: 'Kansai Discovery Pass', currencyCode: 'JPY', refundAmount: 10800 }],
        points: [{ ack: 'points:JPY', currencyCode: 'JPY', currency: 'Japanese yen', amount: 12000 }],
      },
      'POST /api/me/deletion/confirm': (req) => {
        sent = JSON.parse(req.body ?? '{}')
        return json({ message: 'A payment of yours is still being processed.', errorKey: 'account_deletion_payment_pending' }, 409)
      },
    })
    renderApp('/delete-account/abc?lang=jp')
    const coupon = await screen.findByRole('checkbox', { name: /クーポンパス「Kansai Discovery Pass」：現在 10,800円/ }, { timeout: 20000 })
    const points = screen.getByRole('checkbox', { name: /ポイント残高 12,000円/ })
    const del = screen.getByRole('button', { name: 'アカウントを完全に削除' }) as HTMLButtonElement
    expect(del.disabled).toBe(true)
    fireEvent.click(coupon)
    expect(del.disabled).toBe(true)
    fireEvent.click(points)
    expect(del.disabled).toBe(false)
    fireEvent.click(del)
    expect(await screen.findByText('A payment of yours is still being processed.')).toBeTruthy()
    expect(sent).toEqual({ token: 'abc', acknowledged: ['coupon:c1', 'points:JPY'] })
  }, 40000)
})
