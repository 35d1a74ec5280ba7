import { afterEach, vi } from 'vitest'
import { cleanup, configure, fireEvent } from '@testing-library/react'
import { options } from 'preact'
import { loadAllResources } from '@/i18n/catalogues'

// The app loads the shell's catalogue before its first render and a page's
// with its chunk (routing/lazyPage.tsx); tests render any page in any
// language at once, so every catalogue is loaded up front.
await loadAllResources()

// findBy…/waitFor give up after 15 s instead of 1 s: the whole app renders in
// these tests, and a loaded 2-core CI machine is slower than a laptop. The
// first test of a file also pays for transforming the libraries inlined for
// Preact (vite.config.ts): under a load of 15–20 it took 5–8 s to render.
configure({ asyncUtilTimeout: 15000 })

// The app runs on Preact (vite.config.ts), which, like the browser's own
// events, calls a text field's onChange on `input` (each keystroke), where
// React listens to both `input` and `change`. A browser fires `input` before
// `change` whenever a text or date field's value changes, so fireEvent.change
// does the same on such fields (the way Testing Library already adapts
// fireEvent.blur and mouseEnter to React's event system).
const change = fireEvent.change
fireEvent.change = (node: Document | Node | Element | Window, init?: object) => {
  const textLike = node instanceof HTMLTextAreaElement || (node instanceof HTMLInputElement && !/^(checkbox|radio|file)$/.test(node.type))
  if (!textLike) return change(node, init)
  fireEvent.input(node, init)
  return change(node)
}

// Preact runs effects (useEffect: subscriptions to TanStack Query's
// observers, for instance) after the next animation frame, which jsdom does
// not have (a 35 ms timer stands in). A test that clicks a button as soon as
// it appears would act before the page's effects ran; a browser paints first.
// Here effects run right after the render's own microtasks instead.
options.requestAnimationFrame = (flush) => queueMicrotask(flush)

// jsdom has no layout: scrolling is a no-op here.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo

afterEach(() => {
  cleanup()
  window.localStorage.clear()
  document.body.innerHTML = ''
})
