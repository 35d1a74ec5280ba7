import { describe, expect, it } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import { renderApp, currentUrl } from '@/test/renderApp'
import { stubFetch } from '@/test/fetchStub'

describe('login page', () => {
  it('shows the single-sign-on failure once and drops the flag from the address', async () => {
    stubFetch({ 'GET /api/session': 403 })
    renderApp('/login?sso=failed&lang=jp')
    expect((await screen.findByRole('alert')).textContent).toBe('エラーが発生したため、再度ログインしてください。')
    await waitFor(() => expect(currentUrl()).toBe('/login?lang=jp'))
  })

  it('shows no single-sign-on message without the flag', async () => {
    stubFetch({ 'GET /api/session': 403 })
    renderApp('/login?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Log in' })
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
