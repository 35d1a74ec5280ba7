// @vitest-environment jsdom
// A database outage answers 503 with Retry-After (internal/httpapi): the app
// sends an idempotent GET once more after that wait, and then says "try again
// in a moment", not "System error occurred."
import { describe, expect, it } from 'vitest'
import { screen } from '@testing-library/react'
import { api, unavailableRetryDelay, UNAVAILABLE_RETRY_MAX_MS } from './client'
import { ApiError, isTryAgainShortly, unwrap } from './errors'
import { json, stubFetch, MEMBER_SESSION } from '@/test/fetchStub'
import { renderApp } from '@/test/renderApp'

const outage = (after = '0') => json({ message: 'Please try again in a moment.' }, 503, { 'Retry-After': after })

describe('a database outage', () => {
  it('waits Retry-After (at most 5 s) before a GET is sent again, and never sends a POST again', () => {
    expect(unavailableRetryDelay('GET', outage('3'))).toBe(3000)
    expect(unavailableRetryDelay('GET', outage('120'))).toBe(UNAVAILABLE_RETRY_MAX_MS)
    expect(unavailableRetryDelay('GET', json({ message: 'x' }, 503))).toBeUndefined()
    expect(unavailableRetryDelay('GET', outage('soon'))).toBe(1000)
    expect(unavailableRetryDelay('POST', outage('3'))).toBeUndefined()
    expect(unavailableRetryDelay('GET', json({ message: 'x' }, 500, { 'Retry-After': '3' }))).toBeUndefined()
  })

  it('sends a GET once more after a 503 and gives the second answer', async () => {
    let n = 0
    const calls = stubFetch({ 'GET /api/user/passengers': () => (++n === 1 ? outage() : json({ passengers: [] })) })
    const r = await api.GET('/api/user/passengers')
    expect(r.response.status).toBe(200)
    expect(calls.called('GET /api/user/passengers')).toBe(2)
  })

  it('sends a GET no more than twice, and a POST once', async () => {
    const calls = stubFetch({ 'GET /api/user/passengers': () => outage(), 'POST /api/session/token': () => outage() })
    const r = await api.GET('/api/user/passengers')
    expect(calls.called('GET /api/user/passengers')).toBe(2)
    let err: unknown
    try {
      unwrap(r)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(ApiError)
    expect(isTryAgainShortly(err)).toBe(true)
    const p = await api.POST('/api/session/token')
    expect(p.response.status).toBe(503)
    expect(calls.called('POST /api/session/token')).toBe(1)
  })

  it('tells the member to try again in a moment, in their language, not "System error"', async () => {
    const calls = stubFetch({ 'GET /api/session/info': MEMBER_SESSION, 'GET /api/user/passengers': () => outage() })
    renderApp('/passengers?lang=th')
    expect(await screen.findByText('ระบบไม่สามารถตอบกลับได้ในขณะนี้ กรุณาลองอีกครั้งในอีกสักครู่', {}, { timeout: 4000 })).toBeTruthy()
    expect(screen.queryByText('เกิดข้อผิดพลาดของระบบ')).toBeNull()
    expect(calls.called('GET /api/user/passengers')).toBe(2)
  })
})
