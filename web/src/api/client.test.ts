import { describe, expect, it, vi } from 'vitest'
import { api, apiEvents, isSessionProbe } from './client'
import { stubFetch, json } from '@/test/fetchStub'
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
    expect(listener).toHaveBeenCalledWith({ type: 'sessionTimedOut' })
    expect(() => unwrap(result)).toThrow(SessionTimedOutError)
    off()
  })

  it('knows which calls are session probes', () => {
    expect(isSessionProbe('GET', '/api/session')).toBe(true)
    expect(isSessionProbe('POST', '/api/session')).toBe(true)
    expect(isSessionProbe('POST', '/api/session/token')).toBe(false)
  })
})
