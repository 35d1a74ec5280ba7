import { render } from '@testing-library/react'
import { App, createAppServices } from '@/app/App'
import { preloadPage } from '@/app/routes'

/**
 * Renders the whole app at `url` (path + query) like a fresh page load.
 * `preload` also starts the page's chunk, catalogues and data first, as
 * main.tsx does on a visit's first address.
 */
export function renderApp(url: string, { preload = false }: { preload?: boolean } = {}) {
  window.history.replaceState(null, '', url)
  const services = createAppServices()
  if (preload) void preloadPage(window.location.pathname, services.i18n.language, services.queryClient)
  const view = render(<App services={services} />)
  return { ...view, services }
}

export function currentUrl(): string {
  return window.location.pathname + window.location.search
}
