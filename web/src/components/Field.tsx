import { useId, type InputHTMLAttributes, type ReactNode } from 'react'
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form'

export interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'> {
  /** Visible label text. */
  label: ReactNode
  /** What register('name') returned. */
  registration: UseFormRegisterReturn
  /** formState.errors.<name> */
  error?: FieldError
  /** Help text under the input (linked with aria-describedby). */
  hint?: ReactNode
}

/**
 * A labelled input for react-hook-form: the label is tied to the input, the
 * error is announced and linked with aria-describedby, aria-invalid is set.
 *
 *   <Field label={t('login.email')} type="email" autoComplete="email"
 *          registration={register('email')} error={errors.email} />
 */
export function Field({ label, registration, error, hint, required, className, ...inputProps }: FieldProps) {
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined
  return (
    <div className={`field ${error ? 'field--invalid' : ''} ${className ?? ''}`.trim()}>
      <label htmlFor={id} className="field__label">
        {label}
        {required && <span aria-hidden="true" className="field__required"> *</span>}
      </label>
      <input
        id={id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        aria-required={required || undefined}
        {...inputProps}
        {...registration}
      />
      <FieldNotes hint={hint} hintId={hintId} error={error} errorId={errorId} />
    </div>
  )
}

/** The hint and the error under a field, with the ids its control's aria-describedby names. */
export function FieldNotes({ hint, hintId, error, errorId }: { hint?: ReactNode; hintId: string; error?: FieldError; errorId: string }) {
  return (
    <>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error?.message && (
        <p id={errorId} className="field__error" role="alert">
          {error.message}
        </p>
      )}
    </>
  )
}
