import { useId } from 'react'
import { useLang, useTranslation } from '@/i18n/translation'
import { useLocation, useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { BCP47, LANGUAGES, LANGUAGE_NAMES, isLang } from '@/i18n/languages'
import { setLanguage } from '@/i18n/i18n'
import { withLang } from '../routing/paths'

/** The language pulldown: switches language, remembers it and rewrites the lang query parameter. */
export function LanguageSelect() {
  const { t, i18n } = useTranslation()
  const lang = useLang()
  const id = useId()
  const location = useLocation()
  const navigate = useNavigate()
  const qc = useQueryClient()

  return (
    <div className="lang-select">
      <label htmlFor={id} className="visually-hidden">
        {t('layout.language')}
      </label>
      <select
        id={id}
        value={lang}
        onChange={(e) => {
          const next = e.target.value
          if (!isLang(next)) return
          void setLanguage(i18n, next).then(() => {
            navigate(withLang(location.pathname + location.search + location.hash, next), { replace: true })
            // Server texts (country names, messages) come in the request's language.
            void qc.invalidateQueries()
          })
        }}
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={BCP47[l]}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </div>
  )
}
