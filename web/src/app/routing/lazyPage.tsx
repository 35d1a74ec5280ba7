import { createElement, type ComponentType } from 'react'
import type { QueryClient } from '@tanstack/react-query'
import { loadCatalogues } from '@/i18n/catalogues'
import { useLang, useTranslation } from '@/i18n/translation'

/**
 * A page loaded when first shown, with the catalogues of the namespaces it
 * uses (its feature's, and those of what it includes from other features):
 * the chunk and the catalogues are fetched in parallel, and the page renders
 * once both have arrived (the route's Suspense shows its overlay meanwhile),
 * so it never shows raw keys nor moves when its text arrives. The shell's
 * namespace ("common") is always loaded. A namespace left out here is still
 * loaded by useTranslation (i18n/translation.tsx), which suspends until it
 * has it, only later (after the chunk).
 *
 *   const AccountPage = lazyPage(() => import('@/features/account/pages/AccountPage'), ['account', 'security'], prefetchAccountPage)
 *
 * The optional third argument starts what the page asks for first, on the
 * first address of a visit, beside the session check and the chunk (preload).
 * A member page renders only once the session is known, and its queries would
 * otherwise start then, a round trip later; it lives outside the page's chunk
 * (the feature's api.ts, in the shell's bundle) so that it need not wait for
 * it. Requests that need a session go with `beforeSession` (api/client.ts): a
 * visitor without one is sent to the login page by the session check, with no
 * "session timed out" dialog.
 */
export type LazyPage<P extends object> = ComponentType<P> & {
  /**
   * Starts loading the chunk, the catalogues in `lang` and the page's first
   * data (the prefetch given to lazyPage), before the page is rendered
   * (routes.tsx preloadPage). Settles, never rejecting, once all of them are
   * in or have failed (the render shows the failure).
   */
  preload(lang: string, queryClient: QueryClient): Promise<void>
}

/** What a page asks for first (lazyPage's prefetch); settles once the answers are in or have failed. */
export type PagePrefetch = (queryClient: QueryClient, lang: string) => Promise<void>

export function lazyPage<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  namespaces: readonly string[],
  prefetch?: PagePrefetch,
): LazyPage<P> {
  // Like React.lazy, except that a chunk already in renders at once:
  // React.lazy starts the import on its first render and suspends there
  // whatever the state of the chunk, so the first address's page, preloaded
  // before the first render (main.tsx), would show the overlay first.
  let page: ComponentType<P> | undefined
  let failed: { error: unknown } | undefined
  let loading: Promise<void> | undefined
  const loadPage = () =>
    (loading ??= load().then(
      (m) => {
        page = m.default
      },
      (error: unknown) => {
        failed = { error }
      },
    ))
  function PageWithCatalogues(props: P) {
    const { i18n } = useTranslation()
    const lang = useLang()
    // hasResourceBundle first: a lookup, where hasLoadedNamespace walks i18next's load state.
    const missing = namespaces.filter((ns) => !i18n.hasResourceBundle(lang, ns) && !i18n.hasLoadedNamespace(ns))
    // Suspense: thrown, it holds the route's fallback until both are in; i18next's loadNamespaces always resolves
    // (a catalogue that fails to load is then counted as loaded), a chunk that fails reaches the route's error boundary.
    if (missing.length > 0) throw Promise.all([i18n.loadNamespaces(missing), loadPage()])
    if (failed) throw failed.error
    if (!page) throw loadPage()
    return createElement(page, props)
  }
  // import() and loadCatalogues load once: what starts here is what the render waits for.
  PageWithCatalogues.preload = (lang: string, queryClient: QueryClient) =>
    Promise.all([
      loadPage(),
      loadCatalogues(lang, namespaces).catch(() => {}),
      prefetch?.(queryClient, lang),
    ]).then(() => {})
  return PageWithCatalogues
}
