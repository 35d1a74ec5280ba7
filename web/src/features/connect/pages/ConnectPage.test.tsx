import { afterEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { stubFetch, json, MEMBER_SESSION } from '@/test/fetchStub'
import { pageNavigation } from '@/app/pageNavigation'

afterEach(() => vi.restoreAllMocks())

describe('connect page', () => {
  it('asks before a partner site receives anything, in the member\'s language, and goes where the server says', async () => {
    const assign = vi.spyOn(pageNavigation, 'assign').mockImplementation(() => {})
    const answers: unknown[] = []
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/oidc/requests/r1': json({ clientName: 'Hotel Partner', firstParty: false, scopes: ['openid', 'email', 'membership'], consentNeeded: true }),
      'POST /api/oidc/requests/r1': ({ body }) => {
        answers.push(JSON.parse(body ?? '{}'))
        return json({ redirectTo: '/oidc/authorize/callback?id=r1' })
      },
    })
    renderApp('/connect?request=r1&lang=jp')
    const region = await screen.findByRole('region', { name: /Hotel Partnerがあなたのアカウントの利用を求めています/ }, { timeout: 20000 })
    const items = within(region).getAllByRole('listitem').map((li) => li.textContent)
    expect(items).toEqual(['アカウントの識別子（メールアドレスではありません）', 'メールアドレス', '会員番号'])
    expect(answers).toEqual([])
    fireEvent.click(within(region).getByRole('button', { name: '許可する' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/oidc/authorize/callback?id=r1'))
    expect(answers).toEqual([{ approve: true }])
  }, 40000)

  it('a refusal goes back to the site', async () => {
    const assign = vi.spyOn(pageNavigation, 'assign').mockImplementation(() => {})
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/oidc/requests/r2': json({ clientName: 'Hotel Partner', firstParty: false, scopes: ['openid'], consentNeeded: true }),
      'POST /api/oidc/requests/r2': ({ body }) =>
        json({ redirectTo: JSON.parse(body ?? '{}').approve ? 'wrong' : 'https://hotel.example/cb?error=access_denied&state=s' }),
    })
    renderApp('/connect?request=r2&lang=en')
    fireEvent.click(await screen.findByRole('button', { name: "Don't allow" }, { timeout: 20000 }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://hotel.example/cb?error=access_denied&state=s'))
  }, 40000)

  it('goes straight on for the airline\'s own site, without asking', async () => {
    const assign = vi.spyOn(pageNavigation, 'assign').mockImplementation(() => {})
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/oidc/requests/r3': json({ clientName: 'Booking site', firstParty: true, scopes: ['openid', 'profile'], consentNeeded: false }),
      'POST /api/oidc/requests/r3': json({ redirectTo: '/oidc/authorize/callback?id=r3' }),
    })
    renderApp('/connect?request=r3&lang=en')
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/oidc/authorize/callback?id=r3'), { timeout: 20000 })
    expect(screen.queryByRole('button', { name: 'Allow' })).toBeNull()
    expect(screen.getByRole('status').textContent).toBe('Logging you in to Booking site…')
  }, 40000)

  it('says a request that ran out has expired', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/payments/pending': json({ payments: [] }) })
    renderApp('/connect?request=gone&lang=en')
    expect((await screen.findByRole('alert', {}, { timeout: 20000 })).textContent).toBe('Go back to the site you came from and log in again.')
    expect(screen.getByRole('heading', { name: 'This login has expired' })).toBeTruthy()
  }, 40000)
})
