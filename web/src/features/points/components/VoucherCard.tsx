import { useState } from 'react'
import { useLang, useTranslation } from '@/i18n/translation'
import { formatDate, formatDateTime } from '@/i18n/format'
import { useVoucher, type Peachpoint } from '../api'
import { ruleText } from '../rules'
import { Money } from './Money'

/** One voucher: number, balance, status, validity and travel periods, its rules in words, and its history on demand. */
export function VoucherCard({ voucher: v }: { voucher: Peachpoint }) {
  const { t } = useTranslation('points')
  const lang = useLang()
  const [open, setOpen] = useState(false)
  const detail = useVoucher(v.pointNumber, open)
  const date = (d: string) => formatDate(d, lang)
  const inactive = v.statusCode !== 'ACTIVE'
  return (
    <article className="card voucher" aria-label={t('voucher.label', { number: v.pointNumber })}>
      <header className="voucher__header">
        <h3 className="voucher__number">{v.pointNumber}</h3>
        <span className={`badge ${inactive ? 'badge--muted' : 'badge--ok'}`}>{v.status}</span>
      </header>
      <p className="voucher__balance">
        <Money amount={v.balance} currency={v.currency} />
        <span className="voucher__issued">
          {t('voucher.issued')} <Money amount={v.issuedCurrencyAmount} currency={v.currency} />
        </span>
      </p>
      <dl className="voucher__dates">
        <div>
          <dt>{t('voucher.valid')}</dt>
          <dd>
            {date(v.effectiveDate)} – {date(v.expireDate)}
          </dd>
        </div>
        <div>
          <dt>{t('voucher.travel')}</dt>
          <dd>
            {date(v.travelEffectiveDate)} – {date(v.travelExpireDate)}
          </dd>
        </div>
        {v.currentCode !== v.pointNumber && (
          <div>
            <dt>{t('voucher.currentCode')}</dt>
            <dd>{v.currentCode}</dd>
          </div>
        )}
      </dl>
      <ul className="voucher__rules">
        {v.rules.length === 0 ? <li>{t('rules.none')}</li> : v.rules.map((r, i) => <li key={i}>{ruleText(r, t, date)}</li>)}
      </ul>
      <button type="button" className="button button--link" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {open ? t('voucher.hideHistory') : t('voucher.showHistory')}
      </button>
      {open && (
        <div className="voucher__history">
          {detail.isLoading && <p role="status">{t('loading')}</p>}
          {detail.data && (
            <table className="points-table points-table--compact">
              <caption className="visually-hidden">{t('voucher.history')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('voucher.when')}</th>
                  <th scope="col">{t('voucher.what')}</th>
                  <th scope="col">{t('voucher.change')}</th>
                  <th scope="col">{t('voucher.balanceAfter')}</th>
                </tr>
              </thead>
              <tbody>
                {detail.data.ledger.map((l, i) => (
                  <tr key={i}>
                    <td data-label={t('voucher.when')}>{formatDateTime(l.at, lang)}</td>
                    <td data-label={t('voucher.what')}>{l.label}</td>
                    <td data-label={t('voucher.change')}>
                      <Money amount={l.delta} currency={v.currency} />
                    </td>
                    <td data-label={t('voucher.balanceAfter')}>
                      <Money amount={l.balanceAfter} currency={v.currency} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </article>
  )
}
