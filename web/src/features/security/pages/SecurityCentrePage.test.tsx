import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderApp } from '@/test/renderApp'
import { stubFetch, json, status, MEMBER_SESSION } from '@/test/fetchStub'

const session = (id: string, current: boolean, browser: string, os: string, kind: string) => ({
  id,
  current,
  device: { browser, os, kind },
  clientAddress: '203.0.113.7',
  network: 'public',
  signedInAt: '2026-11-20T06:00:00Z',
  lastActivityAt: '2026-11-20T06:30:00Z',
})

describe('security centre', () => {
  it('marks the current session, signs out another one and lists recent events', async () => {
    let sessions = [session('a1', true, 'Chrome 131', 'Windows', 'desktop'), session('b2', false, 'Safari 17', 'iOS', 'mobile')]
    const deleted: string[] = []
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/security/sessions': () => json({ sessions }),
      'GET /api/security/sites': json({ sites: [] }),
      'DELETE /api/security/sessions/b2': () => {
        deleted.push('b2')
        sessions = sessions.filter((s) => s.id !== 'b2')
        return status(204)
      },
      'GET /api/security/events': {
        events: [
          { kind: 'sign_in_new_device', at: '2026-11-20T06:00:00Z', clientAddress: '203.0.113.7', device: { browser: 'Safari 17', os: 'iOS', kind: 'mobile' } },
          { kind: 'password_changed', at: '2026-11-19T06:00:00Z', clientAddress: '', device: { browser: '', os: '', kind: 'unknown' } },
        ],
      },
    })
    renderApp('/security?lang=en')
    const list = await screen.findByRole('region', { name: "Where you're logged in" }, { timeout: 20000 })
    const items = await within(list).findAllByRole('listitem')
    expect(within(items[0]).getByText('This device')).toBeTruthy()
    expect(within(items[0]).queryByRole('button', { name: /Log out/ })).toBeNull()
    expect(within(items[1]).getByText('Safari 17 · iOS (phone)')).toBeTruthy()
    // The accessible name starts with the visible label (WCAG 2.5.3), then names the device.
    const endButton = within(items[1]).getByRole('button', { name: 'End session: Safari 17 · iOS (phone)' })
    expect(endButton.textContent).toBe('End session')
    fireEvent.click(endButton)
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1))
    expect(deleted).toEqual(['b2'])
    expect(within(list).getByText('No other device is logged in.')).toBeTruthy()

    const events = screen.getByRole('region', { name: 'Recent security events' })
    expect(within(events).getByText('Logged in from a new device')).toBeTruthy()
    expect(within(events).getByText('Password changed')).toBeTruthy()
    // Times are Japan time, 24-hour, said so when the browser is elsewhere (the tests run in UTC).
    expect(within(list).getByText('Nov 20, 2026 15:30 Japan time')).toBeTruthy()
    expect(within(events).getByText('Nov 20, 2026 15:00 Japan time').tagName).toBe('TIME')
  }, 40000)

  it('folds a long history: 5 devices and 10 events at first, newest first, the rest on request', async () => {
    const sessions = [
      session('cur', true, 'Chrome 131', 'Windows', 'desktop'),
      ...Array.from({ length: 8 }, (_, i) => ({ ...session(`s${i}`, false, `Safari ${10 + i}`, 'iOS', 'mobile'), lastActivityAt: `2026-11-1${i}T06:30:00Z` })),
    ]
    const events = Array.from({ length: 35 }, (_, i) => ({
      kind: i % 2 ? 'sign_in' : 'sign_in_failed',
      at: new Date(Date.UTC(2026, 10, 1, 0, 0) + i * 3600_000).toISOString(), // oldest first: the page sorts
      clientAddress: '', device: { browser: '', os: '', kind: 'unknown' },
    }))
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/security/sessions': json({ sessions }),
      'GET /api/security/events': json({ events }),
      'GET /api/security/sites': json({ sites: [] }),
    })
    renderApp('/security?lang=en')
    const list = await screen.findByRole('region', { name: "Where you're logged in" }, { timeout: 20000 })
    let items = await within(list).findAllByRole('listitem')
    expect(items).toHaveLength(5)
    expect(within(items[0]).getByText('This device')).toBeTruthy()
    // The others by their last activity, newest first.
    expect(within(items[1]).getByText('Safari 17 · iOS (phone)')).toBeTruthy()
    expect(within(items[4]).getByText('Safari 14 · iOS (phone)')).toBeTruthy()
    fireEvent.click(within(list).getByRole('button', { name: /^Show 4\s+more devices$/ }))
    items = within(list).getAllByRole('listitem')
    expect(items).toHaveLength(9)
    expect(within(list).queryByRole('button', { name: /Show \d+\s+more/ })).toBeNull()
    fireEvent.click(within(list).getByRole('button', { name: 'Show fewer' }))
    expect(within(list).getAllByRole('listitem')).toHaveLength(5)

    const ev = screen.getByRole('region', { name: 'Recent security events' })
    let rows = within(ev).getAllByRole('listitem')
    expect(rows).toHaveLength(10)
    // Newest first: the 35th event (Nov 2, 10:00 UTC = 19:00 Japan time) leads.
    expect(within(rows[0]).getByText('Nov 2, 2026 19:00 Japan time')).toBeTruthy()
    fireEvent.click(within(ev).getByRole('button', { name: /^Show 20\s+more events$/ }))
    fireEvent.click(within(ev).getByRole('button', { name: /^Show 5\s+more events$/ }))
    rows = within(ev).getAllByRole('listitem')
    expect(rows).toHaveLength(35)
  }, 40000)

  it('jp: the per-session button is not the header\'s 「ログアウト」, and its name holds its label', async () => {
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/security/sessions': json({ sessions: [session('a1', true, 'Chrome 131', 'Windows', 'desktop'), session('b2', false, 'Safari 17', 'iOS', 'mobile')] }),
      'GET /api/security/events': json({ events: [] }),
      'GET /api/security/sites': json({ sites: [] }),
    })
    renderApp('/security?lang=jp')
    const button = await screen.findByRole('button', { name: /^セッションを終了：Safari 17/ }, { timeout: 20000 })
    expect(button.textContent).toBe('セッションを終了')
    expect(button.textContent).not.toContain('ログアウト')
    expect(button.getAttribute('aria-label')?.startsWith(button.textContent ?? '')).toBe(true)
  }, 40000)

  it('lists the sites that use the account, what each receives, and revokes one after asking', async () => {
    let sites = [
      { clientId: 'bk', name: 'Booking site', firstParty: true, scopes: ['openid', 'profile', 'email'], grantedAt: '2026-11-01T00:00:00Z', lastUsedAt: '2026-11-20T06:00:00Z' },
      { clientId: 'ht', name: 'Hotel Partner', firstParty: false, scopes: ['openid', 'email'], grantedAt: '2026-11-02T00:00:00Z', lastUsedAt: '2026-11-03T00:00:00Z' },
    ]
    const revoked: string[] = []
    stubFetch({
      'GET /api/session/info': MEMBER_SESSION,
      'GET /api/security/sessions': json({ sessions: [session('a1', true, 'Chrome 131', 'Windows', 'desktop')] }),
      'GET /api/security/events': json({ events: [] }),
      'GET /api/security/sites': () => json({ sites }),
      'DELETE /api/security/sites/ht': () => {
        revoked.push('ht')
        sites = sites.filter((s) => s.clientId !== 'ht')
        return status(204)
      },
    })
    renderApp('/security?lang=en')
    const region = await screen.findByRole('region', { name: 'Sites that use your account' }, { timeout: 20000 })
    const items = await within(region).findAllByRole('listitem')
    expect(items).toHaveLength(2)
    expect(within(items[0]).getByText('Airline site')).toBeTruthy()
    expect(within(items[0]).getByText('account identifier, name and language, e-mail address')).toBeTruthy()
    expect(within(items[0]).getByText('Nov 20, 2026 15:00 Japan time')).toBeTruthy()
    expect(within(items[1]).getByText('Partner')).toBeTruthy()
    fireEvent.click(within(items[1]).getByRole('button', { name: 'Revoke access: Hotel Partner' }))
    const dialog = await screen.findByRole('dialog', { name: 'Revoke access for Hotel Partner?' })
    expect(revoked).toEqual([])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revoke access' }))
    await waitFor(() => expect(within(region).getAllByRole('listitem')).toHaveLength(1))
    expect(revoked).toEqual(['ht'])
    expect(within(region).getByRole('status').textContent).toBe('Access for Hotel Partner was revoked.')
  }, 40000)
})
