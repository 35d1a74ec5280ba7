import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react'
import { Navigate, useLocation, useNavigationType } from 'react-router'
import { useTranslation } from '@/i18n/translation'
import { useQueryClient } from '@tanstack/react-query'
import { isLang, readStoredLang, DEFAULT_LANG, type Lang } from '@/i18n/languages'
import { setLanguage } from '@/i18n/i18n'
import { shellUserQuery } from '@/api/user'
import { useSession } from '../session/SessionProvider'
import { useModals, MODAL_IDS } from '../modals/modalContext'
import { InvalidEmailModal } from '../modals/InvalidEmailModal'
import { withLang } from './paths'

/**
 * Adds the lang query parameter when it is missing or invalid (replace
 * navigation, from the stored language) and follows it when it changes.
 * Nothing below renders until the URL carries a valid lang, so guards
 * never race with this redirect.
 */
export function LangGate({ children }: { children: ReactNode }) {
  const location = useLocation()
  const { i18n } = useTranslation()
  const param = new URLSearchParams(location.search).get('lang')

  useLayoutEffect(() => {
    if (isLang(param) && i18n.language !== param) void setLanguage(i18n, param)
  }, [param, i18n])

  if (!isLang(param)) {
    const lang: Lang = readStoredLang() ?? (isLang(i18n.language) ? i18n.language : DEFAULT_LANG)
    return <Navigate to={withLang(location.pathname + location.search + location.hash, lang)} replace />
  }
  return <>{children}</>
}

/**
 * Scroll to top on navigation; back/forward (POP) restores the saved position.
 * One window listener records the position under the key of the entry that is
 * current at that moment; the key switches in the layout effect, before this
 * navigation's scroll-to-top (whose scroll event arrives a frame later), so the
 * next page's scrolling is never saved over the page being left.
 */
export function ScrollManager() {
  const location = useLocation()
  const navType = useNavigationType()
  const positions = useRef(new Map<string, number>())
  const currentKey = useRef(location.key)

  useEffect(() => {
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual'
    const save = () => positions.current.set(currentKey.current, window.scrollY)
    window.addEventListener('scroll', save, { passive: true })
    return () => window.removeEventListener('scroll', save)
  }, [])

  useLayoutEffect(() => {
    currentKey.current = location.key
    const saved = navType === 'POP' ? positions.current.get(location.key) : undefined
    if (saved === undefined) {
      window.scrollTo(0, 0)
      return
    }
    // The page may still be loading (lazy code, data): try again each frame for up
    // to two seconds until it is tall enough, unless the member scrolls meanwhile.
    let frames = 0
    let raf = 0
    const stop = () => window.cancelAnimationFrame(raf)
    const userEvents = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const
    const restore = () => {
      window.scrollTo(0, saved)
      if (Math.abs(window.scrollY - saved) > 1 && ++frames < 120) raf = window.requestAnimationFrame(restore)
    }
    for (const e of userEvents) window.addEventListener(e, stop, { passive: true, once: true })
    restore()
    return () => {
      stop()
      for (const e of userEvents) window.removeEventListener(e, stop)
    }
  }, [location.key, navType])

  return null
}

/**
 * The invalid-e-mail hook: after each route change, when the
 * member's e-mail has invalid characters, push the notification modal —
 * on /account only on the first page load, on any other path always.
 */
export function InvalidEmailCheck() {
  const location = useLocation()
  const { status } = useSession()
  const qc = useQueryClient()
  const modals = useModals()
  const routesSeen = useRef(0)
  const lastKey = useRef<string | null>(null)
  const { open } = modals

  useEffect(() => {
    if (status === 'checking') return // decide once the session is known
    if (lastKey.current === location.key) return
    lastKey.current = location.key
    const first = routesSeen.current === 0
    routesSeen.current += 1
    if (status !== 'loggedIn') return
    if (location.pathname === '/account' && !first) return
    let cancelled = false
    qc.fetchQuery(shellUserQuery(true))
      .then((user) => {
        if (!cancelled && user?.hasInvalidCharactersInEmail) {
          open((close, active) => <InvalidEmailModal close={close} active={active} />, { id: MODAL_IDS.invalidEmail })
        }
      })
      .catch(() => {})
    return () => {
      cancelled = true
    }
  }, [location.key, location.pathname, status, qc, open])

  return null
}
