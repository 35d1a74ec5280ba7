import { useEffect } from 'react'
import { useLang } from '@/i18n/translation'
import { brandName } from '@/brand'

/** Sets the browser-tab title to "<page> | <brand>" in the member's language (just the brand without a page). */
export function useDocumentTitle(page?: string) {
  const lang = useLang()
  useEffect(() => {
    const brand = brandName(lang)
    document.title = page ? `${page} | ${brand}` : brand
  }, [page, lang])
}
