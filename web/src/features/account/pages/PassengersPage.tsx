import '../account.css'
import { useMemo, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useLang, useTranslation } from '@/i18n/translation'
import { Field } from '@/components/Field'
import { DateField } from '@/components/DateField'
import { PageHeader } from '@/components/PageHeader'
import { formatDate, formatPersonName } from '@/i18n/format'
import { Dialog } from '@/components/Dialog'
import { handleServerValidation } from '@/components/serverValidation'
import { useModals } from '@/app/modals/modalContext'
import { useToast } from '@/app/toast'
import { ApiError } from '@/api/errors'
import { countriesQuery, useDeletePassenger, usePassengers, useSavePassenger, type Country, type Passenger, type PassengerInput } from '../api'
import { passengerSchema, type PassengerForm } from '../schemas'
import { SelectField } from '@/components/SelectField'
import { PassportFields } from '../components/PassportFields'
import { SavedNotice } from '../components/Notice'
import { MAX_PASSENGERS } from '../rules'

const empty: PassengerForm = {
  passengerType: '', lastname: '', firstname: '', gender: '', birth: '', tel: '', email: '', passportNo: '',
  passportNationalityCode: '', passportIssueCountryCode: '', passportExpirationDate: '',
}

/** /passengers: the saved passenger list with add, edit and delete. */
export default function PassengersPage() {
  const { t, i18n } = useTranslation('account')
  const lang = useLang()
  // Loaded with the page so the passenger form opens without waiting (and
  // given to it: see AccountPage on sections that suspend on their own).
  const countries = useSuspenseQuery(countriesQuery(i18n.language))
  const list = usePassengers()
  const del = useDeletePassenger()
  const modals = useModals()
  const toast = useToast()
  const [editing, setEditing] = useState<Passenger | 'new' | null>(null)
  const [mailSent, setMailSent] = useState<boolean | null>(null)
  const [deleted, setDeleted] = useState(false)
  const passengers = list.data ?? []

  function confirmDelete(p: Passenger) {
    modals.open((close) => (
      <Dialog title={t('passengers.deleteTitle')} onDismiss={close}>
        <p>{t('passengers.deleteConfirm', { name: formatPersonName(p.firstname, p.lastname, lang) })}</p>
        <div className="dialog__actions">
          <button type="button" className="button button--danger" onClick={() => {
            close()
            setMailSent(null)
            del.mutate(p.id, {
              onSuccess: (r) => {
                setDeleted(true)
                setMailSent(r.mailSent)
              },
              onError: () => toast.showError(),
            })
          }}>{t('passengers.delete')}</button>
          <button type="button" className="button button--secondary" onClick={close}>{t('cancel')}</button>
        </div>
      </Dialog>
    ))
  }

  return (
    <div className="page passengers-page">
      <PageHeader title={t('passengers.title')} />
      <SavedNotice mailSent={mailSent} deleted={deleted} />
      {passengers.length === 0 && list.isSuccess && <p>{t('passengers.empty')}</p>}
      <ul className="passenger-list" aria-label={t('passengers.title')}>
        {passengers.map((p) => (
          <li key={p.id} className="passenger-card">
            <span className="passenger-card__name">{formatPersonName(p.firstname, p.lastname, lang)}</span>{' '}
            <span>{t(`types.${p.passengerType}`)}</span> <span>{formatDate(p.birth, lang)}</span>
            <button type="button" className="button button--secondary" aria-label={t('passengers.editNamed', { name: formatPersonName(p.firstname, p.lastname, lang) })}
              onClick={() => setEditing(p)}>{t('passengers.edit')}</button>
            <button type="button" className="button button--secondary" aria-label={t('passengers.deleteNamed', { name: formatPersonName(p.firstname, p.lastname, lang) })}
              onClick={() => confirmDelete(p)}>{t('passengers.delete')}</button>
          </li>
        ))}
      </ul>
      {editing === null && (
        passengers.length >= MAX_PASSENGERS
          ? <p>{t('passengers.limit', { max: MAX_PASSENGERS })}</p>
          : <button type="button" className="button button--primary" onClick={() => setEditing('new')}>{t('passengers.add')}</button>
      )}
      {editing !== null && (
        <PassengerFormSection key={editing === 'new' ? 'new' : editing.id} passenger={editing === 'new' ? undefined : editing} countries={countries.data}
          onDone={(sent) => { setEditing(null); setDeleted(false); setMailSent(sent) }} onCancel={() => setEditing(null)} />
      )}
    </div>
  )
}

export function PassengerFormSection({ passenger, countries, onDone, onCancel }: {
  passenger?: Passenger
  countries: Country[]
  onDone: (mailSent: boolean) => void
  onCancel: () => void
}) {
  const { t } = useTranslation('account')
  const modals = useModals()
  const toast = useToast()
  const save = useSavePassenger()
  const countryOptions = useMemo(() => countries.map((c) => ({ value: c.code, label: c.name })), [countries])
  const resolver = useMemo(() => zodResolver(passengerSchema(t)), [t])
  const { register, handleSubmit, setError, formState: { errors } } = useForm<PassengerForm>({
    resolver, defaultValues: passenger ? { ...empty, ...passenger } : empty,
  })
  const labels: Record<keyof PassengerForm | 'something', string> = {
    passengerType: t('fields.passengerType'), lastname: t('fields.lastname'), firstname: t('fields.firstname'),
    gender: t('fields.gender'), birth: t('fields.birth'), tel: t('fields.tel'), email: t('fields.email'),
    passportNo: t('fields.passportNo'), passportNationalityCode: t('fields.passportNationality'),
    passportIssueCountryCode: t('fields.passportIssueCountry'), passportExpirationDate: t('fields.passportExpirationDate'),
    something: t('fields.something'),
  }
  const onSubmit = handleSubmit((values) => {
    save.mutate({ id: passenger?.id, body: values as PassengerInput }, {
      onSuccess: (r) => onDone(r.mailSent),
      onError: (e) => {
        if (handleServerValidation(e, setError, labels, modals)) return
        if (e instanceof ApiError && e.status === 409) modals.openError({ title: t('passengers.title'), message: e.serverMessage })
        else toast.showError()
      },
    })
  })
  const title = passenger ? t('passengers.editTitle') : t('passengers.addTitle')
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      <form onSubmit={onSubmit} noValidate>
        <SelectField label={t('fields.passengerType')} registration={register('passengerType')} error={errors.passengerType}
          placeholder={t('types.auto')} options={['ADULT', 'CHILD', 'INFANT'].map((v) => ({ value: v, label: t(`types.${v}`) }))} />
        <Field label={t('fields.lastname')} required registration={register('lastname')} error={errors.lastname} />
        <Field label={t('fields.firstname')} required registration={register('firstname')} error={errors.firstname} />
        <SelectField label={t('fields.gender')} required registration={register('gender')} error={errors.gender} placeholder={t('select')}
          options={[{ value: 'male', label: t('gender.male') }, { value: 'female', label: t('gender.female') }]} />
        <DateField label={t('fields.birth')} required registration={register('birth')} error={errors.birth} />
        <Field label={t('fields.tel')} type="tel" inputMode="tel" hint={t('hints.tel')} registration={register('tel')} error={errors.tel} />
        <Field label={t('fields.email')} type="email" maxLength={100} registration={register('email')} error={errors.email} />
        <PassportFields register={register} errors={errors} countries={countryOptions} />
        <div className="button-row">
          <button type="submit" className="button button--primary" disabled={save.isPending}>{t('passengers.save')}</button>
          <button type="button" className="button button--secondary" onClick={onCancel}>{t('cancel')}</button>
        </div>
      </form>
    </section>
  )
}
