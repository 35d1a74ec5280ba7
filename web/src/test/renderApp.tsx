import { render } from '@testing-library/react'
import { App, createAppServices } from '@/app/App'

/** Renders the whole app at `url` (path + query) like a fresh page load. */
export function renderApp(url: string) {
  window.history.replaceState(null, '', url)
  const services = createAppServices()
  const view = render(<App services={services} />)
  return { ...view, services }
}

export function currentUrl(): string {
  return window.location.pathname + window.location.search
}
