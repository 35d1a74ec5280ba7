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
    fireEvent.click(within(items[1]).getByRole('button', { name: 'End the session on Safari 17 · iOS (phone)' }))
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
})
