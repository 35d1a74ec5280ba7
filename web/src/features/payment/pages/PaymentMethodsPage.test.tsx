import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { json, stubFetch, MEMBER_SESSION } from '@/test/fetchStub'
import type { components } from '@/api/schema'

const card = (over: Partial<components['schemas']['CreditCard']>): components['schemas']['CreditCard'] => ({
  token: 'tok', cardNumber: '**** **** **** 4242', brand: 'visa', creditCardType: 'ndhk_visa', expirationDate: '33/08',
  currency: 'JPY', isValid: true, gateway: 'ndhk', holderName: 'TARO PEACH', ...over,
})

/** The sandbox gateway's availability (the page asks which gateway takes the card). */
const SANDBOX = { creditCard: ['visa' as const], registerCreditCard: ['visa' as const], otherPayment: [], convenienceStore: true, gateway: 'ndhk' as const }

describe('stored payment methods', () => {
  it('lists in brand order and says when the delete mail was not sent (204)', async () => {
    let cards = [
      card({ token: 't-amex', brand: 'amex', cardNumber: '**** 0005', creditCardType: 'amex', currency: 'ALL' }),
      card({ token: 't-visa' }),
      card({ token: 't-mc', brand: 'mastercard', cardNumber: '**** 4444', creditCardType: 'mastercard', currency: 'NON_JPY' }),
    ]
    const api = stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/cc': () => json({ creditcards: cards }),
      'DELETE /api/cc/t-mc': () => {
        cards = cards.filter((c) => c.token !== 't-mc')
        return new Response(null, { status: 204 })
      },
    })
    renderApp('/payment-methods?lang=en')
    const list = await screen.findByRole('list', { name: 'Stored payment methods' })
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3))
    const names = [...list.querySelectorAll('.card-summary__name')].map((e) => e.textContent)
    // as the member reads it on the card: the expiry MM/YY, not the API's YY/MM
    expect(names).toEqual(['Visa ending 4242, exp 08/33', 'Mastercard ending 4444, exp 08/33', 'American Express ending 0005, exp 08/33'])
    fireEvent.click(screen.getByRole('button', { name: 'Delete Mastercard ending 4444' }))
    const confirm = await screen.findByRole('dialog', { name: 'Delete this card?' })
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }))
    await screen.findByText('The card has been deleted, but the notification e-mail may not have been sent.')
    expect(api.called('DELETE /api/cc/t-mc')).toBe(1)
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2))
  })

  it("a delete the server refuses (404: deleted meanwhile) is titled as not done, with the server's text; a 500 is the system error", async () => {
    for (const [code, title, text] of [
      [404, 'Your request could not be completed', 'The card was not found.'],
      [500, 'System error occurred.', 'Processing was interrupted because an error occurred.'],
    ] as const) {
      stubFetch({
        'GET /api/session/info': MEMBER_SESSION,
        'GET /api/cc': { creditcards: [card({ token: 't-visa' })] },
        'DELETE /api/cc/t-visa': () => json({ message: code === 404 ? 'The card was not found.' : 'System error occurred.' }, code),
      })
      const view = renderApp('/payment-methods?lang=en')
      fireEvent.click(await screen.findByRole('button', { name: 'Delete Visa ending 4242' }))
      fireEvent.click(within(await screen.findByRole('dialog', { name: 'Delete this card?' })).getByRole('button', { name: 'Delete' }))
      const box = await screen.findByRole('alertdialog', { name: title })
      within(box).getByText(text)
      view.unmount()
    }
  })

  it('an expired card opens the expired-card dialog; Cancel keeps it', async () => {
    const api = stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/cc': { creditcards: [card({ token: 't-old', isValid: false, expirationDate: '20/01', cardNumber: '**** 1881' })] },
    })
    renderApp('/payment-methods?lang=en')
    await screen.findByText('Expired')
    fireEvent.click(screen.getByRole('button', { name: 'Delete Visa ending 1881' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Credit card has expired' })
    within(dialog).getByText('Please delete this card and register a new one.')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(api.called('DELETE /api/cc/t-old')).toBe(0)
  })

  it('checks the card before anything is sent to the gateway', async () => {
    const api = stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/cc': { creditcards: [] }, 'GET /api/payment_availability': SANDBOX })
    renderApp('/payment-methods?lang=en')
    fireEvent.click(await screen.findByRole('button', { name: 'Register a card' }))
    fireEvent.change(await screen.findByLabelText(/^Card number/), { target: { value: '3782 822463 10005' } })
    fireEvent.change(screen.getByLabelText(/^Expiry/), { target: { value: '08/33' } })
    fireEvent.change(screen.getByLabelText(/^Security code/), { target: { value: '123' } })
    fireEvent.change(screen.getByLabelText(/^Cardholder name/), { target: { value: 'TARO PEACH' } })
    fireEvent.click(screen.getByRole('button', { name: 'Register' }))
    await screen.findByText('Enter 4 digits.')
    expect(api.called('POST /gateway/v1/tokens')).toBe(0)
    expect(api.called('POST /api/cc/register')).toBe(0)
  })

  it('the expiry is typed as printed (MM/YY) and sent as YY/MM; the outcome is focused, until a later delete', async () => {
    let sent: Record<string, string> = {}
    let registered = false
    const api = stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/cc': () => json({ creditcards: registered ? [card({ token: 'tok-new', expirationDate: '29/11' })] : [] }),
      'GET /api/payment_availability': SANDBOX,
      'POST /gateway/v1/tokens': ({ body }) => {
        sent = JSON.parse(body ?? '{}') as Record<string, string>
        return json({ token: 'tok-new', gateway: 'ndhk', brand: 'visa', last4: '4242', expirationDate: '29/11', holderName: 'TARO PEACH' })
      },
      'POST /api/cc/register': () => { registered = true; return json({ creditcard: card({ token: 'tok-new', expirationDate: '29/11' }), mailSent: true }) },
    })
    renderApp('/payment-methods?lang=en')
    fireEvent.click(await screen.findByRole('button', { name: 'Register a card' }))
    const expiry = await screen.findByLabelText(/^Expiry/)
    expect(expiry.getAttribute('autocomplete')).toBe('cc-exp')
    expect(expiry.getAttribute('placeholder')).toBe('MM/YY')
    fireEvent.change(screen.getByLabelText(/^Card number/), { target: { value: '4242 4242 4242 4242' } })
    fireEvent.change(expiry, { target: { value: '29/11' } })
    fireEvent.change(screen.getByLabelText(/^Security code/), { target: { value: '123' } })
    fireEvent.change(screen.getByLabelText(/^Cardholder name/), { target: { value: 'TARO PEACH' } })
    fireEvent.click(screen.getByRole('button', { name: 'Register' }))
    // "29/11" is month 29: refused before the gateway is asked
    await screen.findByText('Enter the expiry as printed on the card: MM/YY, for example 11/29.')
    expect(api.called('POST /gateway/v1/tokens')).toBe(0)
    fireEvent.change(expiry, { target: { value: '11/29' } })
    fireEvent.click(screen.getByRole('button', { name: 'Register' }))
    const done = await screen.findByText('The card has been registered. A confirmation e-mail has been sent to your registered address.')
    expect(sent.expirationDate).toBe('29/11')
    await waitFor(() => expect(document.activeElement).toBe(done.closest('[data-testid="register-outcome"]')))
    // a later delete: only its outcome is shown, not the registration's any more
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Visa ending 4242' }))
    await screen.findByRole('dialog', { name: 'Delete this card?' })
    expect(screen.queryByText(/The card has been registered/)).toBeNull()
  })

  it('a registration whose gateway cannot be reached (503) says to try again in a moment, not a system error; the form stays', async () => {
    const api = stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/cc': () => json({ creditcards: [] }),
      'GET /api/payment_availability': SANDBOX,
      'POST /gateway/v1/tokens': () => json({ token: 'tok-new', gateway: 'ndhk', brand: 'visa', last4: '4242', expirationDate: '29/11', holderName: 'TARO PEACH' }),
      'POST /api/cc/register': () => json({ message: 'The service could not answer just now. Please try again in a moment.' }, 503),
    })
    renderApp('/payment-methods?lang=en')
    fireEvent.click(await screen.findByRole('button', { name: 'Register a card' }))
    fireEvent.change(await screen.findByLabelText(/^Card number/), { target: { value: '4242 4242 4242 4242' } })
    fireEvent.change(screen.getByLabelText(/^Expiry/), { target: { value: '11/29' } })
    fireEvent.change(screen.getByLabelText(/^Security code/), { target: { value: '123' } })
    fireEvent.change(screen.getByLabelText(/^Cardholder name/), { target: { value: 'TARO PEACH' } })
    fireEvent.click(screen.getByRole('button', { name: 'Register' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Your request could not be completed' })
    expect(dialog.textContent).toContain('Please try again in a moment.')
    expect(dialog.textContent).not.toContain('System error')
    expect(api.called('POST /api/cc/register')).toBe(1) // a POST is never sent again by itself
    expect(screen.getByRole('button', { name: 'Register' })).toBeTruthy()
  })
})
