import { afterEach, vi } from 'vitest'
import { cleanup, configure } from '@testing-library/react'
import { loadAllResources } from '@/i18n/catalogues'

// The app loads one language's catalogues before its first render; tests
// render in any language at once, so every catalogue is loaded up front.
await loadAllResources()

// findBy…/waitFor give up after 5 s instead of 1 s: the whole app renders in
// these tests, and a loaded 2-core CI machine is slower than a laptop.
configure({ asyncUtilTimeout: 5000 })

// jsdom has no layout: scrolling is a no-op here.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo

afterEach(() => {
  cleanup()
  window.localStorage.clear()
  document.body.innerHTML = ''
})
