import { useTranslation } from 'react-i18next'
import { useLang } from '@/i18n/useLang'
import { withLang } from '../routing/paths'

/** /sorry: the site is busy (origin access restriction); static, no session check. */
export default function SorryPage() {
  const { t } = useTranslation()
  const lang = useLang()
  return (
    <div className="page page--narrow">
      <h1 className="page__title">{t('sorry.title')}</h1>
      <div className="card">
        <p>{t('sorry.text')}</p>
        <p>
          <a className="button button--primary" href={withLang('/', lang)}>
            {t('sorry.retry')}
          </a>
        </p>
      </div>
    </div>
  )
}
