import { useTranslation } from '@/i18n/translation'
import { useSummary } from '../api'
import { Money } from './Money'

/** The points summary: per currency, available and expiring this and next month. */
export function SummaryTable() {
  const { t } = useTranslation('points')
  const summary = useSummary()
  const rows = summary.data?.rows
  return (
    <section className="card points-summary" aria-labelledby="points-summary-title" aria-busy={summary.isFetching}>
      <div className="points-summary__head">
        <h2 id="points-summary-title">{t('summary.heading')}</h2>
        <button type="button" className="button" onClick={() => void summary.refresh()}>
          {t('summary.refresh')}
        </button>
      </div>
      {summary.data?.failed && (
        <p className="form__error" role="alert">
          {t('summary.failed')}
        </p>
      )}
      {!rows ? (
        <p role="status">{t('loading')}</p>
      ) : (
        <div className="table-scroll">
          <table className="points-table">
            <thead>
              <tr>
                <th scope="col">{t('summary.currency')}</th>
                <th scope="col">{t('summary.available')}</th>
                <th scope="col">{t('summary.expireThisMonth')}</th>
                <th scope="col">{t('summary.expireNextMonth')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.currencyCode} data-currency={r.currencyCode}>
                  <th scope="row">
                    {r.currencyCode}
                    {r.currency !== r.currencyCode && <span className="points-table__name">{r.currency}</span>}
                  </th>
                  <td data-label={t('summary.available')}>
                    <Money amount={r.available} currency={r.currencyCode} />
                  </td>
                  <td data-label={t('summary.expireThisMonth')} className={r.expireThisMonth > 0 ? 'points-table__warn' : undefined}>
                    <Money amount={r.expireThisMonth} currency={r.currencyCode} />
                  </td>
                  <td data-label={t('summary.expireNextMonth')}>
                    <Money amount={r.expireNextMonth} currency={r.currencyCode} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
