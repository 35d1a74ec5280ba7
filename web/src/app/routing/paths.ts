/** Pure helpers for the routing rules. */
import { isLang, type Lang } from '@/i18n/languages'

export const LOGIN_PATH = '/login'
export const HOME_PATH = '/'
export const SORRY_PATH = '/sorry'

/**
 * Accepts only a same-origin relative path ("/x?y"), refusing "//host",
 * "/\host", schemes and anything not starting with exactly one "/".
 * Returns undefined for anything else (then login goes to "/").
 */
export function sanitizeRedirect(raw: string | null | undefined): string | undefined {
  if (!raw || typeof raw !== 'string') return undefined
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return undefined
  if ([...raw].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) || raw.includes('\\')) return undefined
  try {
    const base = 'http://app.invalid'
    const url = new URL(raw, base)
    if (url.origin !== base) return undefined
    if (url.pathname === LOGIN_PATH) return undefined // never loop back to the login
    return url.pathname + url.search + url.hash
  } catch {
    return undefined
  }
}

/** /login?redirect=<full original path incl. search>&lang=… */
export function loginPathFor(originalPathWithSearch: string, lang: Lang): string {
  const params = new URLSearchParams({ redirect: originalPathWithSearch, lang })
  return `${LOGIN_PATH}?${params.toString()}`
}

/** Adds (or replaces) the lang query parameter of an app path: "/account" → "/account?lang=jp". */
export function withLang(to: string, lang: Lang): string {
  const hashAt = to.indexOf('#')
  const hash = hashAt >= 0 ? to.slice(hashAt) : ''
  const rest = hashAt >= 0 ? to.slice(0, hashAt) : to
  const qAt = rest.indexOf('?')
  const path = qAt >= 0 ? rest.slice(0, qAt) : rest
  const params = new URLSearchParams(qAt >= 0 ? rest.slice(qAt + 1) : '')
  params.set('lang', lang)
  return `${path}?${params.toString()}${hash}`
}

/**
 * The address to replace the first one with when it has no valid lang
 * parameter (main.tsx, before the first render), else null: "/account" →
 * "/account?lang=jp".
 */
export function addressWithLang(location: { pathname: string; search: string; hash: string }, lang: Lang): string | null {
  if (isLang(new URLSearchParams(location.search).get('lang'))) return null
  return withLang(location.pathname + location.search + location.hash, lang)
}

/** The search string without lang and rev, for "is this the current page" comparisons. */
function comparableSearch(search: string): string {
  const p = new URLSearchParams(search)
  p.delete('lang')
  p.delete('rev')
  p.sort()
  return p.toString()
}

/** true when `to` (an app path, maybe with a query) points at the page being shown. */
export function isCurrentPage(to: string, current: { pathname: string; search: string }): boolean {
  const [pathAndQuery] = to.split('#')
  const qAt = pathAndQuery.indexOf('?')
  const path = qAt >= 0 ? pathAndQuery.slice(0, qAt) : pathAndQuery
  const search = qAt >= 0 ? pathAndQuery.slice(qAt) : ''
  const norm = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p)
  if (norm(path) !== norm(current.pathname)) return false
  return comparableSearch(search) === comparableSearch(current.search)
}
