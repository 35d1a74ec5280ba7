/**
 * Where the topic banner shows (target_page) and how its link is
 * followed. target_page names a page by its path without the slash
 * ("home" or "" for /, "bookings", "account", "points", …); "all" shows it
 * on every member page.
 */
export function bannerTargetsPath(targetPage: string, pathname: string): boolean {
  const target = targetPage.trim().toLowerCase().replace(/^\/+|\/+$/g, '')
  if (target === 'all' || target === '*') return true
  const page = pathname.replace(/^\/+|\/+$/g, '').split('/')[0] ?? ''
  if (target === '' || target === 'home' || target === 'top') return page === ''
  return target === page
}

export type BannerLink = { kind: 'none' } | { kind: 'internal'; to: string } | { kind: 'external'; href: string }

/**
 * A link of the banner: an app path ("/bookings", "/points?x=1") stays in the
 * app (and keeps lang); an http(s) address opens as it is; anything else
 * (javascript:, data:, //host) is not a link.
 */
export function bannerLink(href: string): BannerLink {
  const h = href.trim()
  if (!h) return { kind: 'none' }
  if (/^\/(?![/\\])/.test(h)) return { kind: 'internal', to: h }
  if (/^https?:\/\//i.test(h)) return { kind: 'external', href: h }
  return { kind: 'none' }
}
