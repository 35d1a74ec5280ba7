import { useLocation } from 'react-router'
import { useTranslation } from '@/i18n/translation'
import { useTopicBanner } from '@/api/platform'
import { AppLink } from '../routing/AppLink'
import { bannerLink, bannerTargetsPath } from './topicBanner'

/** The operator's notice, on the page its target_page names; a relative href stays in the app. */
export function TopicBanner() {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const banner = useTopicBanner()
  const b = banner.data
  if (!b?.is_active || !(b.message1 || b.message2) || !bannerTargetsPath(b.target_page ?? '', pathname)) return null
  const content = (
    <>
      {b.message1 && <strong className="banner__line">{b.message1}</strong>}
      {b.message2 && <span className="banner__line">{b.message2}</span>}
    </>
  )
  const link = bannerLink(b.href ?? '')
  return (
    <aside className="banner" aria-label={t('home.topicBanner')}>
      {link.kind === 'internal' ? (
        <AppLink to={link.to} className="banner__link">
          {content}
        </AppLink>
      ) : link.kind === 'external' ? (
        <a className="banner__link" href={link.href}>
          {content}
        </a>
      ) : (
        content
      )}
    </aside>
  )
}
