import '../passes.css'
import { useLang, useTranslation } from '@/i18n/translation'
import { usePassStatus } from '@/api/platform'
import { formatDateTime } from '@/i18n/format'
import { AppLink } from '@/app/routing/AppLink'
import { useMyPasses } from '../api'
import { DateRangeText } from '../components/common'
import { PageHeader } from '@/components/PageHeader'

/** The lottery confirmation page: the member's latest entry, and what happens next. */
export default function LotteryCompletePage() {
  const { t } = useTranslation('passes')
  const mine = useMyPasses()
  const entry = mine.data?.entries[0]
  const lang = useLang()
  const drawAt = usePassStatus().lotteryDrawAt
  return (
    <div className="page page--narrow passes">
      <PageHeader title={t('complete.title')} />
      <section className="card pass-done" aria-labelledby="entry-done">
        <h2 id="entry-done">{t('complete.heading')}</h2>
        {entry && (
          <dl className="pass-facts">
            <dt>{t('lottery.passType')}</dt>
            <dd>{entry.name} ({entry.nameAlt})</dd>
            <dt>{t('plan.board')}</dt>
            <dd><DateRangeText range={entry.availablePeriodToBoard} /></dd>
            <dt>{t('plan.fareType')}</dt>
            <dd>{t(`fare.${entry.fareType}`)}</dd>
            <dt>{t('complete.result')}</dt>
            <dd>{t(`result.${entry.result}`)}</dd>
          </dl>
        )}
        <p>{drawAt ? t('lotteryState.drawAt', { date: formatDateTime(drawAt, lang) }) : t('lotteryState.drawSoon')}</p>
        <p>{t('complete.mail')}</p>
        <p>
          <AppLink to="/my-passes">{t('nav.myPasses')}</AppLink>
        </p>
      </section>
    </div>
  )
}
