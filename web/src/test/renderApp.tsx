import { render } from '@testing-library/react'
import { App, createAppServices, type AppServices } from '@/app/App'
import { preloadPage } from '@/app/routes'

/** The services of the apps rendered since the last test ended. */
const rendered = new Set<AppServices>()

/**
 * Renders the whole app at `url` (path + query) like a fresh page load.
 * `preload` also starts the page's chunk, catalogues and data first, as
 * main.tsx does on a visit's first address.
 */
export function renderApp(url: string, { preload = false }: { preload?: boolean } = {}) {
  window.history.replaceState(null, '', url)
  const services = createAppServices()
  rendered.add(services)
  if (preload) void preloadPage(window.location.pathname, services.i18n.language, services.queryClient)
  const view = render(<App services={services} />)
  return { ...view, services }
}

/**
 * Ends the work the rendered apps left running once their test has
 * unmounted them: their queries' fetches and retries are cancelled and
 * their caches emptied, so none of it reaches the next test's fetch stub
 * (the rendering files share one module graph: vite.config.ts).
 */
export async function stopRenderedApps(): Promise<void> {
  const apps = [...rendered]
  rendered.clear()
  for (const { queryClient } of apps) {
    await queryClient.cancelQueries()
    queryClient.clear()
  }
}

export function currentUrl(): string {
  return window.location.pathname + window.location.search
}
