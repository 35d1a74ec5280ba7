import { useId, type ReactNode, type SelectHTMLAttributes } from 'react'
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form'

interface Props extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name'> {
  label: ReactNode
  registration: UseFormRegisterReturn
  error?: FieldError
  options: { value: string; label: string }[]
  placeholder?: string
}

/** A labelled select for react-hook-form (same markup as the shell's Field). */
export function Select({ label, registration, error, options, placeholder, required, ...rest }: Props) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className={`field ${error ? 'field--invalid' : ''}`.trim()}>
      <label htmlFor={id} className="field__label">
        {label}
        {required && <span aria-hidden="true" className="field__required"> *</span>}
      </label>
      <select id={id} className="field__input" aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined} aria-required={required || undefined} {...rest} {...registration}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>{o.label}</option>
        ))}
      </select>
      {error?.message && <p id={errorId} className="field__error" role="alert">{error.message}</p>}
    </div>
  )
}
