import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { renderApp, currentUrl } from '@/test/renderApp'
import { stubFetch, MEMBER_SESSION, json } from '@/test/fetchStub'
import { keepSale, keptSale } from '@/features/payment/keptSale'

describe('AppLink and navigation', () => {
  it('carries lang on every internal link and is inert on the current page', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION })
    renderApp('/?lang=th')
    await screen.findByRole('heading', { level: 1, name: 'สวัสดีคุณ Hanako Sora' })
    const nav = screen.getByRole('navigation', { name: 'เมนูหลัก' })
    const links = [...nav.querySelectorAll('a')]
    const current = links.find((a) => a.getAttribute('aria-current') === 'page')!
    expect(current.textContent).toBe('หน้าแรก')
    expect(current.hasAttribute('href')).toBe(false)
    for (const a of links.filter((x) => x !== current)) expect(a.getAttribute('href')).toMatch(/\?lang=th$/)

    fireEvent.click(links.find((a) => a.textContent === 'พอยต์')!)
    await waitFor(() => expect(currentUrl()).toBe('/points?lang=th'))
    expect(await screen.findByRole('heading', { level: 1, name: 'พอยต์' })).toBeTruthy()
  })

  it('switches language with the pulldown and rewrites lang', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION })
    renderApp('/account?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Account' })
    fireEvent.change(screen.getByLabelText('Language'), { target: { value: 'hk' } })
    await screen.findByRole('heading', { level: 1, name: '會員資料' })
    expect(currentUrl()).toBe('/account?lang=hk')
    expect(window.localStorage.getItem('members.lang')).toBe('hk')
    expect(document.documentElement.lang).toBe('zh-HK')
  })

  it('logout clears member data and the orders kept for "Start again", and goes to /login', async () => {
    keepSale('coupon_ticket', { productId: 'cp-kix', periodId: 'p1', fareType: 'lite', agreeTerms: true, additionalPassengers: [] })
    let loggedIn = true
    const api = stubFetch({
      'GET /api/session/info': () => json({ ...MEMBER_SESSION, loggedIn }),
      'DELETE /api/session': () => {
        loggedIn = false
        return new Response(null, { status: 204 })
      },
    })
    const { services } = renderApp('/?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Hello, Hanako Sora' })
    expect(services.queryClient.getQueryData(['user'])).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }))
    await screen.findByRole('heading', { level: 1, name: 'Log in' })
    expect(currentUrl()).toBe('/login?lang=en')
    expect(api.called('DELETE /api/session')).toBe(1)
    expect(services.queryClient.getQueryData(['user'])).toBeUndefined()
    expect(keptSale('coupon_ticket', '?again=1')).toBeNull()
  })
})

describe('invalid e-mail notification', () => {
  const user = { firstname: 'A', lastname: 'B', hasInvalidCharactersInEmail: true }

  it('is pushed on the first load of /account', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/user': user })
    renderApp('/account?lang=en')
    await screen.findByRole('dialog', { name: 'Please update your e-mail address' })
  })

  it('is pushed on other paths, but not when navigating to /account later', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/user': user })
    renderApp('/?lang=en')
    const dialog = await screen.findByRole('dialog', { name: 'Please update your e-mail address' })
    fireEvent.click(screen.getByRole('link', { name: 'Go to account' }))
    await waitFor(() => expect(window.location.pathname).toBe('/account'))
    // the account page has rendered with the member's data: the dialog had its chance to come back
    await screen.findByRole('heading', { level: 1, name: 'Account' })
    await screen.findByRole('heading', { level: 2, name: 'Profile' })
    expect(dialog.isConnected).toBe(false)
    expect(screen.queryByRole('dialog', { name: 'Please update your e-mail address' })).toBeNull()
  })

  it('treats a missing user endpoint as no data', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/user': new Response('{}', { status: 501 }) })
    renderApp('/?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Hello' })
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
