import './zodConfig'
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { App, createAppServices, createQueryServices } from './App'
import { isPageBug, reportException } from './exceptionNotify'
import { SHELL_NAMESPACE, loadCatalogue } from '@/i18n/catalogues'
import { initialLanguage, readStoredLang } from '@/i18n/languages'
import { setActiveLang } from '@/i18n/i18n'
import { addressWithLang } from './routing/paths'
import { askOriginAccess } from '@/api/originAccess'
import { preloadPage } from './routes'
import '../styles/global.css'
import { applyBrandColors } from '@/brand'

applyBrandColors()

// Reported from the first line on; the shell also opens the internal-error
// modal for these once it is up (ErrorBoundary.tsx, UncaughtErrors).
window.addEventListener('error', (e) => {
  const error = e.error ?? e.message
  if (isPageBug(error)) reportException(error)
})
window.addEventListener('unhandledrejection', (e) => {
  // API errors are handled by the shell and the features; only report real bugs.
  if (isPageBug(e.reason)) reportException(e.reason)
})

// The first render waits for the shell's catalogue in the page's language
// (one small chunk); a page's own catalogues load with its chunk
// (routing/lazyPage.tsx), other languages only when the member switches.
const lang = initialLanguage(window.location.search, readStoredLang(), navigator.languages ?? [navigator.language])
// The address carries the language from the first render on: LangGate would
// otherwise redirect to it once the app is up: a second render of the whole
// tree (every link follows the location) while the page loads.
const address = addressWithLang(window.location, lang)
if (address) window.history.replaceState(window.history.state, '', address)
// Every API call waits for the origin access check: asked now, it
// runs beside the catalogue's load instead of before the session check, one
// round trip later (a call in flight is shared). It is asked even when the
// cache holds an answer: index.html's preload has sent the request anyway.
void askOriginAccess()
// The API calls sent before the first render (the first page's data) carry the page's language.
setActiveLang(lang)
const query = createQueryServices()
// The page's chunk, catalogues and first data load beside the shell's
// catalogue and the session check (routes.tsx): a member page renders once
// the session is known, and they were asked for only then, a round trip later.
const pageReady = preloadPage(window.location.pathname, lang, query.queryClient)
// The first render waits for the page too, up to FIRST_PAGE_WAIT_MS: the
// shell and the page then appear together, in one render. Rendered as soon
// as the shell could be, the header and the loading overlay showed a moment
// before the page replaced the overlay, and the page's rendering came after
// the first paint in several long tasks (a phone freezes through them).
const FIRST_PAGE_WAIT_MS = 1000
const pageOrTimeout = Promise.race([pageReady, new Promise((resolve) => setTimeout(resolve, FIRST_PAGE_WAIT_MS))])
// The app's services (i18next's set-up among them) are built as soon as the
// shell's catalogue is in, in that task rather than in the first render's.
const services = loadCatalogue(lang, SHELL_NAMESPACE).then(() => createAppServices(query))
// The first render is a transition: React renders it in slices, yielding to
// the browser every few milliseconds, so a phone's slow CPU never freezes
// for the whole page in one long task.
void Promise.all([services, pageOrTimeout]).then(([services]) => {
  const root = createRoot(document.getElementById('root')!)
  startTransition(() => {
    root.render(
      <StrictMode>
        <App services={services} />
      </StrictMode>,
    )
  })
})
