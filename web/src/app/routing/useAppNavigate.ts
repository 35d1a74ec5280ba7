import { useCallback } from 'react'
import { useNavigate } from 'react-router'
import { useLang } from '@/i18n/translation'
import { withLang } from './paths'

/** navigate() that keeps the lang query parameter: const go = useAppNavigate(); go('/bookings'). */
export function useAppNavigate() {
  const navigate = useNavigate()
  const lang = useLang()
  return useCallback((to: string, options?: { replace?: boolean }) => navigate(withLang(to, lang), options), [navigate, lang])
}
