import { useTranslation } from 'react-i18next'
import { DEFAULT_LANG, isLang, type Lang } from './languages'

/** The current app language code (jp en sg kr cn tw hk th). */
export function useLang(): Lang {
  const { i18n } = useTranslation()
  return isLang(i18n.language) ? i18n.language : DEFAULT_LANG
}
