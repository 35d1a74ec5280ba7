import { describe, expect, it, vi } from 'vitest'
import { createCsrfTokens } from './csrf'

function counter() {
  let n = 0
  return vi.fn(() => Promise.resolve(`t${++n}`))
}

describe('createCsrfTokens', () => {
  it('fetches the token once and shares it, also between calls sent together', async () => {
    const fetchToken = counter()
    const tokens = createCsrfTokens(fetchToken)
    expect(await Promise.all([tokens.current(), tokens.current()])).toEqual(['t1', 't1'])
    expect(await tokens.current()).toBe('t1')
    expect(fetchToken).toHaveBeenCalledTimes(1)
  })

  it('fetches a new token when the kept one is refused, once for calls refused together', async () => {
    const fetchToken = counter()
    const tokens = createCsrfTokens(fetchToken)
    await tokens.current()
    expect(await Promise.all([tokens.renew('t1'), tokens.renew('t1')])).toEqual(['t2', 't2'])
    // A call that was sent with t1 and refused after t2 came in gets t2, no third fetch.
    expect(await tokens.renew('t1')).toBe('t2')
    expect(await tokens.current()).toBe('t2')
    expect(fetchToken).toHaveBeenCalledTimes(2)
  })

  it('does not keep a failed fetch', async () => {
    const fetchToken = vi.fn<() => Promise<string | undefined>>().mockResolvedValueOnce(undefined).mockResolvedValueOnce('t2')
    const tokens = createCsrfTokens(fetchToken)
    expect(await tokens.current()).toBeUndefined()
    expect(await tokens.current()).toBe('t2')
  })

  it('fetches again after forget', async () => {
    const fetchToken = counter()
    const tokens = createCsrfTokens(fetchToken)
    await tokens.current()
    tokens.forget()
    expect(await tokens.current()).toBe('t2')
  })
})
