import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { keepSale } from '@/features/payment'
import { json, stubFetch, MEMBER_SESSION } from '@/test/fetchStub'
import type { components } from '@/api/schema'

const voucher: components['schemas']['Peachpoint'] = {
  code: '7100000000000005',
  pointNumber: '7100000000000005',
  currentCode: '7100000000000005',
  currency: 'JPY',
  balance: 5000,
  issuedCurrencyAmount: 5000,
  effectiveDate: '2026-02-20',
  expireDate: '2027-02-20',
  travelEffectiveDate: '2026-02-20',
  travelExpireDate: '2027-08-20',
  statusCode: 'ACTIVE',
  status: 'Valid',
  issuedName: 'HANAKO YAMADA',
  rules: [{ type: 'voucherMarketOriginDestinationRule', marketOriginDestinations: ['KIX-ICN'] }],
}
const summary = ['KRW', 'CNY', 'JPY', 'TWD', 'HKD', 'THB', 'SGD'].flatMap((c) =>
  (['available', 'expireThisMonth', 'expireNextMonth'] as const).map((group) => ({ currencyCode: c, currency: c, group, amount: c === 'JPY' && group === 'available' ? 8000 : 0 })),
)
const base = {
  'GET /api/session/info': MEMBER_SESSION,
  'GET /api/peachpoints/timeline': { months: [] },
  'GET /api/peachpoints/expired_in': { month: '2026-11', currencyCode: 'JPY', amount: 3000, peachpoints: [] },
}

describe('points overview', () => {
  it('shows the summary in order, the vouchers with their rules in words, and pages with the last condition', async () => {
    const queries: URLSearchParams[] = []
    stubFetch({
      ...base,
      'GET /api/peachpoints/summary': summary,
      'GET /api/peachpoints': (req) => {
        queries.push(req.url.searchParams)
        const page = Number(req.url.searchParams.get('page') ?? '1')
        return json({ peachpoints: [voucher], perPage: 10, currentPage: page, total: 11, totalPages: 2 })
      },
    })
    renderApp('/points?lang=en')
    const table = await screen.findByRole('table')
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(8))
    expect(within(table).getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['KRW', 'CNY', 'JPY', 'TWD', 'HKD', 'THB', 'SGD'])
    expect(within(table).getByText('8,000')).toBeTruthy()
    const card = await screen.findByRole('article', { name: /7100000000000005/ })
    expect(within(card).getByText('Routes: KIX – ICN')).toBeTruthy()
    expect(queries[0].get('hasBalance')).toBe('true')
    expect(queries[0].get('isOnlyActive')).toBe('true')
    fireEvent.change(screen.getByLabelText('Currency', { selector: '#points-currency' }), { target: { value: 'JPY' } })
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() => expect(queries.at(-1)?.get('currencyCode')).toBe('JPY'))
    // The same condition submitted again still asks the server.
    const sent = queries.length
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() => expect(queries.length).toBe(sent + 1))
    expect(queries.at(-1)?.get('currencyCode')).toBe('JPY')
    fireEvent.click(await screen.findByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(queries.at(-1)?.get('page')).toBe('2'))
    // the new page is shown from its start: the results heading has focus
    await waitFor(() => expect(document.activeElement?.id).toBe('points-results-title'))
    expect(queries.at(-1)?.get('currencyCode')).toBe('JPY')
  })

  it('shows placeholder rows after a failed summary and an empty list after a 500 search', async () => {
    stubFetch({
      ...base,
      'GET /api/peachpoints/summary': json({ message: 'System error occurred.' }, 500),
      'GET /api/peachpoints': json({ message: 'System error occurred.' }, 500),
    })
    renderApp('/points?lang=en')
    expect(await screen.findByText(/could not be loaded/)).toBeTruthy()
    const table = screen.getAllByRole('table')[0]
    expect(within(table).getAllByRole('rowheader')).toHaveLength(7)
    expect(within(table).getAllByText('-')).toHaveLength(21)
    expect(await screen.findByText('No points match these conditions.')).toBeTruthy()
  })
})

describe('exchange', () => {
  it('trims the inputs, shows the mismatch screen of the partner-miles variant', async () => {
    const bodies: unknown[] = []
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'POST /api/peachpoints/exchange/validate': (req) => {
        bodies.push(JSON.parse(req.body ?? '{}'))
        return json({ message: 'x', errorKey: 'peachpoint_exchange_mismatch_error' }, 500)
      },
    })
    renderApp('/points/exchange-ana?lang=en')
    fireEvent.change(await screen.findByLabelText(/Miles exchange code/), { target: { value: '  demoana20260 ' } })
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: ' PEACH2026 ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('The code does not match')).toBeTruthy()
    expect(screen.getByText(/Other exchange codes are entered under/)).toBeTruthy()
    expect(bodies[0]).toEqual({ code: 'demoana20260', password: 'PEACH2026', ana: true })
  })

  it('confirms, exchanges and shows the new number and PIN once', async () => {
    const issued = { ...voucher, pointNumber: '7300000000000001', code: '7300000000000001', currentCode: '7300000000000001', balance: 3000, rules: [] }
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'POST /api/peachpoints/exchange/validate': { code: 'DEMOCODE2026', currencyCode: 'JPY', amount: 3000, ana: false },
      'POST /api/peachpoints/exchange/exchange': { peachpoint: issued, pin: '12345678' },
    })
    renderApp('/points/exchange?lang=en')
    fireEvent.change(await screen.findByLabelText(/Exchange code/), { target: { value: 'DEMOCODE2026' } })
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'PEACH2026' } })
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('Confirm the exchange')).toBeTruthy()
    expect(screen.getByText('3,000')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Exchange' }))
    expect(await screen.findByTestId('issued-pin')).toHaveProperty('textContent', '12345678')
    expect(screen.getByTestId('issued-number').textContent).toBe('7300000000000001')
  })

  it('asks for the conversion code before calling the server', async () => {
    const stub = stubFetch({ 'GET /api/session/info': MEMBER_SESSION })
    renderApp('/points/exchange?lang=en')
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm' }))
    expect((await screen.findAllByText('Enter the conversion code')).length).toBeGreaterThan(0)
    expect(stub.called('POST /api/peachpoints/exchange/validate')).toBe(0)
  })
})

describe('reissue', () => {
  it('validates, confirms, reissues on its currency page and says only that the mail failed', async () => {
    let sentCurrency: string | undefined
    const issued = { ...voucher, pointNumber: '7400000000000001', currency: 'TWD', balance: 1000, rules: [] }
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'POST /api/peachpoints/reissue/validate': { peachpoint: { ...voucher, pointNumber: '7100000000000003', currency: 'TWD', balance: 1000, statusCode: 'EXPIRED' } },
      'POST /api/peachpoints/reissue/reissue': ({ body }) => {
        sentCurrency = (JSON.parse(body ?? '{}') as { currencyCode?: string }).currencyCode
        return json({ peachpoint: issued, pin: '87654321', errorKey: 'mobile_mail_error' })
      },
    })
    renderApp('/points/reissue/twd?lang=en')
    expect(await screen.findByRole('heading', { name: 'Reissue expired points (TWD)' })).toBeTruthy()
    fireEvent.change(screen.getByLabelText(/Point number/), { target: { value: '7100000000000003' } })
    fireEvent.change(screen.getByLabelText(/^PIN/), { target: { value: '24681357' } })
    fireEvent.change(screen.getByLabelText(/E-mail address/), { target: { value: 'hanako@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    const dialog = await screen.findByRole('dialog', { name: 'Confirm the reissue' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reissue' }))
    expect(await screen.findByText('The points have been reissued')).toBeTruthy()
    expect(screen.getByText(/the e-mail with the point number and PIN could not be sent/)).toBeTruthy()
    expect(screen.queryByText(/e-mailed to you/)).toBeNull()
    expect(sentCurrency).toBe('TWD')
    expect(screen.getByTestId('issued-pin').textContent).toBe('87654321')
  })

  it('an unknown variant is the not-found page', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION })
    renderApp('/points/reissue/usd?lang=en')
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy()
    expect(screen.queryByLabelText(/Point number/)).toBeNull()
  })

  it('shows the reissue error texts', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'POST /api/peachpoints/reissue/validate': { peachpoint: { ...voucher, statusCode: 'EXPIRED' } },
      'POST /api/peachpoints/reissue/reissue': json({ message: 'x', errorKey: 'voucher_reissue_error' }, 500),
    })
    renderApp('/points/reissue/cny?lang=en')
    fireEvent.change(await screen.findByLabelText(/Point number/), { target: { value: '7100000000000004' } })
    fireEvent.change(screen.getByLabelText(/^PIN/), { target: { value: '24681357' } })
    fireEvent.change(screen.getByLabelText(/E-mail address/), { target: { value: 'hanako@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reissue' }))
    expect(await screen.findByText('The reissue was cancelled.')).toBeTruthy()
  })

  it('shows the error modal, not only a toast, on an unknown server error', async () => {
    let validateAnswer = json({ message: 'x' }, 500)
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'POST /api/peachpoints/reissue/validate': () => validateAnswer,
      'POST /api/peachpoints/reissue/reissue': json({ message: 'x' }, 500),
    })
    renderApp('/points/reissue/cny?lang=en')
    fireEvent.change(await screen.findByLabelText(/Point number/), { target: { value: '7100000000000004' } })
    fireEvent.change(screen.getByLabelText(/^PIN/), { target: { value: '24681357' } })
    fireEvent.change(screen.getByLabelText(/E-mail address/), { target: { value: 'hanako@example.com' } })
    // the check before the reissue fails: the system-error modal
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    const system = await screen.findByRole('alertdialog')
    expect(within(system).getByText('System error occurred.')).toBeTruthy()
    fireEvent.click(within(system).getByRole('button', { name: 'OK' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    // the reissue itself fails without a key: its outcome is unknown, the
    // modal says to check the points before trying again
    validateAnswer = json({ peachpoint: { ...voucher, statusCode: 'EXPIRED' } }, 200)
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reissue' }))
    const failed = await screen.findByRole('alertdialog', { name: 'The points could not be reissued' })
    expect(within(failed).getByText(/check your points, and try again if they were not reissued/)).toBeTruthy()
  })
})

describe('points sale', () => {
  const avail = { creditCard: ['visa' as const], registerCreditCard: ['visa' as const], otherPayment: [], convenienceStore: true }
  it('asks preapply before the form and offers its amounts', async () => {
    const api = stubFetch({
      ...base,
      'GET /api/user': { firstname: 'Hanako', lastname: 'Sora', hasInvalidCharactersInEmail: false },
      'GET /api/payments/pending': { payments: [] },
      'POST /api/peachpoints/buy/preapply': { productType: 'peachpoints', currencies: [{ currencyCode: 'JPY', amounts: [1000, 3000], availability: avail }] },
    })
    renderApp('/points/sale?lang=en')
    const currency = await screen.findByLabelText(/Currency unit/)
    await waitFor(() => expect(api.called('POST /api/peachpoints/buy/preapply')).toBe(1))
    fireEvent.change(currency, { target: { value: 'JPY' } })
    const amount = screen.getByLabelText(/Purchase amount/) as HTMLSelectElement
    await waitFor(() => expect([...amount.options].map((o) => o.value)).toEqual(['', '1000', '3000']))
    expect(screen.queryByRole('alert')).toBeNull()
    expect((screen.getByRole('button', { name: 'Go to payment' }) as HTMLButtonElement).disabled).toBe(false)
  })

  it('says a pending payment blocks the purchase before the form is filled (409 payment_pending)', async () => {
    stubFetch({
      ...base,
      'GET /api/user': { firstname: 'Hanako', lastname: 'Sora', hasInvalidCharactersInEmail: false },
      'GET /api/payments/pending': { payments: [] },
      'POST /api/peachpoints/buy/preapply': json({ message: 'x', errorKey: 'payment_pending' }, 409),
    })
    renderApp('/points/sale?lang=en')
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toMatch(/about 30\sminutes\) and try again, or pay or cancel your payment under Pending payments/)
    expect((screen.getByRole('button', { name: 'Go to payment' }) as HTMLButtonElement).disabled).toBe(true)
  })

  const options = { productType: 'peachpoints', currencies: [{ currencyCode: 'JPY' as const, amounts: [3000, 5000], availability: avail }, { currencyCode: 'KRW' as const, amounts: [30000], availability: avail }] }
  it('prefills the nominee with the member\'s name in Latin letters', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'POST /api/peachpoints/buy/preapply': options, 'GET /api/user': { firstname: 'Hanako', lastname: 'Sora', hasInvalidCharactersInEmail: false } })
    renderApp('/points/sale?lang=en')
    const nominee = (await screen.findByLabelText(/^Nominee/)) as HTMLInputElement
    await waitFor(() => expect(nominee.value).toBe('HANAKO SORA'))
  })

  it('"Start again" (?again) brings back the inputs sent to payment', async () => {
    keepSale('peachpoints', { nominee: 'TARO PEACH', currencyCode: 'JPY', amount: 5000 })
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'POST /api/peachpoints/buy/preapply': options })
    renderApp('/points/sale?again=1&lang=en')
    const nominee = (await screen.findByLabelText(/^Nominee/)) as HTMLInputElement
    expect(nominee.value).toBe('TARO PEACH')
    await waitFor(() => expect((screen.getByLabelText(/^Purchase amount/) as HTMLSelectElement).value).toBe('5000'))
    sessionStorage.clear()
  })
})

describe('wallet timeline', () => {
  it('an expired voucher of this month is marked expired, never "this month"', async () => {
    const month = new Date(Date.now() + 9 * 3600_000).toISOString().slice(0, 7)
    stubFetch({
      ...base,
      'GET /api/peachpoints/summary': summary,
      'GET /api/peachpoints': { peachpoints: [], perPage: 10, currentPage: 1, total: 0, totalPages: 0 },
      'GET /api/peachpoints/timeline': { months: [{ month, totals: [], peachpoints: [{ ...voucher, pointNumber: '7100000000000099', currency: 'JPY', expireDate: `${month}-01`, statusCode: 'EXPIRED' }] }] },
    })
    renderApp('/points?lang=en')
    const timeline = await screen.findByRole('region', { name: 'Wallet' })
    await within(timeline).findByText(/7100000000000099/)
    expect(timeline.querySelector('.timeline__month--now')).toBeNull()
    expect(within(timeline).getAllByText('Expired').length).toBeGreaterThan(0)
    expect(within(timeline).queryByText('Expires this month')).toBeNull()
  })
})

describe('counts of vouchers', () => {
  it('says "1 voucher" and "2 vouchers", not "1 vouchers"', async () => {
    for (const n of [1, 2]) {
      stubFetch({
        ...base,
        'GET /api/peachpoints/summary': summary,
        'GET /api/peachpoints': { peachpoints: Array.from({ length: n }, (_, i) => ({ ...voucher, pointNumber: `710000000000000${i}`, code: `710000000000000${i}` })), perPage: 10, currentPage: 1, total: n, totalPages: 1 },
        'GET /api/peachpoints/expired_in': { month: '2026-11', currencyCode: 'JPY', amount: 3000, peachpoints: Array.from({ length: n }, () => voucher) },
      })
      const { unmount } = renderApp('/points?lang=en')
      await screen.findByText(n === 1 ? '1 voucher found' : '2 vouchers found')
      await screen.findByText(n === 1 ? '(1 voucher)' : '(2 vouchers)')
      unmount()
    }
  })
})

describe('exchange of a used code', () => {
  it('says the code was used, in the server\'s words', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'POST /api/peachpoints/exchange/validate': json({ message: 'This code has already been exchanged. If you exchanged it, its points are in your holdings under Points.', errorKey: 'peachpoint_exchange_error' }, 500),
    })
    renderApp('/points/exchange?lang=en')
    fireEvent.change(await screen.findByLabelText(/^Exchange code/), { target: { value: 'PPX-1' } })
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'secret' } })
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('This code has already been exchanged. If you exchanged it, its points are in your holdings under Points.')).toBeTruthy()
  })
})
