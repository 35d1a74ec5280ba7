import { useLang, useTranslation } from '@/i18n/translation'
import { formatDateTime } from '@/i18n/format'
import type { PurchasedGogoPass } from '../api'
import { DateRangeText, Money } from './common'
import { bookWithPassUrl } from '@/app/externalLinks'
import { todayJST } from '../rules'

/** A pass the member holds. */
export function PassCard({ pass: p }: { pass: PurchasedGogoPass }) {
  const { t } = useTranslation('passes')
  const lang = useLang()
  return (
    <article className="card pass-card" aria-labelledby={`pass-${p.id}`}>
      <header className="pass-card__head">
        <h3 id={`pass-${p.id}`}>{p.name}</h3>
        <span className="pass-card__alt">{p.nameAlt}</span>
      </header>
      <dl className="pass-facts">
        <dt>{t('pass.code')}</dt>
        <dd className="pass-code">{p.code}</dd>
        <dt>{t('plan.board')}</dt>
        <dd><DateRangeText range={p.availablePeriodToBoard} /></dd>
        <dt>{t('plan.book')}</dt>
        <dd><DateRangeText range={p.availablePeriodToBook} /></dd>
        <dt>{t('plan.fareType')}</dt>
        <dd>{t(`fare.${p.fareType}`)}</dd>
        <dt>{t('pass.price')}</dt>
        <dd>{p.source === 'exchange' ? t('pass.exchanged') : <Money amount={p.purchasedPrice} currency={p.currencyCode} />}</dd>
        <dt>{t('pass.purchasedAt')}</dt>
        <dd>{formatDateTime(p.purchasedAt, lang)}</dd>
      </dl>
      {/* from the pass to a flight: while its booking window is open */}
      {todayJST() <= p.availablePeriodToBook.end && (
        <p>
          <a className="button button--primary" href={bookWithPassUrl(lang, p.code)}>{t('pass.book')}</a>
        </p>
      )}
    </article>
  )
}
