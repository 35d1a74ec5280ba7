import { afterEach, vi } from 'vitest'
import { cleanup, configure } from '@testing-library/react'

// The test files that run in jsdom, imported by setup.ts.
// findBy…/waitFor give up after 15 s instead of 1 s: the whole app renders in
// these tests, and a loaded 2-core CI machine is slower than a laptop.
configure({ asyncUtilTimeout: 15000 })

// jsdom has no layout: scrolling is a no-op here.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo

afterEach(() => {
  cleanup()
})
