/**
 * The airline's brand, read from the one configuration the server's mails
 * and PDFs use too (internal/brand/brand.json): the product's name in each
 * language (header, browser-tab titles), the airline's name (footer) and the
 * colours (applied as CSS custom properties at start).
 */
import brand from '../../internal/brand/brand.json'
import type { Lang } from '@/i18n/languages'

export const AIRLINE_NAME: string = brand.airline

export function brandName(lang: Lang): string {
  return (brand.product as Record<string, string>)[lang] ?? brand.product.en
}

/** Sets the brand colours on :root (the stylesheet's --accent, --accent-dark, --accent-soft, --logo-light). */
export function applyBrandColors(root: HTMLElement = document.documentElement): void {
  root.style.setProperty('--accent', brand.colors.accent)
  root.style.setProperty('--accent-dark', brand.colors.accentDark)
  root.style.setProperty('--accent-soft', brand.colors.accentSoft)
  root.style.setProperty('--logo-light', brand.colors.logoLight)
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', brand.colors.accent)
}
