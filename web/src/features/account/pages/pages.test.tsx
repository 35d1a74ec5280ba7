import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderApp, currentUrl } from '@/test/renderApp'
import { json, stubFetch, MEMBER_SESSION, VISITOR_SESSION } from '@/test/fetchStub'
import { rememberSession } from '@/api/sessionHint'

const user = {
  profileId: '1', optin1: true, autoLoginIsActive: false, autoLoginNoticeMail: true, memberships: [], isEmployee: false,
  hasInvalidCharactersInEmail: false, hasInvalidBirthDate: false, hasInvalidPassportCountryCode: false,
  onlineShopAccountStatus: 'unknown', firstname: 'Hanako', lastname: 'Yamada', gender: 'female', birth: '1988-04-12',
  email: 'demo@example.com', tel: '0312345678', addressCountryCode: 'JP', addressCountry: 'Japan', addressPostalCode: '5490001',
  addressStateAndCity: 'Osaka', address1: '1 Senshu', passportNo: '', passportNationalityCode: '', passportNationality: '',
  passportIssueCountryCode: '', passportIssueCountry: '', passportExpirationDate: '',
}
const countries = [{ code: 'JP', name: 'Japan' }, { code: 'KR', name: 'South Korea' }]

describe('account pages', () => {
  it('profile form: client rule error beside the field, then a save with the no-mail notice', async () => {
    let body: Record<string, unknown> = {}
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/user': user, 'GET /api/masters/countries': countries,
      'PUT /api/user': (req) => { body = JSON.parse(req.body ?? '{}'); return json({ user, mailSent: false }) },
    })
    renderApp('/account?lang=en')
    const tel = await screen.findByLabelText(/^Phone number/)
    fireEvent.change(tel, { target: { value: '03-12a4' } })
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }))
    expect(await screen.findAllByText('Enter the phone number in digits; hyphens and spaces may separate them.')).not.toHaveLength(0)
    await screen.findByText('input error', { exact: false }).catch(() => undefined)
    // Hyphens and spaces are accepted and the number is sent cleaned.
    fireEvent.change(tel, { target: { value: '03 1234-5678' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await screen.findByText('Saved, but the notification e-mail may not have been sent.')
    expect(body.tel).toBe('0312345678')
  })

  it('profile form: server 400 is shown beside the field (jp)', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/user': user, 'GET /api/masters/countries': countries,
      'PUT /api/user': json({ validationErrors: { email: ['このメールアドレスはすでに登録されています。'] } }, 400),
    })
    renderApp('/account?lang=jp')
    await screen.findByLabelText(/^電話番号/)
    fireEvent.click(await screen.findByRole('button', { name: '保存する' }))
    expect(await screen.findAllByText('このメールアドレスはすでに登録されています。')).not.toHaveLength(0)
  })

  it("asks for the member's record and a pending e-mail change while the country list is still loading", async () => {
    let countriesAnswer = () => {}
    const api = stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/user': user, 'GET /api/user/email_change': {},
      'GET /api/masters/countries': () => new Promise<Response>((r) => (countriesAnswer = () => r(json(countries)))),
    })
    renderApp('/account?lang=en')
    await waitFor(() => expect(api.called('GET /api/masters/countries')).toBe(1))
    await waitFor(() => expect(api.calls.filter((c) => c.path === '/api/user').length).toBe(2)) // the shell's and the page's
    await waitFor(() => expect(api.called('GET /api/user/email_change')).toBe(1))
    countriesAnswer()
    await screen.findByLabelText(/^Phone number/)
  })

  it("on a visit's first address, asks for the page's data beside the session check, once", async () => {
    let sessionAnswer = () => {}
    const api = stubFetch({
      'GET /api/session/info': () => new Promise<Response>((r) => (sessionAnswer = () => r(json(MEMBER_SESSION)))),
      'GET /api/user': user, 'GET /api/user/email_change': {}, 'GET /api/masters/countries': countries,
    })
    rememberSession(true) // this browser had a session: the page's data need not wait for the check
    renderApp('/account?lang=en', { preload: true })
    await waitFor(() => expect(api.called('GET /api/session/info')).toBe(1))
    // Still waiting for the session: the page's record, pending change and country list are asked
    // for already, and the shell's data (the member's name, the pass flags, the banner).
    await waitFor(() => expect(api.called('GET /api/masters/countries')).toBe(1))
    await waitFor(() => expect(api.called('GET /api/user/email_change')).toBe(1))
    await waitFor(() => expect(api.called('GET /api/user')).toBe(2))
    await waitFor(() => expect(api.called('GET /api/gogo_pass_status')).toBe(1))
    await waitFor(() => expect(api.called('GET /api/topic_banner')).toBe(1))
    sessionAnswer()
    await screen.findByLabelText(/^Phone number/)
    expect(screen.getByLabelText<HTMLInputElement>(/^Last name/).value).toBe('Yamada')
    // The page and the shell use what was prefetched: nothing is asked for twice.
    await new Promise((r) => setTimeout(r, 50))
    for (const call of ['GET /api/masters/countries', 'GET /api/user/email_change', 'GET /api/gogo_pass_status', 'GET /api/coupon_ticket_status', 'GET /api/topic_banner', 'GET /api/session/info', 'GET /api/cookie_consent']) {
      expect(api.called(call), call).toBe(1)
    }
    expect(api.called('GET /api/user')).toBe(2)
  })

  it("without a session, the early requests' 403s open no dialog: the visitor goes to the login page", async () => {
    const api = stubFetch({
      'GET /api/session/info': VISITOR_SESSION, 'GET /api/user': 403, 'GET /api/user/email_change': 403, 'GET /api/masters/countries': 403,
    })
    rememberSession(true) // the hint says a session, but it has ended since
    renderApp('/account?lang=en', { preload: true })
    await waitFor(() => expect(currentUrl()).toMatch(/^\/login\?/))
    await waitFor(() => expect(api.called('GET /api/masters/countries')).toBe(1))
    await waitFor(() => expect(api.called('GET /api/user')).toBe(2)) // the page's record and the shell's
    await screen.findByRole('button', { name: 'Log in' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.queryByText('Please try to log in again')).toBeNull()
  })

  it('postal lookup fills in only the empty fields, in the page\'s language', async () => {
    let lang = ''
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/user': { ...user, addressStateAndCity: '', address1: '2-1 Rinku Orai' },
      'GET /api/masters/countries': countries, 'GET /api/user/email_change': {},
      'GET /api/postal_code_address': (req) => { lang = req.headers.get('X-Lang') ?? ''; return json({ prefecture: 'Osaka', city: '', street: '' }) },
    })
    renderApp('/account?lang=th')
    const state = await screen.findByLabelText(/^จังหวัดและเมือง/) as HTMLInputElement
    const street = screen.getByDisplayValue('2-1 Rinku Orai') as HTMLInputElement
    fireEvent.click(screen.getByRole('button', { name: 'ค้นหาที่อยู่' }))
    await waitFor(() => expect(state.value).toBe('Osaka'))
    expect(lang).toBe('th')
    expect(street.value).toBe('2-1 Rinku Orai')
  })

  it('a quiet 404 (200 with X-Status) is still "not found" to the page', async () => {
    const api = stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/user': user, 'GET /api/masters/countries': countries, 'GET /api/user/email_change': {},
      'GET /api/postal_code_address': () => new Response(JSON.stringify({ message: 'No address' }), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Status': '404' } }),
    })
    renderApp('/account?lang=en')
    fireEvent.click(await screen.findByRole('button', { name: 'Find address' }))
    expect(await screen.findAllByText('No address was found for this postal code.')).not.toHaveLength(0)
    expect(screen.getByDisplayValue('Osaka')).toBeTruthy()
    expect(api.called('GET /api/postal_code_address')).toBe(1)
  })

  it('password form: after a wrong current password the focus is back on that field', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/user': user, 'GET /api/masters/countries': countries,
      'PUT /api/user/password': json({ validationErrors: { passwordOld: ['The current password is not correct.'] } }, 400),
    })
    renderApp('/account?lang=en')
    const old = await screen.findByLabelText(/^Current password/)
    fireEvent.change(old, { target: { value: 'Wrong123' } })
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'Abcd1234' } })
    fireEvent.change(screen.getByLabelText(/^Re-enter new password/), { target: { value: 'Abcd1234' } })
    const submit = screen.getAllByRole('button', { name: 'Change password' })[0]
    submit.focus()
    fireEvent.click(submit)
    const dialog = await screen.findByRole('alertdialog', { name: 'Input error' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    await waitFor(() => expect(document.activeElement).toBe(old))
    expect(old.getAttribute('aria-invalid')).toBe('true')
  })

  it('password form: re-entered password must match', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/user': user, 'GET /api/masters/countries': countries })
    renderApp('/account?lang=en')
    fireEvent.change(await screen.findByLabelText(/^Current password/), { target: { value: 'Demo1234' } })
    fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: 'Abcd1234' } })
    fireEvent.change(screen.getByLabelText(/^Re-enter new password/), { target: { value: 'Abcd1235' } })
    fireEvent.click(screen.getAllByRole('button', { name: 'Change password' })[0])
    expect(await screen.findAllByText('The passwords do not match.')).not.toHaveLength(0)
  })

  it('e-mail change link: the heading says it is confirmed once it is', async () => {
    stubFetch({ 'POST /api/email_change/confirm': json({ email: 'new@example.com' }) })
    renderApp('/email-change/confirm/tok123?lang=en')
    expect(await screen.findByRole('heading', { level: 1, name: 'Your new e-mail address is confirmed' })).toBeTruthy()
    expect(screen.getByText('Your e-mail address is now new@example.com.')).toBeTruthy()
    expect(screen.queryByText('Confirm your new e-mail address')).toBeNull()
    // The browser tab names the page, not only the product.
    await waitFor(() => expect(document.title).toBe('Your new e-mail address is confirmed | Peach Members'))
  })

  it.each([
    ['confirm', 'en', 'Confirm your new e-mail address'],
    ['undo', 'jp', 'メールアドレス変更の取り消し'],
    ['undo', 'th', 'ยกเลิกการเปลี่ยนที่อยู่อีเมล'],
  ])('e-mail change link (%s, %s): the page has its own title while it works', async (kind, lang, title) => {
    stubFetch({ [`POST /api/email_change/${kind}`]: () => new Promise<Response>(() => undefined) })
    renderApp(`/email-change/${kind}/tok123?lang=${lang}`)
    await screen.findByRole('heading', { level: 1, name: title })
    await waitFor(() => expect(document.title.startsWith(`${title} | `)).toBe(true))
  })

  it("passengers: a name is written in the language's order (family name first in Japanese)", async () => {
    const list = [{ id: 'p1', passengerType: 'CHILD', firstname: 'Sakura', lastname: 'Yamada', gender: 'female', birth: '2020-10-10',
      tel: '', email: '', passportNo: '', passportNationalityCode: '', passportIssueCountryCode: '', passportExpirationDate: '' }]
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/masters/countries': countries,
      'GET /api/user/passengers': () => json({ passengers: list }),
    })
    renderApp('/passengers?lang=jp')
    await screen.findByText('Yamada Sakura')
    expect(screen.queryByText('Sakura Yamada')).toBeNull()
  })

  it('passengers: lists, adds with a derived type and deletes after confirmation', async () => {
    const list = [{ id: 'p1', passengerType: 'CHILD', firstname: 'Sakura', lastname: 'Yamada', gender: 'female', birth: '2020-10-10',
      tel: '', email: '', passportNo: '', passportNationalityCode: '', passportIssueCountryCode: '', passportExpirationDate: '' }]
    const api = stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/masters/countries': countries,
      'GET /api/user/passengers': () => json({ passengers: list }),
      'POST /api/user/passengers': (req) => json({ passenger: { ...list[0], ...JSON.parse(req.body ?? '{}'), id: 'p2' }, mailSent: true }),
      'DELETE /api/user/passengers/p1': json({ mailSent: true }),
    })
    renderApp('/passengers?lang=en')
    await screen.findByText('Sakura Yamada')
    fireEvent.click(screen.getByRole('button', { name: 'Add a passenger' }))
    fireEvent.change(screen.getByLabelText(/^Last name/), { target: { value: 'Yamada' } })
    fireEvent.change(screen.getByLabelText(/^First name/), { target: { value: 'Jiro' } })
    fireEvent.change(screen.getByLabelText(/^Gender/), { target: { value: 'male' } })
    fireEvent.change(screen.getByLabelText(/^Date of birth/), { target: { value: '1990-05-05' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save passenger' }))
    await waitFor(() => expect(api.called('POST /api/user/passengers')).toBe(1))
    await screen.findByText('Saved. A confirmation mail has been sent to your registered address.')
    fireEvent.click(screen.getByRole('button', { name: 'Delete Sakura Yamada' }))
    const dialog = await screen.findByRole('dialog', { name: 'Delete passenger' })
    fireEvent.click(dialog.querySelector('button.button:not(.button--secondary)')!)
    await waitFor(() => expect(api.called('DELETE /api/user/passengers/p1')).toBe(1))
    // A removal says so, not "Saved.".
    await screen.findByText('Deleted. A confirmation mail has been sent to your registered address.')
    expect(screen.queryByText(/^Saved\./)).toBeNull()
  })

  it('shows the pending e-mail change with its deadline in Japan time, 24-hour, said so outside Japan', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/user': user, 'GET /api/masters/countries': countries,
      'GET /api/user/email_change': { pending: { email: 'new@example.com', expiresAt: '2026-11-26T05:05:00Z' } },
    })
    renderApp('/account?lang=en')
    const notice = await screen.findByText(/will change to new@example.com/)
    // the tests run in UTC: 05:05 UTC is 14:05 in Japan
    expect(notice.textContent).toContain('valid until Nov 26, 2026 14:05 Japan time')
  }, 40000)

  it('online shop: shows the status and links the account, then the way to the shop', async () => {
    const api = stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/user': user, 'GET /api/masters/countries': countries, 'GET /api/user/email_change': {},
      'POST /api/external_services/online_shop/register': { onlineShopAccountStatus: 'registered' },
    })
    renderApp('/account?lang=en')
    const section = await screen.findByRole('region', { name: /Online shop/ })
    expect(within(section).getByTestId('online-shop-status').textContent).toBe('Not linked')
    expect(within(section).queryByRole('link', { name: /online shop/ })).toBeNull()
    fireEvent.click(within(section).getByRole('button', { name: 'Link to the online shop' }))
    await waitFor(() => expect(api.called('POST /api/external_services/online_shop/register')).toBe(1))
    // The link says whose shop it is and that it opens another site.
    const link = await within(section).findByRole('link', { name: "Go to Peach Aviation's online shop (opens shop.example.com, a separate site)" })
    expect(link.getAttribute('href')).toBe('https://shop.example.com/?lang=en')
    expect(within(section).getByTestId('online-shop-status').textContent).toBe('Linked')
  })

  it('online shop: a linked account shows its status and the shop link (jp)', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION, 'GET /api/user': { ...user, onlineShopAccountStatus: 'registered' }, 'GET /api/masters/countries': countries,
      'GET /api/user/email_change': {},
    })
    renderApp('/account?lang=jp')
    const section = await screen.findByRole('region', { name: /オンラインショップ/ })
    expect(within(section).getByTestId('online-shop-status').textContent).toBe('連携済み')
    expect(within(section).getByRole('link', { name: 'Peach Aviationのオンラインショップへ （別サイト shop.example.com が開きます）' }).getAttribute('href')).toBe('https://shop.example.com/?lang=jp')
    expect(within(section).queryByRole('button')).toBeNull()
  })

  it('reset request: same answer page after sending', async () => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION, 'POST /api/user/reset_password': 204 })
    renderApp('/reset-password?lang=en')
    fireEvent.change(await screen.findByLabelText(/^E-mail address/), { target: { value: 'nobody@example.com' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send the link' }))
    await screen.findByText(/If the address is registered/)
  })

  it.each([
    ['a reset link', '/reset-password/tok?lang=en', 'Set a new password', 'Your password has been changed. Please log in with the new password.'],
    ['the set-password link of a provisioned member', '/reset-password/tok?lang=en&kind=set', 'Set your password', 'Your password is set. Please log in with it.'],
    ['the set-password link in Japanese', '/reset-password/tok?lang=jp&kind=set', 'パスワードの設定', 'パスワードを設定しました。設定したパスワードでログインしてください。'],
  ])('%s: its title, then what it did', async (_, path, title, done) => {
    const api = stubFetch({ 'GET /api/session/info': VISITOR_SESSION, 'POST /api/user/reset_password/validate': 204, 'PUT /api/user/reset_password': 204 })
    renderApp(path)
    await screen.findByRole('heading', { level: 1, name: title })
    const fields = await screen.findAllByLabelText(/パスワード|password/i, { selector: 'input' })
    for (const field of fields) fireEvent.change(field, { target: { value: 'Sora2026pw' } })
    fireEvent.click(screen.getByRole('button', { name: /Set password|パスワードを設定/ }))
    expect((await screen.findByRole('status')).textContent).toBe(done)
    expect(api.called('PUT /api/user/reset_password')).toBe(1)
    screen.getByRole('heading', { level: 1, name: title })
  })

  it('reset link: an invalid token goes to the invalid page', async () => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION, 'POST /api/user/reset_password/validate': 404 })
    renderApp('/reset-password/bad-token?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Link invalid or expired' })
    expect(currentUrl()).toBe('/reset-password/invalid?lang=en')
    screen.getByText(/password reset link is invalid/)
  })

  it('set-password link: an invalid token says the link to set a password expired, not a reset link', async () => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION, 'POST /api/user/reset_password/validate': 404 })
    renderApp('/reset-password/bad-token?kind=set&lang=jp')
    await screen.findByRole('heading', { level: 1, name: 'リンクが無効または期限切れです' })
    expect(currentUrl()).toMatch(/^\/reset-password\/invalid\?(kind=set&lang=jp|lang=jp&kind=set)$/)
    screen.getByText(/パスワード設定リンク/)
    expect(screen.queryByText(/再設定リンク/)).toBeNull()
  })
})
