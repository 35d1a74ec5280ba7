import { useEffect, useMemo, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import type { z } from 'zod'
import { useTranslation } from 'react-i18next'
import { useQueryClient } from '@tanstack/react-query'
import { Field } from '@/components/Field'
import { handleServerValidation } from '@/components/serverValidation'
import { ApiError } from '@/api/errors'
import { useModals } from '@/app/modals/modalContext'
import { useToast } from '@/app/toast'
import { bookingKeys, useAddReservation, useAirports, useReservationSearch, type ReservationQuery } from '../api'
import { addSchema, keepRangeEnd, searchDefaults, searchSchema, toQuery, type SearchForm } from '../schema'
import { ReservationCard } from '../components/ReservationCard'
import { CalendarSubscription } from '../components/CalendarSubscription'

const PER_PAGE = 10

/** Booking management: search with the spec's defaults, results with paging, and adding a booking. */
export default function BookingsPage() {
  const { t } = useTranslation('bookings')
  const qc = useQueryClient()
  // The last submitted condition; paging reuses it (spec §4).
  const [condition, setCondition] = useState<ReservationQuery | null>(() => toQuery(searchDefaults(), 1, PER_PAGE))
  const search = useReservationSearch(condition)

  const submit = (q: ReservationQuery) => {
    // A new submit cancels the pending request (react-query also aborts it when its key loses its observer).
    void qc.cancelQueries({ queryKey: bookingKeys.key('search') })
    setCondition(q)
  }

  return (
    <div className="page bookings">
      <h1 className="page__title">{t('title')}</h1>
      <SearchPanel onSearch={(f) => submit(toQuery(f, 1, PER_PAGE))} pending={search.isFetching} error={search.error} />
      <Results
        condition={condition}
        data={search.data}
        loading={search.isFetching}
        onPage={(page) => condition && submit({ ...condition, page })}
      />
      <CalendarSubscription />
      <AddBooking />
    </div>
  )
}

function SearchPanel({ onSearch, pending, error }: { onSearch: (f: SearchForm) => void; pending: boolean; error: unknown }) {
  const { t } = useTranslation('bookings')
  const airports = useAirports()
  const schema = useMemo(() => searchSchema(t), [t])
  const modals = useModals()
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    getValues,
    setValue,
    formState: { errors },
  } = useForm<SearchForm>({ resolver: zodResolver(schema), defaultValues: searchDefaults() })
  // A to-date that precedes its from-date is cleared as soon as either changes.
  const range = (from: 'bookingDateFrom' | 'departDateFrom', to: 'bookingDateTo' | 'departDateTo') => ({
    onChange: () => {
      const kept = keepRangeEnd(getValues(from), getValues(to))
      if (kept !== getValues(to)) setValue(to, kept)
    },
  })
  const labels: Partial<Record<keyof SearchForm, string>> = {
    pnr: t('search.pnr'),
    bookingDateFrom: t('search.bookingDateFrom'),
    bookingDateTo: t('search.bookingDateTo'),
    departDateFrom: t('search.departDateFrom'),
    departDateTo: t('search.departDateTo'),
  }
  const labelsRef = useRef(labels)
  useEffect(() => {
    labelsRef.current = labels
  })
  // Server-side 400s (the same rules) land on the fields, once per error.
  useEffect(() => {
    if (error) handleServerValidation(error, setError, labelsRef.current, modals)
  }, [error, setError, modals])
  return (
    <section className="card" aria-labelledby="booking-search-title">
      <h2 id="booking-search-title">{t('search.heading')}</h2>
      <form
        className="form search-form"
        role="search"
        aria-label={t('search.heading')}
        noValidate
        onSubmit={(e) => {
          clearErrors()
          void handleSubmit(onSearch)(e)
        }}
      >
        <div className="search-form__grid">
          <Field label={t('search.pnr')} registration={register('pnr')} error={errors.pnr} maxLength={20} autoComplete="off" />
          <div className="field">
            <label className="field__label" htmlFor="booking-airport">
              {t('search.airport')}
            </label>
            <select id="booking-airport" className="field__input" {...register('airportCode')}>
              <option value="">{t('search.anyAirport')}</option>
              {(airports.data ?? []).map((a) => (
                <option key={a.code} value={a.code}>
                  {a.shortName} ({a.code})
                </option>
              ))}
            </select>
          </div>
          <Field label={t('search.bookingDateFrom')} type="date" required registration={register('bookingDateFrom', range('bookingDateFrom', 'bookingDateTo'))} error={errors.bookingDateFrom} />
          <Field label={t('search.bookingDateTo')} type="date" required registration={register('bookingDateTo', range('bookingDateFrom', 'bookingDateTo'))} error={errors.bookingDateTo} />
          <Field label={t('search.departDateFrom')} type="date" registration={register('departDateFrom', range('departDateFrom', 'departDateTo'))} error={errors.departDateFrom} />
          <Field label={t('search.departDateTo')} type="date" registration={register('departDateTo', range('departDateFrom', 'departDateTo'))} error={errors.departDateTo} />
          <fieldset className="field">
            <legend className="field__label">{t('search.status')}</legend>
            <label>
              <input type="radio" value="ACTIVE" {...register('status')} /> {t('search.statusActive')}
            </label>{' '}
            <label>
              <input type="radio" value="all" {...register('status')} /> {t('search.statusAll')}
            </label>
          </fieldset>
          <div className="field">
            <label className="field__label" htmlFor="booking-order">
              {t('search.order')}
            </label>
            <select id="booking-order" className="field__input" {...register('order')}>
              <option value="asc">{t('search.orderAsc')}</option>
              <option value="desc">{t('search.orderDesc')}</option>
            </select>
          </div>
        </div>
        <button type="submit" className="button button--primary">
          {pending ? t('search.searching') : t('search.submit')}
        </button>
      </form>
    </section>
  )
}

function Results({
  condition,
  data,
  loading,
  onPage,
}: {
  condition: ReservationQuery | null
  data: ReturnType<typeof useReservationSearch>['data']
  loading: boolean
  onPage: (page: number) => void
}) {
  const { t } = useTranslation('bookings')
  if (!condition || !data) return null
  const page = data.currentPage
  return (
    <section aria-labelledby="booking-results-title" aria-busy={loading}>
      <h2 id="booking-results-title">{t('results.heading')}</h2>
      <p role="status">{data.total === 0 ? t('results.none') : t('results.count', { count: data.total })}</p>
      {data.reservations.map((r) => (
        <ReservationCard key={r.pnr} reservation={r} />
      ))}
      {data.totalPages > 1 && (
        <nav className="pagination" aria-label={t('results.pagination')}>
          <button type="button" className="button" disabled={page <= 1 || loading} onClick={() => onPage(page - 1)}>
            {t('results.previous')}
          </button>
          <span aria-current="page">{t('results.page', { page, pages: data.totalPages })}</span>
          <button type="button" className="button" disabled={page >= data.totalPages || loading} onClick={() => onPage(page + 1)}>
            {t('results.next')}
          </button>
        </nav>
      )}
    </section>
  )
}

type AddForm = z.infer<ReturnType<typeof addSchema>>

function AddBooking() {
  const { t } = useTranslation('bookings')
  const schema = useMemo(() => addSchema(t), [t])
  const modals = useModals()
  const toast = useToast()
  const add = useAddReservation()
  const [done, setDone] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<AddForm>({ resolver: zodResolver(schema), defaultValues: { pnr: '', lastname: '' } })
  const labels = { pnr: t('add.pnr'), lastname: t('add.lastname') }
  const onSubmit = handleSubmit(async (v) => {
    setDone(null)
    setFailure(null)
    try {
      const r = await add.mutateAsync({ pnr: v.pnr.toUpperCase(), lastname: v.lastname })
      setDone(t('add.added', { pnr: r.pnr }))
      reset()
    } catch (e) {
      if (handleServerValidation(e, setError, labels, modals)) return
      if (e instanceof ApiError && (e.status === 404 || e.status === 409)) setFailure(e.serverMessage ?? '')
      else toast.showError()
    }
  })
  return (
    <section className="card" aria-labelledby="add-booking-title">
      <h2 id="add-booking-title">{t('add.heading')}</h2>
      <form className="form" onSubmit={onSubmit} noValidate aria-label={t('add.heading')}>
        {failure && (
          <p className="form__error" role="alert">
            {failure}
          </p>
        )}
        {done && (
          <p className="form__success" role="status">
            {done}
          </p>
        )}
        <Field label={t('add.pnr')} required registration={register('pnr')} error={errors.pnr} maxLength={20} autoComplete="off" />
        <Field label={t('add.lastname')} required hint={t('add.lastnameHint')} registration={register('lastname')} error={errors.lastname} autoComplete="family-name" />
        <button type="submit" className="button button--primary" disabled={isSubmitting}>
          {t('add.submit')}
        </button>
      </form>
    </section>
  )
}
