import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { renderApp, currentUrl } from '@/test/renderApp'
import { json, stubFetch, VISITOR_SESSION } from '@/test/fetchStub'

describe('login page', () => {
  it('shows the single-sign-on failure once and drops the flag from the address', async () => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION })
    renderApp('/login?sso=failed&lang=jp')
    expect((await screen.findByRole('alert')).textContent).toBe('エラーが発生したため、再度ログインしてください。')
    await waitFor(() => expect(currentUrl()).toBe('/login?lang=jp'))
  })

  it('fills in the e-mail another site names (login_hint), and nothing that is no address', async () => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION })
    renderApp('/login?redirect=%2Fconnect%3Frequest%3Dr1&email=demo%40example.com&lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Log in' })
    expect((screen.getByLabelText(/E-mail address/) as HTMLInputElement).value).toBe('demo@example.com')
  })

  it('takes no e-mail hint that is not an address', async () => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION })
    renderApp('/login?email=%3Cscript%3E&lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Log in' })
    expect((screen.getByLabelText(/E-mail address/) as HTMLInputElement).value).toBe('')
  })

  it('shows no single-sign-on message without the flag', async () => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION })
    renderApp('/login?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Log in' })
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('clears a stale login error on the next submit, even one the form refuses', async () => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION, 'POST /api/session': json({ message: 'Login failed. Please check your e-mail address and password.' }, 401) })
    renderApp('/login?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Log in' })
    fireEvent.input(screen.getByLabelText(/E-mail address/), { target: { value: 'a@b.c' } })
    fireEvent.input(screen.getByLabelText(/Password/), { target: { value: 'wrong' } })
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    await screen.findByText('Login failed. Please check your e-mail address and password.')
    // A wrong password gives the focus back to the password field, selected.
    const password = screen.getByLabelText(/Password/) as HTMLInputElement
    await waitFor(() => expect(document.activeElement).toBe(password))
    expect([password.selectionStart, password.selectionEnd]).toEqual([0, 5])
    fireEvent.input(screen.getByLabelText(/Password/), { target: { value: '' } })
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    await waitFor(() => expect(screen.queryByText('Login failed. Please check your e-mail address and password.')).toBeNull())
  })

  it('says "Login failed because an error has occurred. Please retry." when the server fails', async () => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION, 'POST /api/session': json({ message: 'x' }, 500) })
    renderApp('/login?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Log in' })
    fireEvent.input(screen.getByLabelText(/E-mail address/), { target: { value: 'a@b.c' } })
    fireEvent.input(screen.getByLabelText(/Password/), { target: { value: 'Demo1234' } })
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Login failed because an error has occurred. Please retry.')
  })

  it('the booking site\'s failed sign-on comes back as ?sso=failed: the message shows, in the member\'s language', async () => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION })
    renderApp('/login?sso=failed&lang=th')
    expect((await screen.findByRole('alert')).textContent).toBe('เกิดข้อผิดพลาด กรุณาเข้าสู่ระบบอีกครั้ง')
    await waitFor(() => expect(currentUrl()).toBe('/login?lang=th'))
  })
})
