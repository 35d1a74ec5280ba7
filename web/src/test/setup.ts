import { afterEach, vi } from 'vitest'
import { cleanup, configure } from '@testing-library/react'
import { loadAllResources } from '@/i18n/catalogues'
import { csrfTokens } from '@/api/client'

// The app loads the shell's catalogue before its first render and a page's
// with its chunk (routing/lazyPage.tsx); tests render any page in any
// language at once, so every catalogue is loaded up front.
await loadAllResources()

// findBy…/waitFor give up after 15 s instead of 1 s: the whole app renders in
// these tests, and a loaded 2-core CI machine is slower than a laptop.
configure({ asyncUtilTimeout: 15000 })

// jsdom has no layout: scrolling is a no-op here.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo

afterEach(() => {
  cleanup()
  csrfTokens.forget()
  window.localStorage.clear()
  document.body.innerHTML = ''
})
