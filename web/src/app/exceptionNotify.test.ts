// @vitest-environment jsdom
// (the page's address, storage and fetch: the browser's globals)
import { describe, expect, it } from 'vitest'
import { waitFor } from '@testing-library/react'
import { stubFetch } from '@/test/fetchStub'
import { reportException, toReport } from './exceptionNotify'

describe('exception beacon', () => {
  it('posts name, message, stack and path with a CSRF token', async () => {
    const bodies: string[] = []
    const api = stubFetch({
      'POST /api/exception_notify': ({ headers, body }) => {
        expect(headers.get('X-Csrf-Token')).toBe('csrf-1')
        bodies.push(body ?? '')
        return new Response(null, { status: 204 })
      },
    })
    window.history.replaceState(null, '', '/points?lang=en')
    reportException(new TypeError('boom'))
    await waitFor(() => expect(api.called('POST /api/exception_notify')).toBe(1))
    expect(JSON.parse(bodies[0])).toMatchObject({ name: 'TypeError', message: 'boom', path: '/points?lang=en' })
    expect(toReport('plain').name).toBe('Error')
  })
})
