// @vitest-environment jsdom
// (the page's storage and address: the browser's globals)
import { describe, expect, it, vi } from 'vitest'
import { askOriginAccess, checkOriginAccess, ORIGIN_ACCESS_KEY } from './originAccess'

function answer(body: object) {
  return vi.fn(async () => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } }))
}

describe('origin access', () => {
  it('checkOriginAccess answers from a fresh cache without a call; askOriginAccess calls anyway and refreshes it', async () => {
    const now = Date.now()
    window.localStorage.setItem(ORIGIN_ACCESS_KEY, JSON.stringify({ restrictionEnabled: false, allowed: true, expiresAt: now + 60_000 }))
    const fetchImpl = answer({ restriction_enabled: true, allowed_to_call_api: false, time_to_live: 60 })
    expect(await checkOriginAccess(fetchImpl, now)).toMatchObject({ restrictionEnabled: false })
    expect(fetchImpl).not.toHaveBeenCalled()
    // The page's start: index.html's preload has sent the request, so its answer is used.
    expect(await askOriginAccess(fetchImpl)).toMatchObject({ restrictionEnabled: true, allowed: false })
    expect(fetchImpl).toHaveBeenCalledTimes(1)
    expect(await checkOriginAccess(answer({}), Date.now())).toMatchObject({ restrictionEnabled: true, allowed: false })
  })
})
