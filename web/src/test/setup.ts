import { afterEach } from 'vitest'
import { loadAllResources } from '@/i18n/catalogues'
import { csrfTokens } from '@/api/client'

// Every test file, in either environment (vite.config.ts, "test").
// The app loads the shell's catalogue before its first render and a page's
// with its chunk (routing/lazyPage.tsx); tests use any page's texts in any
// language at once, so every catalogue is loaded up front.
await loadAllResources()

afterEach(() => {
  csrfTokens.forget()
  // A Node file has no window; a jsdom one starts each test with none of
  // the last one's storage or markup.
  if (typeof window !== 'undefined') {
    window.localStorage.clear()
    window.sessionStorage.clear()
    document.body.innerHTML = ''
  }
})

// The files that run in jsdom (vite.config.ts, "test") get the rendering
// library's setup too; a Node file does not pay for importing it.
if (typeof window !== 'undefined') (await import('./setup.dom')).setUpDomFile()
