import type { FieldErrors, FieldValues, Path, UseFormRegister } from 'react-hook-form'
import { useTranslation } from '@/i18n/translation'
import { Field } from '@/components/Field'
import { DateField } from '@/components/DateField'
import { SelectField, type SelectOption } from '@/components/SelectField'

/** The passport part of a form: the member's profile and a saved passenger have the same four fields. */
export interface PassportValues {
  passportNo: string
  passportNationalityCode: string
  passportIssueCountryCode: string
  passportExpirationDate: string
}

/** Passport number, nationality, issuing country and expiry, with the shared country list. */
export function PassportFields<T extends FieldValues & PassportValues>({ register, errors, countries }: {
  register: UseFormRegister<T>
  errors: FieldErrors<T>
  countries: readonly SelectOption[]
}) {
  const { t } = useTranslation('account')
  const field = (name: keyof PassportValues) => register(name as Path<T>)
  const error = errors as FieldErrors<PassportValues>
  return (
    <>
      <Field label={t('fields.passportNo')} registration={field('passportNo')} error={error.passportNo} />
      <SelectField label={t('fields.passportNationality')} registration={field('passportNationalityCode')} error={error.passportNationalityCode}
        options={countries} placeholder={t('none')} />
      <SelectField label={t('fields.passportIssueCountry')} registration={field('passportIssueCountryCode')} error={error.passportIssueCountryCode}
        options={countries} placeholder={t('none')} />
      <DateField label={t('fields.passportExpirationDate')} registration={field('passportExpirationDate')} error={error.passportExpirationDate} />
    </>
  )
}
