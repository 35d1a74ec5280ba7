import { describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { TranslationProvider } from '@/i18n/translation'
import { MemoryRouter } from 'react-router'
import { createI18n } from '@/i18n/i18n'
import { renderApp, currentUrl } from '@/test/renderApp'
import { json, stubFetch, MEMBER_SESSION, VISITOR_SESSION } from '@/test/fetchStub'
import { ModalProvider } from './ModalProvider'
import { useModals, type Modals } from './modalContext'
import { pageNavigation } from '../pageNavigation'
import { ApiError } from '@/api/errors'

function withModals(lang: 'en' | 'jp' = 'en') {
  let modals: Modals | undefined
  function Grab() {
    modals = useModals()
    return null
  }
  render(
    <TranslationProvider i18n={createI18n(lang)}>
      <MemoryRouter>
        <ModalProvider>
          <Grab />
        </ModalProvider>
      </MemoryRouter>
    </TranslationProvider>,
  )
  return () => modals!
}

describe('session timed out modal', () => {
  it('opens on a 403 from a data call and cannot be closed by the user', async () => {
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/topic_banner': json({ message: 'no session' }, 403), 'GET /api/payments/pending': json({ message: 'no session' }, 403) })
    renderApp('/?lang=en&tab=1')
    const dialog = await screen.findByRole('alertdialog', { name: 'Please try to log in again' })
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull()
    fireEvent.keyDown(dialog, { key: 'Escape' })
    fireEvent.mouseDown(dialog.parentElement!)
    expect(screen.getByRole('alertdialog', { name: 'Please try to log in again' })).toBeTruthy()
    // the page behind stays (no redirect while the modal is up)
    expect(currentUrl()).toBe('/?lang=en&tab=1')

    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    await waitFor(() => expect(window.location.pathname).toBe('/login'))
    expect(new URL(window.location.href).searchParams.get('redirect')).toBe('/?lang=en&tab=1')
    expect(screen.queryByRole('alertdialog')).toBeNull()
  })

  it('says the device was signed out from another one when the 403 says so (th), not "due to inactivity"', async () => {
    const elsewhere = json({ message: 'signed out', errorKey: 'session_ended_elsewhere' }, 403)
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/topic_banner': () => elsewhere.clone(), 'GET /api/payments/pending': () => elsewhere.clone() })
    renderApp('/?lang=th')
    const dialog = await screen.findByRole('alertdialog', { name: 'คุณถูกออกจากระบบแล้ว' })
    expect(dialog.textContent).toContain('อุปกรณ์นี้ถูกออกจากระบบจากอุปกรณ์อื่นในศูนย์ความปลอดภัย')
    expect(dialog.textContent).not.toContain('ไม่มีการใช้งาน')
  })

  it('a page load that finds the device signed out from another one goes to the login page, which says so once', async () => {
    stubFetch({ 'GET /api/session/info': { ...VISITOR_SESSION, signedOutElsewhere: true } })
    renderApp('/points?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Log in' })
    expect(screen.queryByRole('alertdialog')).toBeNull()
    screen.getByText('This device was logged out from another device, in the Security centre. If that was not you, change your password after you log in.')
  })

  it('the login page says the device was logged out from another one once: not on a reload, again only after a check that no longer reports it', async () => {
    const told = 'This device was logged out from another device, in the Security centre. If that was not you, change your password after you log in.'
    const load = async (info: object) => {
      cleanup()
      stubFetch({ 'GET /api/session/info': info })
      renderApp('/login?lang=en')
      await screen.findByRole('heading', { level: 1, name: 'Log in' })
      return screen.queryByText(told) !== null
    }
    const ended = { ...VISITOR_SESSION, signedOutElsewhere: true }
    expect(await load(ended)).toBe(true)
    // the server reports it on every check until a login here: a reload is not told again
    expect(await load(ended)).toBe(false)
    expect(await load(ended)).toBe(false)
    // logged in here, and later logged out from another device again: told again
    cleanup()
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION })
    renderApp('/login?lang=en')
    await waitFor(() => expect(window.location.pathname).toBe('/')) // a member leaves the login page
    expect(await load(ended)).toBe(true)
    // the ending's cookie gone (it expired, or a logout here): the same
    expect(await load(VISITOR_SESSION)).toBe(false)
    expect(await load(ended)).toBe(true)
  })

  it('told by the dialog of a page, the login page a reload opens does not say it again', async () => {
    const elsewhere = json({ message: 'signed out', errorKey: 'session_ended_elsewhere' }, 403)
    stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/topic_banner': () => elsewhere.clone(), 'GET /api/payments/pending': () => elsewhere.clone() })
    renderApp('/?lang=en')
    await screen.findByRole('alertdialog', { name: 'You were logged out' })
    cleanup()
    stubFetch({ 'GET /api/session/info': { ...VISITOR_SESSION, signedOutElsewhere: true } })
    renderApp('/login?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Log in' })
    expect(screen.queryByText(/logged out from another device/)).toBeNull()
  })

  it('on /login its button just closes all modals', async () => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION, 'POST /api/session': json({ message: 'csrf' }, 403) })
    renderApp('/login?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Log in' })
    fireEvent.input(screen.getByLabelText(/E-mail address/), { target: { value: 'a@b.c' } })
    fireEvent.input(screen.getByLabelText(/Password/), { target: { value: 'x' } })
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }))
    // login POST is a session probe: its 403 does not open the modal
    await screen.findByText('Login failed because an error has occurred. Please retry.')
    expect(screen.queryByRole('alertdialog')).toBeNull()

    // a 403 from another call does
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION, 'POST /api/session/token': json({}, 403) })
    const { refreshSessionToken } = await import('@/api/platform')
    await act(async () => {
      await refreshSessionToken().catch(() => {})
    })
    await screen.findByRole('alertdialog', { name: 'Please try to log in again' })
    fireEvent.click(screen.getAllByRole('button', { name: 'Log in' }).at(-1)!)
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(currentUrl()).toBe('/login?lang=en')
  })
})

describe('validation error modal', () => {
  it('lists field labels and messages under "Input error"', async () => {
    const modals = withModals()
    act(() => {
      modals().openValidationErrors({ email: ['Enter your e-mail address.'] }, { email: 'E-mail address' })
    })
    const dialog = screen.getByRole('alertdialog', { name: 'Input error' })
    expect(dialog.textContent).toContain('E-mail address')
    expect(dialog.textContent).toContain('Enter your e-mail address.')
  })

  it('shows the generic text when the key "something" is present', () => {
    const modals = withModals('jp')
    act(() => {
      modals().openValidationErrors({ something: ['x'], email: ['y'] })
    })
    const dialog = screen.getByRole('alertdialog', { name: '入力エラー' })
    expect(dialog.textContent).toContain('入力内容に誤りがあるため、処理を完了できませんでした。')
    act(() => {
      modals().closeAll()
    })
    const en = withModals('en')
    act(() => {
      en().openValidationErrors({ something: ['x'] })
    })
    expect(screen.getByRole('alertdialog', { name: 'Input error' }).textContent).toContain(
      'The process was not completed due to invalid value(s).',
    )
  })
})

describe('error modal', () => {
  it('defaults to the system-error heading and the API-error text; Escape closes it', () => {
    const modals = withModals()
    act(() => {
      modals().openError()
    })
    const dialog = screen.getByRole('alertdialog', { name: 'System error occurred.' })
    expect(dialog.textContent).toContain('Processing was interrupted because an error occurred.')
    expect(document.activeElement?.textContent).toBe('OK')
    fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(screen.queryByRole('alertdialog')).toBeNull()
  })

  it("is titled by what failed: the server's refusal (4xx) with its text, a 503 as try again in a moment, a 5xx or no answer as the system error", () => {
    const modals = withModals()
    const cases: [unknown, string, string][] = [
      [new ApiError(409, { message: 'Already refunded.' }), 'Your request could not be completed', 'Already refunded.'],
      [new ApiError(429, {}), 'Your request could not be completed', 'Processing was interrupted because an error occurred.'],
      [new ApiError(500, { message: 'System error occurred.' }), 'System error occurred.', 'Processing was interrupted because an error occurred.'],
      [new ApiError(500, { message: 'Scheduled from 3:00 am to 5:00 am.', errorKey: 'gogopass_maintenance_error' }), 'System error occurred.', 'Scheduled from 3:00 am to 5:00 am.'],
      [new TypeError('Failed to fetch'), 'System error occurred.', 'Processing was interrupted because an error occurred.'],
      // a 503 (a database restart, a card gateway out of reach): not a system error, try again in a moment
      [new ApiError(503, { message: 'The service could not answer just now. Please try again in a moment.' }), 'Your request could not be completed', 'Please try again in a moment.'],
    ]
    for (const [error, title, text] of cases) {
      act(() => {
        modals().openError({ error })
      })
      const dialog = screen.getByRole('alertdialog', { name: title })
      expect(dialog.textContent).toContain(text)
      fireEvent.keyDown(dialog, { key: 'Escape' })
      expect(screen.queryByRole('alertdialog')).toBeNull()
    }
  })

  it('stacks modals and dedupes by id', () => {
    const modals = withModals()
    act(() => {
      modals().open(() => <div role="dialog" aria-label="one" />, { id: 'x' })
      modals().open(() => <div role="dialog" aria-label="two" />, { id: 'x' })
      modals().openError({ title: 'T', message: 'M' })
    })
    expect(modals().ids).toHaveLength(2)
  })
})

describe('revision mismatch', () => {
  it('reloads with rev once, then shows the revision modal with Refresh and Close', async () => {
    const { apiEvents } = await import('@/api/client')
    const replace = vi.spyOn(pageNavigation, 'replace').mockImplementation(() => {})
    const reload = vi.spyOn(pageNavigation, 'reload').mockImplementation(() => {})
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION })
    renderApp('/login?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Log in' })

    act(() => apiEvents.emit({ type: 'revisionMismatch', ours: 'aaa', theirs: 'bbb' }))
    expect(replace).toHaveBeenCalledWith('/login?lang=en&rev=bbb')
    expect(screen.queryByRole('alertdialog')).toBeNull()

    window.history.replaceState(null, '', '/login?lang=en&rev=bbb')
    act(() => apiEvents.emit({ type: 'revisionMismatch', ours: 'aaa', theirs: 'bbb' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'A new version is available' })
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    expect(reload).toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(dialog.isConnected).toBe(false)
  })
})

describe('origin access restriction', () => {
  it('goes to /sorry when the restriction is on and this caller is not admitted', async () => {
    stubFetch({
      'GET /api_ext/origin_access_request': { restriction_enabled: true, allowed_to_call_api: false, time_to_live: 30 },
      'GET /api/session/info': MEMBER_SESSION,
    })
    renderApp('/account?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Sorry, the site is busy' })
    expect(window.location.pathname).toBe('/sorry')
    expect(JSON.parse(window.localStorage.getItem('members.originAccess')!)).toMatchObject({ restrictionEnabled: true, allowed: false })
  })
})

describe('errors outside rendering', () => {
  it('an uncaught error or rejection opens the internal-error modal over the page; API errors do not', async () => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION })
    renderApp('/login?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Log in' })
    const rejection = (reason: unknown) => Object.assign(new Event('unhandledrejection'), { reason })
    act(() => {
      window.dispatchEvent(rejection(Object.assign(new Error('bad request'), { name: 'ApiError' })))
    })
    expect(screen.queryByRole('alertdialog')).toBeNull()
    act(() => {
      window.dispatchEvent(new ErrorEvent('error', { error: new TypeError('boom') }))
    })
    const dialog = await screen.findByRole('alertdialog', { name: 'System error occurred.' })
    // The page stays behind the modal.
    expect(screen.getByRole('heading', { level: 1, name: 'Log in' })).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    act(() => {
      window.dispatchEvent(rejection(new RangeError('later')))
    })
    expect(await screen.findByRole('alertdialog', { name: 'System error occurred.' })).toBeTruthy()
  })
})

describe('error toasts and the session-timeout modal', () => {
  it('shows no toast while the session-timeout modal is up', async () => {
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION })
    const { services } = renderApp('/login?lang=en')
    await screen.findByRole('heading', { level: 1, name: 'Log in' })
    const toastText = 'Processing was interrupted because an error occurred.'
    act(() => services.querySink.onError(new Error('x')))
    expect(await screen.findByText(toastText)).toBeTruthy()
    stubFetch({ 'GET /api/session/info': VISITOR_SESSION, 'POST /api/session/token': json({}, 403) })
    const { refreshSessionToken } = await import('@/api/platform')
    await act(async () => {
      await refreshSessionToken().catch(() => {})
    })
    await screen.findByRole('alertdialog', { name: 'Please try to log in again' })
    // The toast that was up goes, and a new one does not come.
    expect(screen.queryByText(toastText)).toBeNull()
    act(() => services.querySink.onError(new Error('y')))
    expect(screen.queryByText(toastText)).toBeNull()
    // Closed, the toasts come back.
    fireEvent.click(screen.getAllByRole('button', { name: 'Log in' }).at(-1)!)
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    act(() => services.querySink.onError(new Error('z')))
    expect(await screen.findByText(toastText)).toBeTruthy()
  })
})
