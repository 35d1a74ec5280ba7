/**
 * Stripe mode's card entry on the saved-cards page and in the purchase
 * panel. Only the Stripe.js module boundary (@stripe/stripe-js/pure's
 * loadStripe) is replaced: a fake Stripe object whose Card Element mounts
 * a placeholder and whose createPaymentMethod answers what the test set.
 * @stripe/react-stripe-js, the pages and the API calls (fetch stub) are real.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { currentUrl, renderApp } from '@/test/renderApp'
import { json, stubFetch, MEMBER_SESSION } from '@/test/fetchStub'
import { pageNavigation } from '@/app/pageNavigation'
import type { components } from '@/api/schema'

type PMResult = { paymentMethod: { id: string } } | { error: { type: string; code?: string; message: string } }

const fake = vi.hoisted(() => {
  const state = {
    loads: [] as string[],
    elementOptions: [] as unknown[],
    created: [] as { type: string; billing_details?: { name?: string } }[],
    next: { paymentMethod: { id: 'pm_card_visa' } } as PMResult,
    handlers: new Map<string, (e: unknown) => void>(),
    fail: false,
  }
  const element = {
    mount: (node: HTMLElement) => {
      const frame = document.createElement('div')
      frame.dataset.testid = 'fake-card-frame'
      node.appendChild(frame)
    },
    on: (event: string, cb: (e: unknown) => void) => { state.handlers.set(event, cb) },
    off: () => {},
    update: () => {},
    destroy: () => {},
    unmount: () => {},
  }
  const stripe = {
    elements: (options: unknown) => {
      state.elementOptions.push(options)
      return { create: () => element, getElement: () => element, update: () => {} }
    },
    createToken: async () => ({}),
    confirmCardPayment: async () => ({}),
    createPaymentMethod: async (params: { type: string; billing_details?: { name?: string } }) => {
      state.created.push(params)
      return state.next
    },
  }
  const loadStripe = Object.assign(async (key: string) => {
    state.loads.push(key)
    if (state.fail) throw new Error('Failed to load Stripe.js')
    return stripe
  }, { setLoadParameters: () => {} })
  return { state, loadStripe }
})

vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe: fake.loadStripe }))

const STRIPE_AVAIL = { creditCard: ['visa' as const], registerCreditCard: ['visa' as const], otherPayment: ['paypay'], convenienceStore: true, gateway: 'stripe' as const, publishableKey: 'pk_test_123' }
const SANDBOX_AVAIL = { creditCard: ['visa' as const], registerCreditCard: ['visa' as const], otherPayment: [], convenienceStore: true, gateway: 'ndhk' as const }

const card = (over: Partial<components['schemas']['CreditCard']>): components['schemas']['CreditCard'] => ({
  token: 'pm_saved', cardNumber: '************4242', brand: 'visa', creditCardType: 'visa', expirationDate: '33/08',
  currency: 'JPY', isValid: true, gateway: 'stripe', holderName: 'TARO PEACH', ...over,
})

beforeEach(() => {
  fake.state.loads = []
  fake.state.elementOptions = []
  fake.state.created = []
  fake.state.handlers.clear()
  fake.state.next = { paymentMethod: { id: 'pm_card_visa' } }
  fake.state.fail = false
})
afterEach(() => vi.restoreAllMocks())

async function openStripeForm() {
  fireEvent.click(await screen.findByRole('button', { name: 'Register a card' }))
  await screen.findByTestId('fake-card-frame')
  fireEvent.change(screen.getByLabelText(/^Cardholder name/), { target: { value: 'TARO PEACH' } })
}

describe('saved cards in Stripe mode', () => {
  it('types the card into Stripe\'s field, saves the PaymentMethod and focuses the outcome', async () => {
    let sent: Record<string, string> = {}
    const api = stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/cc': { creditcards: [] },
      'GET /api/payment_availability': STRIPE_AVAIL,
      'POST /api/cc/register': ({ body }) => {
        sent = JSON.parse(body ?? '{}') as Record<string, string>
        return json({ creditcard: card({}), mailSent: true })
      },
    })
    renderApp('/payment-methods?lang=jp')
    fireEvent.click(await screen.findByRole('button', { name: 'カードを登録する' }))
    await screen.findByTestId('fake-card-frame')
    // the sandbox's own inputs are gone: the number is typed in Stripe's frame only
    expect(screen.queryByLabelText(/^カード番号$/)).toBeNull()
    expect(fake.state.loads).toEqual(['pk_test_123'])
    expect(fake.state.elementOptions).toEqual([{ locale: 'ja' }])
    fireEvent.change(screen.getByLabelText(/^カード名義/), { target: { value: 'TARO PEACH' } })
    fireEvent.click(screen.getByRole('button', { name: '登録する' }))
    const done = await screen.findByText('カードを登録しました。ご登録のメールアドレスに確認メールをお送りしました。')
    expect(sent).toEqual({ token: 'pm_card_visa', gateway: 'stripe', currency: 'JPY' })
    expect(fake.state.created).toEqual([expect.objectContaining({ type: 'card', billing_details: { name: 'TARO PEACH' } })])
    expect(api.called('POST /gateway/v1/tokens')).toBe(0)
    await waitFor(() => expect(document.activeElement).toBe(done.closest('[data-testid="register-outcome"]')))
  })

  it('an incomplete card stays in the form with Stripe\'s message; nothing is sent', async () => {
    const api = stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/cc': { creditcards: [] }, 'GET /api/payment_availability': STRIPE_AVAIL,
    })
    renderApp('/payment-methods?lang=en')
    await openStripeForm()
    fake.state.next = { error: { type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' } }
    fireEvent.click(screen.getByRole('button', { name: 'Register' }))
    expect(await screen.findByText('Your card number is incomplete.')).toBeTruthy()
    expect(api.called('POST /api/cc/register')).toBe(0)
    // Stripe's change event clears it once the card is complete
    act(() => fake.state.handlers.get('change')?.({ complete: true, error: undefined }))
    await waitFor(() => expect(screen.queryByText('Your card number is incomplete.')).toBeNull())
  })

  it('the holder name is checked before Stripe is asked', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/cc': { creditcards: [] }, 'GET /api/payment_availability': STRIPE_AVAIL })
    renderApp('/payment-methods?lang=en')
    await openStripeForm()
    fireEvent.change(screen.getByLabelText(/^Cardholder name/), { target: { value: '山田' } })
    fireEvent.click(screen.getByRole('button', { name: 'Register' }))
    expect(await screen.findByText('Enter the name as on the card, in Latin letters.')).toBeTruthy()
    expect(fake.state.created).toHaveLength(0)
  })

  it('a declined card says why and that nothing was charged, in the member\'s language', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/cc': { creditcards: [] }, 'GET /api/payment_availability': STRIPE_AVAIL,
      'POST /api/cc/register': json({ validationErrors: { token: ['บัตรถูกปฏิเสธ'] } }, 400),
    })
    renderApp('/payment-methods?lang=th')
    fireEvent.click(await screen.findByRole('button', { name: 'ลงทะเบียนบัตร' }))
    await screen.findByTestId('fake-card-frame')
    fireEvent.change(screen.getByLabelText(/^ชื่อผู้ถือบัตร/), { target: { value: 'TARO PEACH' } })
    fireEvent.click(screen.getByRole('button', { name: 'ลงทะเบียน' }))
    const refusal = await screen.findByTestId('register-refusal')
    expect(refusal.textContent).toContain('บัตรถูกปฏิเสธ')
    expect(refusal.textContent).toContain('ไม่มีการเรียกเก็บเงินจากบัตรของคุณ')
    await waitFor(() => expect(document.activeElement).toBe(refusal))
    // the form stays for another card
    expect(screen.getByTestId('fake-card-frame')).toBeTruthy()
  })

  it('a card that needs 3-D Secure sends the member to the issuer\'s page', async () => {
    const assign = vi.spyOn(pageNavigation, 'assign').mockImplementation(() => {})
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/cc': { creditcards: [] }, 'GET /api/payment_availability': STRIPE_AVAIL,
      'POST /api/cc/register': { status: 'requires_action', setupId: 'seti_1', nextAction: { type: 'redirect', url: 'https://hooks.stripe.com/3d_secure/x' } },
    })
    renderApp('/payment-methods?lang=en')
    await openStripeForm()
    fake.state.next = { paymentMethod: { id: 'pm_card_threeDSecureRequired' } }
    fireEvent.click(screen.getByRole('button', { name: 'Register' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://hooks.stripe.com/3d_secure/x'))
    // still waiting while the browser leaves: no second press
    expect((screen.getByRole('button', { name: 'Please wait…' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('back from the check (?setup=): completes once, says so with focus, and clears the address', async () => {
    const api = stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/cc': { creditcards: [card({})] },
      'POST /api/cc/register/seti_1/complete': { creditcard: card({}), mailSent: false },
    })
    renderApp('/payment-methods?setup=seti_1&setup_intent=seti_1&setup_intent_client_secret=s&redirect_status=succeeded&lang=en')
    const done = await screen.findByText('The card has been registered, but the notification e-mail may not have been sent.')
    await waitFor(() => expect(document.activeElement).toBe(done.closest('[data-testid="register-outcome"]')))
    expect(api.called('POST /api/cc/register/seti_1/complete')).toBe(1)
    await waitFor(() => expect(currentUrl()).toBe('/payment-methods?lang=en'))
  })

  it('back from a failed check: the decline, nothing charged (Korean)', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/cc': { creditcards: [] },
      'POST /api/cc/register/seti_2/complete': json({ validationErrors: { token: ['본인 인증에 실패했습니다.'] } }, 400),
    })
    renderApp('/payment-methods?setup=seti_2&lang=kr')
    const outcome = await screen.findByTestId('register-outcome')
    await waitFor(() => expect(outcome.textContent).toContain('본인 인증에 실패했습니다.'))
    expect(outcome.textContent).toContain('카드가 등록되지 않았습니다.')
    expect(outcome.textContent).toContain('카드에 청구된 금액은 없습니다.')
    await waitFor(() => expect(document.activeElement).toBe(outcome))
  })

  it('back while the issuer has not answered (409): says so, and Check again asks once more', async () => {
    let answers = 0
    const api = stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/cc': { creditcards: [] },
      'POST /api/cc/register/seti_3/complete': () => (++answers === 1
        ? json({ message: 'pending' }, 409)
        : json({ creditcard: card({}), mailSent: true })),
    })
    renderApp('/payment-methods?setup=seti_3&lang=en')
    expect(await screen.findByText(/has not confirmed the check yet/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }))
    expect(await screen.findByText('The card has been registered. A confirmation e-mail has been sent to your registered address.')).toBeTruthy()
    expect(api.called('POST /api/cc/register/seti_3/complete')).toBe(2)
  })

  it('Stripe.js that cannot load says so instead of an empty field', async () => {
    fake.state.fail = true
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/cc': { creditcards: [] }, 'GET /api/payment_availability': STRIPE_AVAIL })
    renderApp('/payment-methods?lang=en')
    fireEvent.click(await screen.findByRole('button', { name: 'Register a card' }))
    const alert = await screen.findByText(/^Card entry is unavailable just now/)
    expect(alert.closest('[role="alert"]')?.textContent).toContain('Please check your connection and try again.')
    expect(screen.queryByRole('status', { name: /Loading the secure card field/ })).toBeNull()
    // loading it again shows Stripe's field once Stripe.js answers
    fake.state.fail = false
    fireEvent.click(screen.getByRole('button', { name: 'Load the card field again' }))
    expect(await screen.findByTestId('stripe-card')).toBeTruthy()
    await waitFor(() => expect(screen.queryByText(/^Card entry is unavailable just now/)).toBeNull())
  })

  it('a card saved with another gateway is shown as not usable', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/cc': { creditcards: [card({ token: 'tok-old', gateway: 'ndhk', creditCardType: 'ndhk_visa', isValid: false, usable: false })] },
    })
    renderApp('/payment-methods?lang=en')
    expect(await screen.findByText(/^Cannot be used: saved with a payment service we no longer use/)).toBeTruthy()
    expect(screen.queryByText('Expired')).toBeNull()
    // Delete asks as for any card (it is not an expired one)
    fireEvent.click(screen.getByRole('button', { name: 'Delete Visa ending 4242' }))
    expect(await screen.findByRole('dialog', { name: 'Delete this card?' })).toBeTruthy()
  })

  it('sandbox mode keeps its own card fields and never loads Stripe.js', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/cc': { creditcards: [] }, 'GET /api/payment_availability': SANDBOX_AVAIL })
    renderApp('/payment-methods?lang=en')
    fireEvent.click(await screen.findByRole('button', { name: 'Register a card' }))
    expect(await screen.findByLabelText(/^Card number/)).toBeTruthy()
    expect(screen.getByLabelText(/^Security code/)).toBeTruthy()
    expect(fake.state.loads).toEqual([])
  })
})

describe('the purchase panel in Stripe mode', () => {
  const status = { 'GET /api/gogo_pass_status': { isGogoPassPublic: true, isGogoPassPurchasable: true, isGogoPassLotteryPhase: false, isGogoPassMaintenance: false } }
  const range = (begin: string, end: string) => ({ begin, end })
  const passes = { purchasable: true, maintenance: false, wins: [], gogoPasses: [{ id: 'gp', name: 'Peach GoGo Pass', nameAlt: 'All-you-can-fly pass', periods: [{
    id: 'gp-next', availablePeriodToBoard: range('2027-01-10', '2027-03-31'), availablePeriodToBook: range('2026-11-20', '2027-03-20'),
    currencyCode: 'JPY', price: { happy: 54800, happlus: 74800 }, lotteryQuota: 0 }] }] }

  it('pays with a new card as a PaymentMethod and does not offer cards of another gateway or expired ones', async () => {
    const bodies: Record<string, unknown>[] = []
    const api = stubFetch({
      'GET /api/session/info': MEMBER_SESSION, ...status,
      'GET /api/gogo_pass': passes,
      'GET /api/cc': { creditcards: [
        card({ token: 'tok-sandbox', gateway: 'ndhk', creditCardType: 'ndhk_visa', currency: 'ALL', isValid: false, usable: false }),
        card({ token: 'pm_expired', brand: 'mastercard', cardNumber: '************4444', creditCardType: 'mastercard', expirationDate: '20/01', currency: 'ALL', isValid: false, usable: false }),
      ] },
      'GET /api/payment_availability': STRIPE_AVAIL,
      'GET /api/cc/pending': { pending: false },
      'GET /api/payments/pending': { payments: [] },
      'POST /api/gogo_pass/buy/validate': ({ body }) => { bodies.push(JSON.parse(body ?? '{}') as Record<string, unknown>); return json({}) },
      'POST /api/gogo_pass/buy': () => json({ paymentProcessId: 'pp-1', transactionId: 't', productType: 'gogo_pass', status: 'prepared', amount: 74800, currency: 'JPY', description: 'd', paymentMethod: 'creditCard' }),
    })
    renderApp('/gogo-pass?lang=en')
    const fares = await screen.findAllByRole('radio')
    fireEvent.click(fares.find((r) => (r as HTMLInputElement).value === 'happlus')!)
    // no usable saved card: the new card is the method, typed in Stripe's field
    await screen.findByTestId('fake-card-frame', {}, { timeout: 8000 })
    expect(screen.getByTestId('current-method').textContent).toBe('A new credit card')
    fireEvent.click(screen.getByRole('button', { name: 'Change' }))
    const chooser = await screen.findByRole('dialog', { name: 'Choose a payment method' })
    expect(within(chooser).queryByText(/Visa ending 4242/)).toBeNull()
    // the expired card opens the expired-card dialog, it is not chosen
    fireEvent.click(within(chooser).getByRole('button', { name: /Mastercard ending 4444/ }))
    fireEvent.click(within(await screen.findByRole('alertdialog', { name: 'Credit card has expired' })).getByRole('button', { name: 'Cancel' }))
    expect(screen.getByTestId('current-method').textContent).toBe('A new credit card')
    fireEvent.change(screen.getByLabelText(/^Cardholder name/), { target: { value: 'HANAKO YAMADA' } })
    fireEvent.click(screen.getByLabelText('Save this card for next time'))
    const confirm = screen.getByRole('button', { name: 'Go to confirmation' }) as HTMLButtonElement
    await waitFor(() => expect(confirm.disabled).toBe(false))
    fireEvent.click(confirm)
    await waitFor(() => expect(window.location.pathname).toBe('/payment/gogo_pass/pp-1'))
    expect(bodies[0]).toMatchObject({ paymentMethod: 'creditCard', creditCardToken: 'pm_card_visa', creditCardGateway: 'stripe', saveCard: true })
    expect(fake.state.created[0]).toMatchObject({ billing_details: { name: 'HANAKO YAMADA' } })
    expect(api.called('POST /gateway/v1/tokens')).toBe(0)
  })
})
