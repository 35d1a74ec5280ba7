import { afterEach, vi } from 'vitest'
import { cleanup, configure } from '@testing-library/react'

/**
 * The setup of a test file that runs in jsdom, called by setup.ts at the
 * start of every such file. A function, not this module's top level: the
 * rendering files share one module graph (vite.config.ts), so this module
 * runs once, for the first file, and the hooks must be registered for each.
 */
export function setUpDomFile() {
  // findBy…/waitFor give up after 15 s instead of 1 s: the whole app renders in
  // these tests, and a loaded 2-core CI machine is slower than a laptop.
  configure({ asyncUtilTimeout: 15000 })

  // jsdom has no layout: scrolling is a no-op here.
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo

  afterEach(() => {
    cleanup()
  })
}
