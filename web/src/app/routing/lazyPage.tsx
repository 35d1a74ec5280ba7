import { createElement, lazy, type ComponentType } from 'react'
import type { QueryClient } from '@tanstack/react-query'
import { loadCatalogues } from '@/i18n/catalogues'
import { useLang, useTranslation } from '@/i18n/translation'

/**
 * A page loaded when first shown, with the catalogues of the namespaces it
 * uses (its feature's, and those of what it includes from other features):
 * the chunk and the catalogues are fetched in parallel, and the page renders
 * once both have arrived (the route's Suspense shows its overlay meanwhile),
 * so it never shows raw keys nor moves when its text arrives. The page itself
 * is React.lazy's: a chunk already in (preloaded) still suspends for a
 * microtask on the first render, which the first render's transition
 * (main.tsx) rides out without showing the overlay (measured, docs/speed.md). The shell's
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
 * (in the shell's bundle, or in a chunk of its own loaded beside the page's:
 * features/points/prefetch.ts) so that it need not wait for it. Requests
 * that need a session go with `beforeSession` (api/client.ts): a visitor
 * without one is sent to the login page by the session check, with no
 * "session timed out" dialog. A feature makes both its page's options and
 * the startup's call of a query with prefetchedQuery (api/prefetched.ts).
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
  // One import for preload and React.lazy: what preload starts is what the render waits for.
  let loading: Promise<{ default: ComponentType<P> }> | undefined
  const loadPage = () => (loading ??= load())
  const Page = lazy(loadPage)
  function PageWithCatalogues(props: P) {
    const { i18n } = useTranslation()
    const lang = useLang()
    // hasResourceBundle first: a lookup, where hasLoadedNamespace walks i18next's load state.
    const missing = namespaces.filter((ns) => !i18n.hasResourceBundle(lang, ns) && !i18n.hasLoadedNamespace(ns))
    // Suspense: thrown, it holds the route's fallback until both are in; i18next's loadNamespaces always resolves
    // (a catalogue that fails to load is then counted as loaded); a chunk that fails reaches the route's error
    // boundary through React.lazy.
    if (missing.length > 0) throw Promise.all([i18n.loadNamespaces(missing), loadPage().catch(() => {})])
    return createElement(Page as ComponentType<P>, props)
  }
  PageWithCatalogues.preload = (lang: string, queryClient: QueryClient) =>
    Promise.all([
      loadPage().catch(() => {}),
      loadCatalogues(lang, namespaces).catch(() => {}),
      prefetch?.(queryClient, lang),
    ]).then(() => {})
  return PageWithCatalogues
}
