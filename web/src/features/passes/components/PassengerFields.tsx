import { useId } from 'react'
import { useTranslation } from '@/i18n/translation'
import type { FieldError, UseFormReturn } from 'react-hook-form'
import type { CouponForm } from '../schemas'
import type { SavedPassenger } from '../api'
import { DateField } from '@/components/DateField'

interface Props {
  form: UseFormReturn<CouponForm>
  index: number
  countries: { code: string; name: string }[]
  /** The trip crosses a border: nationality, passport and entry details are asked. */
  international: boolean
  /** The member's saved passengers, offered to fill this one in. */
  saved: SavedPassenger[]
  onRemove: () => void
}

const TYPE_OF: Record<string, 'adult' | 'child' | 'infant'> = { ADULT: 'adult', CHILD: 'child', INFANT: 'infant' }

/**
 * One additional passenger; every label carries the passenger's position
 * (the member is 1). Only what the trip needs is asked: a domestic trip
 * asks no passport or entry details. A saved passenger fills the fields in.
 */
export function PassengerFields({ form, index, countries, international, saved, onRemove }: Props) {
  const { t } = useTranslation('passes')
  const pickId = useId()
  const position = index + 2
  const errs = form.formState.errors.additionalPassengers?.[index]
  const name = (f: string) => `additionalPassengers.${index}.${f}` as const
  const label = (f: string) => t('passenger.label', { position, field: t(`passenger.${f}`) })
  function fillFrom(id: string) {
    const p = saved.find((x) => x.id === id)
    if (!p) return
    const set = (f: keyof CouponForm['additionalPassengers'][number], v: string) =>
      form.setValue(name(f) as 'additionalPassengers.0.lastname', v, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })
    set('passengerType', TYPE_OF[p.passengerType] ?? 'adult')
    set('lastname', p.lastname)
    set('firstname', p.firstname)
    set('gender', p.gender)
    set('dateOfBirth', p.birth)
    if (international) {
      if (p.passportNationalityCode) set('nationalityCode', p.passportNationalityCode)
      if (p.passportNo) set('passportNo', p.passportNo)
    }
  }
  return (
    <fieldset className="card passenger">
      <legend className="passenger__title">{t('passenger.title', { position })}</legend>
      {saved.length > 0 && (
        <div className="field passenger__saved">
          <label htmlFor={pickId} className="field__label">{t('passenger.fromSaved', { position })}</label>
          <select id={pickId} className="field__input" defaultValue="" onChange={(e) => fillFrom(e.target.value)}>
            <option value="">{t('passenger.fromSavedNone')}</option>
            {saved.map((p) => <option key={p.id} value={p.id}>{p.lastname} {p.firstname}</option>)}
          </select>
        </div>
      )}
      <div className="passenger__grid">
        <Select label={label('passengerType')} reg={form.register(name('passengerType') as 'additionalPassengers.0.passengerType')} error={errs?.passengerType}>
          <option value="adult">{t('passenger.adult')}</option>
          <option value="child">{t('passenger.child')}</option>
          <option value="infant">{t('passenger.infant')}</option>
        </Select>
        <Input label={label('lastname')} reg={form.register(name('lastname') as 'additionalPassengers.0.lastname')} error={errs?.lastname} autoComplete="off" />
        <Input label={label('firstname')} reg={form.register(name('firstname') as 'additionalPassengers.0.firstname')} error={errs?.firstname} autoComplete="off" />
        <Select label={label('gender')} reg={form.register(name('gender') as 'additionalPassengers.0.gender')} error={errs?.gender}>
          <option value="">{t('select')}</option>
          <option value="male">{t('passenger.male')}</option>
          <option value="female">{t('passenger.female')}</option>
        </Select>
        <DateField label={label('dateOfBirth')} registration={form.register(name('dateOfBirth') as 'additionalPassengers.0.dateOfBirth')} error={errs?.dateOfBirth} />
        {international && <>
        <Select label={label('inboundTransportMethod')} reg={form.register(name('inboundTransportMethod') as 'additionalPassengers.0.inboundTransportMethod')} error={errs?.inboundTransportMethod}>
          <option value="">{t('select')}</option>
          <option value="air">{t('passenger.air')}</option>
          <option value="sea">{t('passenger.sea')}</option>
        </Select>
        <Input label={label('passportNo')} reg={form.register(name('passportNo') as 'additionalPassengers.0.passportNo')} error={errs?.passportNo} autoComplete="off" />
        <Input label={label('inboundFlightNo')} reg={form.register(name('inboundFlightNo') as 'additionalPassengers.0.inboundFlightNo')} error={errs?.inboundFlightNo} autoComplete="off" />
        <DateField label={label('dateOfEntry')} registration={form.register(name('dateOfEntry') as 'additionalPassengers.0.dateOfEntry')} error={errs?.dateOfEntry} />
        <Select label={label('nationalityCode')} reg={form.register(name('nationalityCode') as 'additionalPassengers.0.nationalityCode')} error={errs?.nationalityCode}>
          <option value="">{t('select')}</option>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>{c.name}</option>
          ))}
        </Select>
        </>}
      </div>
      {!international && <p className="pass-muted">{t('passenger.domestic')}</p>}
      <button type="button" className="button button--ghost" onClick={onRemove}>{t('passenger.remove', { position })}</button>
    </fieldset>
  )
}

type Reg = ReturnType<UseFormReturn<CouponForm>['register']>

function Input({ label, reg, error, type = 'text', autoComplete }: { label: string; reg: Reg; error?: FieldError; type?: string; autoComplete?: string }) {
  const id = useId()
  return (
    <div className={`field ${error ? 'field--invalid' : ''}`}>
      <label htmlFor={id} className="field__label">{label}<span aria-hidden="true" className="field__required"> *</span></label>
      <input id={id} type={type} className="field__input" aria-invalid={error ? true : undefined} aria-required aria-describedby={error ? `${id}-e` : undefined} autoComplete={autoComplete} {...reg} />
      {error?.message && <p id={`${id}-e`} className="field__error" role="alert">{error.message}</p>}
    </div>
  )
}

function Select({ label, reg, error, children }: { label: string; reg: Reg; error?: FieldError; children: React.ReactNode }) {
  const id = useId()
  return (
    <div className={`field ${error ? 'field--invalid' : ''}`}>
      <label htmlFor={id} className="field__label">{label}<span aria-hidden="true" className="field__required"> *</span></label>
      <select id={id} className="field__input" aria-invalid={error ? true : undefined} aria-required aria-describedby={error ? `${id}-e` : undefined} {...reg}>{children}</select>
      {error?.message && <p id={`${id}-e`} className="field__error" role="alert">{error.message}</p>}
    </div>
  )
}
