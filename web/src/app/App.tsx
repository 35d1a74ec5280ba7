import { Suspense, lazy, useEffect, useState, type ReactNode } from 'react'
import { BrowserRouter } from 'react-router'
import { QueryClientProvider, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { TranslationProvider, useTranslation } from '@/i18n/translation'
import { isTryAgainShortly } from '@/api/errors'
import type { i18n as I18n } from 'i18next'
import { createI18n } from '@/i18n/i18n'
import { initialLanguage, readStoredLang, storeLang } from '@/i18n/languages'
import { createAppQueryClient, createQueryErrorSink, type QueryErrorSink } from './queryClient'
import { ToastProvider, useToast } from './toast'
import { ModalProvider } from './modals/ModalProvider'
import { MODAL_IDS, useModals } from './modals/modalContext'
import { SessionProvider } from './session/SessionProvider'
import { ApiEventsBridge } from './ApiEventsBridge'
import { ErrorBoundary, UncaughtErrors } from './ErrorBoundary'
import { AppRoutes } from './AppRoutes'
import { InvalidEmailCheck, LangGate, ScrollManager } from './routing/NavigationEffects'
import { useCookieConsentScripts } from './cookieConsent'
import { watchViewport } from './viewport'
import { useOnline } from './pwa/online'
import { useSession } from './session/SessionProvider'
import { mayHoldTrips } from './pwa/keptFlag'
import { pushMember } from './pwa/pushChoice'

const KeptTripsSync = lazy(() => import('@/features/bookings/offline/KeptTripsSync'))
// Only on a device whose flight change alerts are on (pwa/push.ts).
const PushSync = lazy(() => import('./pwa/PushSync'))
// "Reload to update": loaded with the worker's registration, never on a visitor's first load.
const UpdateBanner = lazy(() => import('./pwa/UpdateBanner'))

export interface AppServices {
  queryClient: QueryClient
  querySink: QueryErrorSink
  i18n: I18n
}

export type QueryServices = Pick<AppServices, 'queryClient' | 'querySink'>

export function createQueryServices(): QueryServices {
  const querySink = createQueryErrorSink()
  return { queryClient: createAppQueryClient(querySink), querySink }
}

/**
 * Creates the per-app objects: a fresh set per test; in main.tsx once the
 * shell's catalogue is in (the i18next instance starts with it), with the
 * query client made at startup for the first page's data.
 */
export function createAppServices(query: QueryServices = createQueryServices()): AppServices {
  const lang = initialLanguage(window.location.search, readStoredLang(), navigator.languages ?? [navigator.language])
  storeLang(lang)
  return { ...query, i18n: createI18n(lang) }
}

/** The whole app: providers, router (history mode, base /), chrome and routes. */
export function App({ services }: { services: AppServices }) {
  return (
    <QueryClientProvider client={services.queryClient}>
      <TranslationProvider i18n={services.i18n}>
        <BrowserRouter basename="/">
          <ToastProvider>
            <QueryErrorToasts sink={services.querySink} />
            <SessionProvider>
              <ModalProvider>
                <UncaughtErrors />
                <ToastsBehindSessionModal />
                <ErrorBoundary>
                  <Shell>
                    <AppRoutes />
                  </Shell>
                </ErrorBoundary>
              </ModalProvider>
            </SessionProvider>
          </ToastProvider>
        </BrowserRouter>
      </TranslationProvider>
    </QueryClientProvider>
  )
}

function Shell({ children }: { children: ReactNode }) {
  useCookieConsentScripts()
  useEffect(() => watchViewport(), [])
  return (
    <>
      <ApiEventsBridge />
      <OfflineSupport />
      <LangGate>
        <ScrollManager />
        <InvalidEmailCheck />
        {children}
      </LangGate>
    </>
  )
}

/**
 * The installable app's part of the shell: registers the service worker for a
 * member (or where it is installed already) and, on a device that keeps a
 * member's trips, keeps them true while online (features/bookings/offline/KeptTripsSync).
 */
function OfflineSupport() {
  const online = useOnline()
  const { status } = useSession()
  // The installable app's service worker (docs/offline.md): for a member, or where it is installed already.
  // Registered once a member is logged in, or where a worker of the site already controls the page; its code
  // (pwa/registerWorker.ts, workbox-window) and the release banner's come after the page's load, once no
  // query is fetching and the browser is idle: never part of a visitor's first load, and the worker's install
  // (it fetches the precached files) does not share a phone's network and CPU with the page's first data and
  // render (docs/speed.md).
  const worker = status === 'loggedIn' || !!navigator.serviceWorker?.controller
  const qc = useQueryClient()
  const [registered, setRegistered] = useState(false)
  useEffect(() => {
    if (!worker) return
    let timer = 0
    const register = () => {
      if (qc.isFetching() > 0 || document.readyState !== 'complete') return
      stop()
      const idle = window.requestIdleCallback ?? ((f: () => void) => setTimeout(f, 1))
      idle(() => void import('./pwa/registerWorker').then((m) => setRegistered(m.registerWorker()), () => undefined))
    }
    const unsubscribe = qc.getQueryCache().subscribe(() => {
      clearTimeout(timer)
      timer = window.setTimeout(register, 100)
    })
    const stop = () => {
      unsubscribe()
      clearTimeout(timer)
      window.removeEventListener('load', register)
    }
    window.addEventListener('load', register)
    register()
    return stop
  }, [worker, qc])
  return (
    <Suspense fallback={null}>
      {registered && <UpdateBanner />}
      {online && status !== 'checking' && mayHoldTrips() && <KeptTripsSync />}
      {online && status !== 'checking' && pushMember() && <PushSync status={status} />}
    </Suspense>
  )
}


function QueryErrorToasts({ sink }: { sink: QueryErrorSink }) {
  const toast = useToast()
  const { t } = useTranslation()
  useEffect(() => sink.connect((e) => toast.showError(isTryAgainShortly(e) ? t('error.tryAgainShortly') : undefined)), [sink, toast, t])
  return null
}

/** No error toast while the session-timeout modal is up; they show again once it closes. */
function ToastsBehindSessionModal() {
  const { ids } = useModals()
  const { setSuppressed } = useToast()
  const sessionModal = ids.includes(MODAL_IDS.sessionTimedOut)
  useEffect(() => setSuppressed(sessionModal), [sessionModal, setSuppressed])
  return null
}
