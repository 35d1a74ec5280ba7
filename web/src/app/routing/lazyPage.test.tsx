import { describe, expect, it, vi } from 'vitest'
import { Suspense, type ComponentType } from 'react'
import { render, screen, waitFor } from '@testing-library/react'
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

function show(i18n: ReturnType<typeof createI18n>, Page: ComponentType) {
  render(
    <TranslationProvider i18n={i18n}>
      <Suspense fallback={<p>loading</p>}>
        <Page />
      </Suspense>
    </TranslationProvider>,
  )
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

  it("preload starts the chunk and the catalogues before the page is rendered, then the module's data prefetch", async () => {
    const i18n = createI18n('en', shellOnly())
    const queryClient = new QueryClient()
    const prefetchData = vi.fn()
    const load = vi.fn(() => Promise.resolve({ default: PasskeysTitle, prefetchData }))
    const Page = lazyPage(load, ['security'])
    Page.preload('jp', queryClient)
    expect(load).toHaveBeenCalledTimes(1) // (the test setup has every catalogue loaded already)
    await waitFor(() => expect(prefetchData).toHaveBeenCalledWith(queryClient, 'jp'))
    show(i18n, Page)
    expect((await screen.findByRole('heading')).textContent).toBe('Passkeys')
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
