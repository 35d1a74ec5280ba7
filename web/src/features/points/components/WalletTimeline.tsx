import { useLang, useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { formatDate, formatMonth } from '@/i18n/format'
import { useTimeline } from '../api'
import { monthJST } from '../rules'
import { Money } from './Money'
import { Fold } from './Fold'

/** The wallet: every voucher with a balance on a timeline by expiry month, so nothing expires unseen. */
export function WalletTimeline() {
  const { t } = useTranslation('points')
  const lang = useLang()
  const timeline = useTimeline()
  const now = monthJST()
  const monthLabel = (m: string) => formatMonth(m, lang)
  return (
    <Fold id="points-timeline" title={t('timeline.heading')}>
      <p className="muted">{t('timeline.intro')}</p>
      {timeline.isLoading && <p role="status">{t('loading')}</p>}
      {timeline.data && timeline.data.months.length === 0 && <p>{t('timeline.empty')}</p>}
      <ol className="timeline">
        {timeline.data?.months.map((m) => {
          // "this month" is for points still to expire: a month holding only expired vouchers is past
          const live = m.peachpoints.some((v) => v.statusCode !== 'EXPIRED')
          const state = m.month < now || (m.month === now && !live) ? 'past' : m.month === now ? 'now' : 'future'
          return (
            <li key={m.month} className={`timeline__month timeline__month--${state}`}>
              <h3 className="timeline__label">
                {monthLabel(m.month)}
                {state === 'past' && <span className="badge badge--muted">{t('timeline.expired')}</span>}
                {state === 'now' && <span className="badge badge--warn">{t('timeline.thisMonth')}</span>}
              </h3>
              <ul className="timeline__vouchers">
                {m.peachpoints.map((v) => (
                  <li key={v.pointNumber}>
                    <Money amount={v.balance} currency={v.currency} /> <span className="muted">{v.pointNumber}</span>{' '}
                    <span className="muted">{t('timeline.until', { date: formatDate(v.expireDate, lang) })}</span>
                    {v.statusCode === 'EXPIRED' && state === 'now' && <> <span className="badge badge--muted">{t('timeline.expired')}</span></>}
                    {v.statusCode === 'EXPIRED' && (v.currency === 'CNY' || v.currency === 'TWD') && (
                      <>
                        {' '}
                        <AppLink to={`/points/reissue/${v.currency.toLowerCase()}`}>{t('timeline.reissue')}</AppLink>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            </li>
          )
        })}
      </ol>
    </Fold>
  )
}
