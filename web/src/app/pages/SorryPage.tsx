import { useLang, useTranslation } from '@/i18n/translation'
import { withLang } from '../routing/paths'
import { PageHeader } from '@/components/PageHeader'

/** /sorry: the site is busy (origin access restriction); static, no session check. */
export default function SorryPage() {
  const { t } = useTranslation()
  const lang = useLang()
  return (
    <div className="page page--narrow">
      <PageHeader title={t('sorry.title')} />
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
