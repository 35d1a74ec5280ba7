import { useEffect, useId, useMemo, useRef, useState, type RefObject } from 'react'
import { useForm } from 'react-hook-form'
import { NavigationType, useLocation, useNavigationType, useSearchParams } from 'react-router'
import { useLang, useTranslation } from '@/i18n/translation'
import { pluralKey } from '@/i18n/format'
import { Field } from '@/components/Field'
import { SelectField } from '@/components/SelectField'
import { DateField } from '@/components/DateField'
import { PageHeader } from '@/components/PageHeader'
import { handleServerValidation } from '@/components/serverValidation'
import { ApiError } from '@/api/errors'
import { useModals } from '@/app/modals/modalContext'
import { useToast } from '@/app/toast'
import { pageNavigation } from '@/app/pageNavigation'
import { useAddReservation, useAirports, useBookingSiteSSO, useReservationSearch, type ReservationQuery, type ReservationResult } from '../api'
import { keepRangeEnd, searchDefaults, searchResolver, toQuery, type SearchForm } from '../searchForm'
import type { AddForm } from '../schemas'
import { formOfQuery, paramsForSearch, PER_PAGE, queryOf, searchFromParams, searchKey, type AddressedSearch } from '../searchParams'
import { lazyResolver } from '@/components/lazyResolver'
import { ReservationCard } from '../components/ReservationCard'
import { CalendarSubscription } from '../components/CalendarSubscription'
import { KeepTripsToggle } from '../offline/KeepTripsToggle'
import { PushToggle } from '@/app/pwa/PushToggle'

/**
 * Booking management: "Add a booking" at the top, the results with paging
 * (first the spec's default search: the flights to come, nearest first),
 * then the search form. The condition and page searched are in the
 * address (searchParams.ts): each search is a history entry, so Back shows
 * the previous search again, and a reload the same one.
 */
export default function BookingsPage() {
  const { t } = useTranslation('bookings')
  const toast = useToast()
  const [params, setParams] = useSearchParams()
  const location = useLocation()
  const navigationType = useNavigationType()
  // The form shows the address's search: it starts again from it when Back
  // or Forward brings another address (a POP), not after a search of its own.
  const [form, setForm] = useState({ location: location.key, key: 0 })
  if (form.location !== location.key) setForm({ location: location.key, key: navigationType === NavigationType.Pop ? form.key + 1 : form.key })
  const addressed = useMemo(() => searchFromParams(params), [params])
  const addressedKey = searchKey(addressed)
  // The first search is the address's (the defaults on a plain /bookings).
  // (Asked for at startup on a visit's first address: prefetch.ts.)
  const search = useReservationSearch(queryOf(addressed))
  const { submit } = search
  // The search the address was last brought to: a search of the page's own
  // (a submit, a page) sends at once and then writes the address; a change
  // of address from outside (Back, Forward) sends the search it names.
  const searched = useRef(addressedKey)
  const scrollToResults = () => resultsRef.current?.scrollIntoView?.({ block: 'start' })
  useEffect(() => {
    if (searched.current === addressedKey) return
    searched.current = addressedKey
    void submit(queryOf(addressed))
  }, [addressedKey, addressed, submit])
  /** Sends a search, every time (the same condition too), and makes it the address's. */
  const searchFor = (next: AddressedSearch) => {
    const sent = submit(queryOf(next))
    const key = searchKey(next)
    if (key !== searched.current) {
      searched.current = key
      setParams(paramsForSearch(params, next.form, next.page))
    }
    return sent
  }
  const [adding, setAdding] = useState(false)
  const resultsRef = useRef<HTMLElement>(null)
  const sso = useBookingSiteSSO()
  const addPanelId = useId()
  // The results arrive after the first paint and take the place of a one-line
  // status: whatever sits below them would be pushed down the screen (layout
  // shift). The calendar block is rendered from the start (its fetch runs)
  // but shown once the first search has answered; it then stays.
  const [settled, setSettled] = useState(false)
  if (!settled && (search.result || search.failure || search.validation)) setSettled(true)

  // Failures other than 400 and 500 get the generic toast.
  useEffect(() => {
    if (search.failure) toast.showError()
  }, [search.failure, toast])

  return (
    <div className="page bookings">
      <PageHeader
        title={t('title')}
        actions={
          <>
            <button type="button" className="button button--secondary" aria-expanded={adding} aria-controls={addPanelId} onClick={() => setAdding((v) => !v)}>
              {t('add.heading')}
            </button>
            <button
              type="button"
              className="button button--secondary"
              disabled={sso.isPending}
              onClick={() => sso.mutate(undefined, { onSuccess: (r) => pageNavigation.assign(r.url), onError: () => toast.showError() })}
            >
              {t('bookingSite')}
            </button>
          </>
        }
      />
      <div id={addPanelId} hidden={!adding}>
        {adding && <AddBooking onClose={() => setAdding(false)} onAdded={() => void submit(search.condition ?? toQuery(searchDefaults(), 1, PER_PAGE))} />}
      </div>
      {/* The trips first (the default search is the flights to come, nearest first), the search form after them:
          on a phone the next trip is the first thing seen, not the form. */}
      <Results
        condition={search.condition}
        data={search.result}
        loading={search.pending}
        sectionRef={resultsRef}
        onPage={(page) => {
          if (!search.condition) return
          // The next page of the results shown (the last search answered), at the list's top, not where the pager was (the foot of the last page).
          void searchFor({ form: formOfQuery(search.condition), page }).then(scrollToResults)
        }}
      />
      {/* Shown once the first search has answered, so the results arriving above it do not push it down the screen. */}
      <div hidden={!settled}>
        <SearchPanel key={form.key} values={addressed.form} onSearch={(form) => void searchFor({ form, page: 1 }).then(scrollToResults)} pending={search.pending} error={search.validation} />
        <div className="bookings__device-choices">
          <KeepTripsToggle>
            <PushToggle compact />
          </KeepTripsToggle>
          <CalendarSubscription />
        </div>
      </div>
    </div>
  )
}

type RangeEnd = 'bookingDateTo' | 'departDateTo'

function SearchPanel({
  values,
  onSearch,
  pending,
  error,
}: {
  /** The address's condition, shown when the form mounts. */
  values: SearchForm
  onSearch: (f: SearchForm) => void
  pending: boolean
  error: unknown
}) {
  const { t } = useTranslation('bookings')
  const airports = useAirports()
  const resolver = useMemo(() => searchResolver(t), [t])
  const modals = useModals()
  const [cleared, setCleared] = useState<Partial<Record<RangeEnd, boolean>>>({})
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    getValues,
    setValue,
    formState: { errors },
  } = useForm<SearchForm>({ resolver, defaultValues: values })
  // A to-date that precedes its from-date is reset. The rule waits
  // until a field is left, so a date typed digit by digit is not wiped while
  // its year is still incomplete, and says why the field was emptied.
  const range = (from: 'bookingDateFrom' | 'departDateFrom', to: RangeEnd) => {
    const apply = () => {
      const kept = keepRangeEnd(getValues(from), getValues(to))
      if (kept !== getValues(to)) {
        setValue(to, kept)
        setCleared((c) => ({ ...c, [to]: true }))
      }
    }
    return {
      from: register(from, { onBlur: apply }),
      to: register(to, {
        onBlur: apply,
        onChange: () => setCleared((c) => ({ ...c, [to]: false })),
      }),
    }
  }
  const booking = range('bookingDateFrom', 'bookingDateTo')
  const depart = range('departDateFrom', 'departDateTo')
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
  const handled = useRef<unknown>(null)
  useEffect(() => {
    if (!error || handled.current === error) return
    handled.current = error
    handleServerValidation(error, setError, labelsRef.current, modals)
  }, [error, setError, modals])
  const clearedHint = (to: RangeEnd) => (cleared[to] ? t('search.clearedTo') : undefined)
  return (
    <section className="card" aria-labelledby="booking-search-title">
      <h2 id="booking-search-title" className="section-title">
        {t('search.heading')}
      </h2>
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
          <SelectField id="booking-airport" label={t('search.airport')} registration={register('airportCode')} placeholder={t('search.anyAirport')}
            options={(airports.data ?? []).map((a) => ({ value: a.code, label: `${a.localName || a.shortName} (${a.code})` }))} />
          <DateField className="search-form__date" label={t('search.bookingDateFrom')} required registration={booking.from} error={errors.bookingDateFrom} />
          <DateField className="search-form__date" label={t('search.bookingDateTo')} required registration={booking.to} error={errors.bookingDateTo} hint={clearedHint('bookingDateTo')} />
          <DateField className="search-form__date" label={t('search.departDateFrom')} registration={depart.from} error={errors.departDateFrom} />
          <DateField className="search-form__date" label={t('search.departDateTo')} registration={depart.to} error={errors.departDateTo} hint={clearedHint('departDateTo')} />
          <fieldset className="field">
            <legend className="field__label">{t('search.status')}</legend>
            <div className="choice-row">
              <label className="choice">
                <input type="radio" value="ACTIVE" {...register('status')} /> {t('search.statusActive')}
              </label>
              <label className="choice">
                <input type="radio" value="all" {...register('status')} /> {t('search.statusAll')}
              </label>
            </div>
          </fieldset>
          <SelectField id="booking-order" className="search-form__order" label={t('search.order')} registration={register('order')}
            options={[{ value: 'asc', label: t('search.orderAsc') }, { value: 'desc', label: t('search.orderDesc') }]} />
        </div>
        <div className="form__actions">
          <button type="submit" className="button button--primary">
            {pending ? t('search.searching') : t('search.submit')}
          </button>
        </div>
      </form>
    </section>
  )
}

function Results({
  condition,
  data,
  loading,
  onPage,
  sectionRef,
}: {
  condition: ReservationQuery | null
  data: ReservationResult | null
  loading: boolean
  onPage: (page: number) => void
  sectionRef: RefObject<HTMLElement | null>
}) {
  const { t } = useTranslation('bookings')
  const lang = useLang()
  if (!condition || !data) {
    return loading ? (
      <p role="status" className="muted">
        {t('search.searching')}
      </p>
    ) : null
  }
  const page = data.currentPage
  return (
    <section ref={sectionRef} aria-labelledby="booking-results-title" aria-busy={loading} className="booking-results">
      <h2 id="booking-results-title" className="section-title">
        {t('results.heading')}
      </h2>
      <p role="status">{data.total === 0 ? t('results.none') : t(pluralKey('results.count', data.total, lang), { count: data.total })}</p>
      {data.reservations.map((r) => (
        <ReservationCard key={r.pnr} reservation={r} />
      ))}
      {data.totalPages > 1 && (
          <nav className="pagination" aria-label={t('results.pagination')}>
            <button type="button" className="button button--secondary" disabled={page <= 1 || loading} onClick={() => onPage(page - 1)}>
              {t('results.previous')}
            </button>
            <span aria-current="page">{t('results.page', { page, pages: data.totalPages })}</span>
            <button type="button" className="button button--secondary" disabled={page >= data.totalPages || loading} onClick={() => onPage(page + 1)}>
              {t('results.next')}
            </button>
          </nav>
      )}
    </section>
  )
}


/** Adds a booking by its number; `onAdded` searches again so the list shows it at once. */
function AddBooking({ onClose, onAdded }: { onClose: () => void; onAdded: () => void }) {
  const { t } = useTranslation('bookings')
  // The rules (zod) load when the form is first sent, not with the page.
  const resolver = useMemo(
    () => lazyResolver<AddForm>(() => Promise.all([import('../schemas'), import('@hookform/resolvers/zod')]).then(([s, { zodResolver }]) => zodResolver(s.addSchema(t)))),
    [t],
  )
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
  } = useForm<AddForm>({ resolver, defaultValues: { pnr: '', lastname: '' } })
  const labels = { pnr: t('add.pnr'), lastname: t('add.lastname') }
  const onSubmit = handleSubmit(async (v) => {
    setDone(null)
    setFailure(null)
    try {
      const r = await add.mutateAsync({ pnr: v.pnr.toUpperCase(), lastname: v.lastname })
      setDone(t('add.added', { pnr: r.pnr }))
      reset()
      onAdded()
    } catch (e) {
      if (handleServerValidation(e, setError, labels, modals)) return
      if (e instanceof ApiError && (e.status === 404 || e.status === 409)) setFailure(e.serverMessage ?? '')
      else toast.showError()
    }
  })
  return (
    <section className="card" aria-labelledby="add-booking-title">
      <h2 id="add-booking-title" className="section-title">
        {t('add.heading')}
      </h2>
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
        <div className="form__row">
          <Field label={t('add.pnr')} required registration={register('pnr')} error={errors.pnr} maxLength={20} autoComplete="off" />
          <Field label={t('add.lastname')} required hint={t('add.lastnameHint')} registration={register('lastname')} error={errors.lastname} autoComplete="family-name" />
        </div>
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={isSubmitting}>
            {t('add.submit')}
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('common:modal.close')}
          </button>
        </div>
      </form>
    </section>
  )
}
