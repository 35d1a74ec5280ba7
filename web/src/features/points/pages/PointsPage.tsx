import { useEffect, useMemo, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useLang, useTranslation } from '@/i18n/translation'
import { pluralKey } from '@/i18n/format'
import { useQueryClient } from '@tanstack/react-query'
import { DateField } from '@/components/DateField'
import { SelectField } from '@/components/SelectField'
import { handleServerValidation } from '@/components/serverValidation'
import { useModals } from '@/app/modals/modalContext'
import { FIRST_CURRENCY, FIRST_SEARCH, pointKeys, useExpiredIn, usePointSearch, type PointQuery } from '../api'
import { CURRENCIES, monthJST } from '../rules'
import { searchDefaults, type SearchForm } from '../searchForm'
import { lazyResolver } from '@/components/lazyResolver'
import { Money } from '../components/Money'
import { PointsNav } from '../components/PointsNav'
import { SummaryTable } from '../components/SummaryTable'
import { VoucherCard } from '../components/VoucherCard'
import { WalletTimeline } from '../components/WalletTimeline'
import { Fold } from '../components/Fold'
import '../points.css'
import { PageHeader } from '@/components/PageHeader'

const toQuery = (f: SearchForm, page = 1): PointQuery => ({ ...f, page })

/**
 * Points overview: the balance first, then the actions (buy, exchange,
 * reissue), then the rest: search with the voucher details and paging, what
 * expires when, and the wallet timeline, which a phone folds.
 */
export default function PointsPage() {
  const { t } = useTranslation('points')
  const lang = useLang()
  const qc = useQueryClient()
  // The last submitted condition; paging reuses it.
  const [{ condition, submission }, setSearch] = useState(() => ({ condition: FIRST_SEARCH, submission: 0 }))
  const search = usePointSearch(condition, submission)
  const submit = (q: PointQuery) => {
    // A new search cancels the pending one; every submit asks the server, the same condition too.
    void qc.cancelQueries({ queryKey: pointKeys.key('search') })
    setSearch((s) => ({ condition: q, submission: s.submission + 1 }))
  }
  // After paging, the member sees the new page from its first result, not the pager at the bottom.
  const paged = useRef(false)
  const resultsRef = useRef<HTMLHeadingElement>(null)
  const page = (q: PointQuery) => {
    paged.current = true
    submit(q)
  }
  useEffect(() => {
    if (!paged.current || search.isFetching || !search.data) return
    paged.current = false
    resultsRef.current?.scrollIntoView?.({ block: 'start' })
    resultsRef.current?.focus()
  }, [search.isFetching, search.data])
  return (
    <div className="page points">
      <PageHeader title={t('title')} />
      <SummaryTable />
      <PointsNav />
      <Fold id="points-search" title={t('search.heading')}>
        <SearchPanel onSearch={(f) => submit(toQuery(f))} pending={search.isFetching} error={search.error} />
        <section aria-labelledby="points-results-title" aria-busy={search.isFetching}>
          <h2 id="points-results-title" ref={resultsRef} tabIndex={-1}>{t('results.heading')}</h2>
          {search.data && (
            <>
              <p role="status">{search.data.total === 0 ? t('results.none') : t(pluralKey('results.count', search.data.total, lang), { n: search.data.total })}</p>
              <div className="voucher-list">
                {search.data.peachpoints.map((v) => (
                  <VoucherCard key={v.pointNumber} voucher={v} />
                ))}
              </div>
              {search.data.totalPages > 1 && (
                <nav className="pagination" aria-label={t('results.pagination')}>
                  <button type="button" className="button" disabled={condition.page <= 1 || search.isFetching} onClick={() => page({ ...condition, page: condition.page - 1 })}>
                    {t('results.previous')}
                  </button>
                  <span aria-current="page">{t('results.page', { page: search.data.currentPage, pages: search.data.totalPages })}</span>
                  <button
                    type="button"
                    className="button"
                    disabled={condition.page >= search.data.totalPages || search.isFetching}
                    onClick={() => page({ ...condition, page: condition.page + 1 })}
                  >
                    {t('results.next')}
                  </button>
                </nav>
              )}
            </>
          )}
        </section>
      </Fold>
      <ExpiringCheck />
      <WalletTimeline />
    </div>
  )
}

function SearchPanel({ onSearch, pending, error }: { onSearch: (f: SearchForm) => void; pending: boolean; error: unknown }) {
  const { t } = useTranslation('points')
  // zod and the rules load on the form's first validation, not with the page (docs/speed.md)
  const resolver = useMemo(
    () => lazyResolver<SearchForm>(() => Promise.all([import('../schemas'), import('@hookform/resolvers/zod')]).then(([s, { zodResolver }]) => zodResolver(s.searchSchema(t)))),
    [t],
  )
  const modals = useModals()
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors },
  } = useForm<SearchForm>({ resolver, defaultValues: searchDefaults })
  const labels = { currencyCode: t('search.currency'), expireDate: t('search.expireDate'), travelExpireDate: t('search.travelExpireDate') }
  const labelsRef = useRef(labels)
  useEffect(() => {
    labelsRef.current = labels
  })
  useEffect(() => {
    if (error) handleServerValidation(error, setError, labelsRef.current, modals)
  }, [error, setError, modals])
  return (
    <form
      className="form"
      role="search"
      aria-label={t('search.heading')}
      noValidate
      onSubmit={(e) => {
        clearErrors()
        void handleSubmit(onSearch)(e)
      }}
    >
      <div className="points-search__grid">
        <SelectField id="points-currency" label={t('search.currency')} registration={register('currencyCode')} placeholder={t('search.anyCurrency')}
          options={CURRENCIES.map((c) => ({ value: c, label: c }))} />
        <DateField label={t('search.expireDate')} hint={t('search.expireDateHint')} registration={register('expireDate')} error={errors.expireDate} />
        <DateField label={t('search.travelExpireDate')} hint={t('search.travelExpireDateHint')} registration={register('travelExpireDate')} error={errors.travelExpireDate} />
        <fieldset className="field points-search__checks">
          <legend className="field__label">{t('search.show')}</legend>
          <label>
            <input type="checkbox" {...register('hasBalance')} /> {t('search.hasBalance')}
          </label>
          <label>
            <input type="checkbox" {...register('isOnlyActive')} /> {t('search.isOnlyActive')}
          </label>
        </fieldset>
      </div>
      <button type="submit" className="button button--primary">
        {pending ? t('search.searching') : t('search.submit')}
      </button>
    </form>
  )
}

/** expired_in: what expires in a month, per currency. */
function ExpiringCheck() {
  const { t } = useTranslation('points')
  const lang = useLang()
  const [month, setMonth] = useState(monthJST())
  const [currency, setCurrency] = useState(FIRST_CURRENCY)
  const q = useExpiredIn(month, currency)
  return (
    <Fold id="points-expiring" title={t('expiring.heading')}>
      <div className="points-expiring">
        <div className="field">
          <label className="field__label" htmlFor="points-expiring-month">
            {t('expiring.month')}
          </label>
          <input id="points-expiring-month" className="field__input" type="month" value={month} onChange={(e) => setMonth(e.target.value)} />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="points-expiring-currency">
            {t('search.currency')}
          </label>
          <select id="points-expiring-currency" className="field__input" value={currency} onChange={(e) => setCurrency(e.target.value)}>
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <p className="points-expiring__result" role="status" aria-live="polite">
          {q.data ? (
            <>
              {t('expiring.amount')} <strong><Money amount={q.data.amount} currency={q.data.currencyCode} /></strong>{' '}
              <span className="muted">{t(pluralKey('expiring.vouchers', q.data.peachpoints.length, lang), { n: q.data.peachpoints.length })}</span>
            </>
          ) : q.isError ? (
            t('expiring.failed')
          ) : null}
        </p>
      </div>
    </Fold>
  )
}
