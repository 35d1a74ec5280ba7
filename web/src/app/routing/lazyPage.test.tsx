import { describe, expect, it, vi } from 'vitest'
import { Component, Suspense, startTransition, type ComponentType, type ReactNode } from 'react'
import { render, screen, waitFor } from '@testing-library/react'
import { createRoot } from 'react-dom/client'
import { QueryClient } from '@tanstack/react-query'
import { TranslationProvider, useTranslation } from '@/i18n/translation'
import { createI18n, setLanguage } from '@/i18n/i18n'
import { loadedResources } from '@/i18n/catalogues'
import { lazyPage } from './lazyPage'

// The test setup loads every catalogue; an app starts with the shell's only.
const shellOnly = () => ({ en: { common: loadedResources().en.common } })

function PasskeysTitle() {
  const { t } = useTranslation('security')
  return <h1>{t('passkeys.title')}</h1>
}

class Boundary extends Component<{ children: ReactNode }, { error?: Error }> {
  state: { error?: Error } = {}
  static getDerivedStateFromError(error: Error) {
    return { error }
  }
  render() {
    return this.state.error ? <p role="alert">{this.state.error.message}</p> : this.props.children
  }
}

function page(i18n: ReturnType<typeof createI18n>, Page: ComponentType) {
  return (
    <TranslationProvider i18n={i18n}>
      <Boundary>
        <Suspense fallback={<p>loading</p>}>
          <Page />
        </Suspense>
      </Boundary>
    </TranslationProvider>
  )
}

function show(i18n: ReturnType<typeof createI18n>, Page: ComponentType) {
  render(page(i18n, Page))
}

describe('lazyPage', () => {
  it("asks for the page's chunk and its catalogues together, and renders once both are in", async () => {
    const i18n = createI18n('en', shellOnly())
    // Like import(): every call answers the same module.
    let deliver = () => {}
    const chunk = new Promise<{ default: ComponentType }>((r) => (deliver = () => r({ default: PasskeysTitle })))
    const load = vi.fn(() => chunk)
    show(i18n, lazyPage(load, ['security']))
    screen.getByText('loading')
    expect(load).toHaveBeenCalled() // at once, not after the catalogue
    await waitFor(() => expect(i18n.hasResourceBundle('en', 'security')).toBe(true))
    screen.getByText('loading') // the catalogue alone does not show the page
    deliver()
    expect((await screen.findByRole('heading')).textContent).toBe('Passkeys')
  })

  it('never shows a raw key for a namespace the route did not name: useTranslation waits for it', async () => {
    const i18n = createI18n('en', shellOnly())
    show(i18n, lazyPage(() => Promise.resolve({ default: PasskeysTitle }), []))
    expect((await screen.findByRole('heading')).textContent).toBe('Passkeys')
  })

  it("preload starts the chunk, the catalogues and the page's data prefetch together, and settles once all are in", async () => {
    const queryClient = new QueryClient()
    let deliverData = () => {}
    const prefetch = vi.fn(() => new Promise<void>((resolve) => (deliverData = resolve)))
    let deliverChunk = () => {}
    const load = vi.fn(() => new Promise<{ default: typeof PasskeysTitle }>((resolve) => (deliverChunk = () => resolve({ default: PasskeysTitle }))))
    const Page = lazyPage(load, ['security'], prefetch)
    let settled = false
    void Page.preload('jp', queryClient).then(() => (settled = true))
    expect(load).toHaveBeenCalledTimes(1)
    // The data does not wait for the chunk.
    expect(prefetch).toHaveBeenCalledWith(queryClient, 'jp')
    deliverChunk()
    await new Promise((r) => setTimeout(r))
    expect(settled).toBe(false)
    deliverData()
    await waitFor(() => expect(settled).toBe(true))
    // The chunk is in: the first render, a transition as in main.tsx, commits
    // the page without the route's fallback (the app starts i18next once the
    // first catalogues are in: main.tsx).
    // Outside act(), as in the browser: React.lazy's chunk already in suspends
    // for a microtask, which the transition waits out without committing the fallback.
    const actEnvironment = (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT
    ;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false
    const container = document.body.appendChild(document.createElement('div'))
    const fallbacks: string[] = []
    const watch = new MutationObserver(() => {
      if (container.textContent?.includes('loading')) fallbacks.push('loading')
    })
    watch.observe(container, { subtree: true, childList: true, characterData: true })
    const root = createRoot(container)
    try {
      startTransition(() => root.render(page(createI18n('jp'), Page)))
      await waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('パスキー'))
      expect(fallbacks).toEqual([])
    } finally {
      watch.disconnect()
      root.unmount()
      container.remove()
      ;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = actEnvironment
    }
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('a chunk that fails to load reaches the error boundary', async () => {
    const i18n = createI18n('en', shellOnly())
    const Page = lazyPage(() => Promise.reject<{ default: ComponentType }>(new Error('chunk gone')), [])
    await Page.preload('en', new QueryClient())
    show(i18n, Page)
    expect((await screen.findByRole('alert')).textContent).toContain('chunk gone')
  })

  it('a language switch loads every namespace in use in the new language first, and no other', async () => {
    const i18n = createI18n('en', shellOnly())
    show(i18n, lazyPage(() => Promise.resolve({ default: PasskeysTitle }), ['security']))
    await screen.findByRole('heading')
    await setLanguage(i18n, 'jp')
    expect(i18n.hasResourceBundle('jp', 'common')).toBe(true)
    expect(i18n.hasResourceBundle('jp', 'security')).toBe(true)
    expect(i18n.hasResourceBundle('jp', 'bookings')).toBe(false)
    await waitFor(() => expect(screen.getByRole('heading').textContent).toBe('パスキー'))
  })
})
