import type { ReactNode, SelectHTMLAttributes } from 'react'
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form'
import { FieldWrapper, useFieldIds } from './Field'

export interface SelectOption {
  value: string
  label: string
  /** The option's language (BCP 47), when it differs from the page's. */
  lang?: string
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name' | 'children'> {
  /** Visible label text. */
  label: ReactNode
  /** What register('name') returned. */
  registration: UseFormRegisterReturn
  /** formState.errors.<name> */
  error?: FieldError
  /** Help text under the select (linked with aria-describedby). */
  hint?: ReactNode
  /** The options after the placeholder. */
  options: readonly SelectOption[]
  /** The first option, of value "" ("Choose", "Any airport"). */
  placeholder?: string
}

/**
 * A labelled select for react-hook-form, in the same wrapper as Field: the
 * label is tied to the select, hint and error are linked with
 * aria-describedby, aria-invalid and aria-required are set.
 *
 *   <SelectField label={t('search.airport')} registration={register('airportCode')}
 *                placeholder={t('search.anyAirport')} options={airportOptions} />
 */
export function SelectField({ id, label, registration, error, hint, options, placeholder, required, className, ...rest }: SelectFieldProps) {
  const ids = useFieldIds(hint, error, id)
  return (
    <FieldWrapper ids={ids} label={label} required={required} error={error} hint={hint} className={className}>
      <select id={ids.id} className="field__input" aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy} aria-required={required || undefined} {...rest} {...registration}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value} lang={o.lang}>{o.label}</option>
        ))}
      </select>
    </FieldWrapper>
  )
}
