import { lazy, type ComponentType } from 'react'
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
 *   const AccountPage = lazyPage(() => import('@/features/account/pages/AccountPage'), ['account', 'security'])
 */
export type LazyPage<P extends object> = ComponentType<P> & {
  /**
   * Starts loading the chunk and the catalogues in `lang`, before the page is
   * rendered (routes.tsx preloadPage), and, once the chunk is in, the page's
   * data (its module's `prefetchData`).
   */
  preload(lang: string, queryClient: QueryClient): void
}

/**
 * A page module: the page (default export) and, optionally, what the page
 * will ask for first, started by preload on the first address of a visit,
 * beside the session check. A member page renders only once the session is
 * known, and its queries would otherwise start then, a round trip later.
 * Requests that need a session go with `beforeSession` (api/client.ts): a
 * visitor without one is sent to the login page by the session check, with
 * no "session timed out" dialog.
 */
export interface PageModule<P extends object> {
  default: ComponentType<P>
  prefetchData?: (queryClient: QueryClient, lang: string) => void
}

export function lazyPage<P extends object>(load: () => Promise<PageModule<P>>, namespaces: readonly string[]): LazyPage<P> {
  const Page = lazy(load)
  function PageWithCatalogues(props: P) {
    const { i18n } = useTranslation()
    const lang = useLang()
    // hasResourceBundle first: a lookup, where hasLoadedNamespace walks i18next's load state.
    const missing = namespaces.filter((ns) => !i18n.hasResourceBundle(lang, ns) && !i18n.hasLoadedNamespace(ns))
    // Suspense: thrown, it holds the route's fallback until both are in; i18next's loadNamespaces always resolves
    // (a catalogue that fails to load is then counted as loaded), a chunk that fails reaches the error boundary through lazy().
    if (missing.length > 0) throw Promise.all([i18n.loadNamespaces(missing), load()])
    return <Page {...props} />
  }
  // import() and loadCatalogues load once: what starts here is what the render waits for.
  PageWithCatalogues.preload = (lang: string, queryClient: QueryClient) => {
    // A failed chunk reaches the error boundary when the page renders.
    void load().then((m) => m.prefetchData?.(queryClient, lang), () => {})
    void loadCatalogues(lang, namespaces).catch(() => {})
  }
  return PageWithCatalogues
}
