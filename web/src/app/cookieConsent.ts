import { useEffect } from 'react'
import { useCookieConsent } from '@/api/platform'

/** Adds a script once (by URL). */
export function addScriptOnce(src: string, id: string): void {
  if (document.getElementById(id)) return
  if (!/^https?:\/\//.test(src) && !src.startsWith('/')) return
  const s = document.createElement('script')
  s.id = id
  s.src = src
  s.async = true
  document.head.appendChild(s)
}

/**
 * Cookie consent: fetched at start; when consent is required and a
 * consent script is configured it is added; the analytics tag only loads when
 * the call was made and a URL is configured.
 */
export function useCookieConsentScripts(): void {
  const consent = useCookieConsent()
  const data = consent.data
  useEffect(() => {
    if (!data) return
    if (data.isCookieConsentRequired && data.consentScriptUrl) addScriptOnce(data.consentScriptUrl, 'cookie-consent-script')
    if (data.analyticsTagUrl) addScriptOnce(data.analyticsTagUrl, 'analytics-tag')
  }, [data])
}
