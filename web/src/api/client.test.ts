// @vitest-environment jsdom
// (the page's address, storage and fetch: the browser's globals)
import { describe, expect, it, vi } from 'vitest'
import { api, apiEvents, beforeSession, CSRF_REFUSED, isSessionProbe } from './client'
import { stubFetch, json, status } from '@/test/fetchStub'
import { setActiveLang } from '@/i18n/i18n'
import { SessionTimedOutError } from './errors'
import { unwrap } from './errors'

describe('API client middleware', () => {
  it('sends X-Lang and X-Revision on every call, X-Csrf-Token on non-GET calls only', async () => {
    setActiveLang('tw')
    const calls = stubFetch({ 'GET /api/topic_banner': { target_page: 'home', is_active: true, message1: 'a', message2: '', href: '' }, 'POST /api/session/token': 204 })
    await api.GET('/api/topic_banner')
    await api.POST('/api/session/token')
    const banner = calls.calls.find((c) => c.path === '/api/topic_banner')!
    expect(banner.headers.get('X-Lang')).toBe('tw')
    expect(banner.headers.get('X-Revision')).toBe('dev')
    expect(banner.headers.get('X-Csrf-Token')).toBeNull()
    const token = calls.calls.find((c) => c.path === '/api/session/token')!
    expect(token.headers.get('X-Csrf-Token')).toBe('csrf-1')
    expect(calls.called('GET /api/csrf_token')).toBe(1)
    setActiveLang('en')
  })

  it('reports a 403 on a data call as a timed-out session, but not the session probes', async () => {
    const listener = vi.fn()
    const off = apiEvents.subscribe(listener)
    stubFetch({ 'GET /api/session': 403, 'GET /api/topic_banner': json({ message: 'x' }, 403) })
    await api.GET('/api/session')
    expect(listener).not.toHaveBeenCalled()
    const result = await api.GET('/api/topic_banner')
    expect(listener).toHaveBeenCalledWith({ type: 'sessionTimedOut', endedElsewhere: false })
    expect(() => unwrap(result)).toThrow(SessionTimedOutError)
    off()
  })

  it('says when the 403 is a sign-out from another device (its errorKey)', async () => {
    const listener = vi.fn()
    const off = apiEvents.subscribe(listener)
    stubFetch({ 'GET /api/topic_banner': json({ message: 'x', errorKey: 'session_ended_elsewhere' }, 403) })
    await api.GET('/api/topic_banner')
    expect(listener).toHaveBeenCalledWith({ type: 'sessionTimedOut', endedElsewhere: true })
    off()
  })

  it('does not report the 403 of a call sent before the session was known, and still reports the same call sent later', async () => {
    const listener = vi.fn()
    const off = apiEvents.subscribe(listener)
    stubFetch({ 'GET /api/topic_banner': json({ message: 'x' }, 403) })
    const early = await api.GET('/api/topic_banner', { middleware: [beforeSession] })
    expect(early.response.status).toBe(403)
    expect(() => unwrap(early)).toThrow(SessionTimedOutError)
    expect(listener).not.toHaveBeenCalled()
    await api.GET('/api/topic_banner')
    expect(listener).toHaveBeenCalledWith({ type: 'sessionTimedOut', endedElsewhere: false })
    off()
  })

  it('sends a call refused for its CSRF token once more with a fresh token, and no more than once', async () => {
    // The token first fetched was for a pre-login cookie the browser no longer holds.
    let tokens = 0
    let valid = 'csrf-2'
    const listener = vi.fn()
    const off = apiEvents.subscribe(listener)
    const calls = stubFetch({
      'GET /api/csrf_token': () => json({ csrfToken: `csrf-${++tokens}` }),
      'POST /api/session/token': ({ headers }) =>
        headers.get('X-Csrf-Token') === valid ? status(204) : json({ message: 'refused', errorKey: CSRF_REFUSED }, 403),
    })
    const ok = await api.POST('/api/session/token')
    expect(ok.response.status).toBe(204)
    expect(calls.called('POST /api/session/token')).toBe(2)
    expect(listener).not.toHaveBeenCalled()

    // Refused again: the second answer is the caller's, the call is not sent a third time.
    valid = 'none'
    const refused = await api.POST('/api/session/token')
    expect(refused.response.status).toBe(403)
    expect(calls.called('POST /api/session/token')).toBe(4)
    off()
  })

  it('keeps the CSRF token for the session and fetches a new one only when the server refuses it', async () => {
    // A purchase's validate, buy and continue: one token for all three.
    let tokens = 0
    let valid = 'csrf-1'
    const calls = stubFetch({
      'GET /api/csrf_token': () => json({ csrfToken: `csrf-${++tokens}` }),
      'POST /api/session/token': ({ headers }) =>
        headers.get('X-Csrf-Token') === valid ? status(204) : json({ message: 'refused', errorKey: CSRF_REFUSED }, 403),
    })
    await Promise.all([api.POST('/api/session/token'), api.POST('/api/session/token')])
    await api.POST('/api/session/token')
    expect(calls.called('GET /api/csrf_token')).toBe(1)
    expect(calls.called('POST /api/session/token')).toBe(3)

    // The cookie changed (a login): two calls refused together fetch one new token between them.
    valid = 'csrf-2'
    const both = await Promise.all([api.POST('/api/session/token'), api.POST('/api/session/token')])
    expect(both.map((r) => r.response.status)).toEqual([204, 204])
    expect(calls.called('GET /api/csrf_token')).toBe(2)
    await api.POST('/api/session/token')
    expect(calls.called('GET /api/csrf_token')).toBe(2)
  })

  it('does not send again a 403 that is not a CSRF refusal', async () => {
    const calls = stubFetch({ 'POST /api/session/token': json({ message: 'x' }, 403) })
    await api.POST('/api/session/token')
    expect(calls.called('POST /api/session/token')).toBe(1)
  })

  it('knows which calls are session probes', () => {
    expect(isSessionProbe('GET', '/api/session')).toBe(true)
    expect(isSessionProbe('POST', '/api/session')).toBe(true)
    expect(isSessionProbe('POST', '/api/session/token')).toBe(false)
  })
})
