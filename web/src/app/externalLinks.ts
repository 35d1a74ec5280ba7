/**
 * Links to the booking site (member registration, terms, privacy, cookies)
 * and to the airline's online shop. The base URLs come from
 * VITE_BOOKING_SITE_URL and VITE_ONLINE_SHOP_URL at build time.
 */
import type { Lang } from '@/i18n/languages'

export const BOOKING_SITE_URL: string = (import.meta.env.VITE_BOOKING_SITE_URL || 'https://booking.example.com').replace(/\/+$/, '')

export const ONLINE_SHOP_URL: string = (import.meta.env.VITE_ONLINE_SHOP_URL || 'https://shop.example.com').replace(/\/+$/, '')

const q = (lang: Lang) => `?lang=${encodeURIComponent(lang)}`

export const memberRegistrationUrl = (lang: Lang) => `${BOOKING_SITE_URL}/member/register${q(lang)}`
export const termsUrl = () => `${BOOKING_SITE_URL}/terms`
/** The coupon pass's own terms (refunds, the refund fee), on the booking site. */
export const couponTermsUrl = (lang: Lang) => `${BOOKING_SITE_URL}/terms/coupon-pass${q(lang)}`
/** The booking site's flight search with a pass: its code goes along, so the fares it covers are offered. */
export const bookWithPassUrl = (lang: Lang, code: string) => `${BOOKING_SITE_URL}/booking${q(lang)}&pass=${encodeURIComponent(code)}`
export const privacyPolicyUrl = () => `${BOOKING_SITE_URL}/privacy`
export const cookiePolicyUrl = (lang: Lang) => `${BOOKING_SITE_URL}/cookie-policy${q(lang)}`
export const cookieSettingsUrl = (lang: Lang) => `${BOOKING_SITE_URL}/cookie-settings${q(lang)}`
export const onlineShopUrl = (lang: Lang) => `${ONLINE_SHOP_URL}/${q(lang)}`
