// @vitest-environment jsdom
// (the page's address, storage and fetch: the browser's globals)
import { describe, expect, it, vi } from 'vitest'
import { api, apiEvents } from './client'
import { CdnBlockedError } from './errors'
import { ORIGIN_ACCESS_KEY } from './originAccess'
import { json, stubFetch } from '@/test/fetchStub'
import type { ApiEvent } from './events'

describe('content delivery network and waiting room', () => {
  it('a CDN 403 page (HTML) is handed to the shell to replace the page, not read as a timed-out session', async () => {
    stubFetch({ 'GET /api/topic_banner': new Response('<html><body><h1>Access denied by CDN</h1></body></html>', { status: 403, headers: { 'Content-Type': 'text/html' } }) })
    const events: ApiEvent[] = []
    const off = apiEvents.subscribe((e) => events.push(e))
    await expect(api.GET('/api/topic_banner')).rejects.toBeInstanceOf(CdnBlockedError)
    off()
    expect(events).toEqual([{ type: 'cdnBlocked', html: '<html><body><h1>Access denied by CDN</h1></body></html>' }])
  })

  it('the API\'s own JSON 403 still means the session timed out', async () => {
    stubFetch({ 'GET /api/topic_banner': json({ message: 'session' }, 403) })
    const events: ApiEvent[] = []
    const off = apiEvents.subscribe((e) => events.push(e))
    const r = await api.GET('/api/topic_banner')
    off()
    expect(r.response.status).toBe(403)
    expect(events).toEqual([{ type: 'sessionTimedOut', endedElsewhere: false }])
  })

  it.each(['ACCESS_TOKEN_EXPIRED', 'ACCESS_TOKEN_WAS_NOT_GIVEN'])('the waiting-room reason %s forces a new origin-access check and one retry', async (reason) => {
    let calls = 0
    let checks = 0
    stubFetch({
      'GET /api_ext/origin_access_request': () => {
        checks++
        return json({ restriction_enabled: true, allowed_to_call_api: true, time_to_live: 60 })
      },
      'GET /api/topic_banner': () => (++calls === 1 ? json({ reason }, 403) : json({ target_page: 'home', is_active: false, message1: '', message2: '', href: '' })),
    })
    const events: ApiEvent[] = []
    const off = apiEvents.subscribe((e) => events.push(e))
    const r = await api.GET('/api/topic_banner')
    off()
    expect(r.response.status).toBe(200)
    expect(calls).toBe(2)
    expect(checks).toBe(2) // the first admission, then the forced re-check
    expect(events).toEqual([])
    expect(JSON.parse(window.localStorage.getItem(ORIGIN_ACCESS_KEY) ?? '{}').allowed).toBe(true)
  })

  it('a re-check that is refused goes to /sorry instead of retrying', async () => {
    let checks = 0
    const banner = vi.fn(() => json({ reason: 'ACCESS_TOKEN_EXPIRED' }, 403))
    stubFetch({
      'GET /api_ext/origin_access_request': () => json({ restriction_enabled: true, allowed_to_call_api: ++checks === 1, time_to_live: 60 }),
      'GET /api/topic_banner': banner,
    })
    const events: ApiEvent[] = []
    const off = apiEvents.subscribe((e) => events.push(e))
    await expect(api.GET('/api/topic_banner')).rejects.toThrow('origin access restricted')
    off()
    expect(banner).toHaveBeenCalledTimes(1)
    expect(events).toEqual([{ type: 'originAccessDenied' }])
  })
})
