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
  const ids = useFieldIds(hint, error)
  return (
    <FieldWrapper ids={ids} label={label} required={required} error={error} hint={hint} className={className}>
      <input
        id={ids.id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        aria-required={required || undefined}
        {...inputProps}
        {...registration}
      />
    </FieldWrapper>
  )
}

/** The ids a field's parts share: the control's, its hint's and error's, and what its aria-describedby names. */
export interface FieldIds {
  id: string
  hintId: string
  errorId: string
  /** The hint's and the error's ids, those that are shown; undefined when neither is. */
  describedBy: string | undefined
}

/** The ids of a field; `fixedId` names the control where a page or a test needs to find it by id. */
export function useFieldIds(hint: ReactNode | undefined, error: FieldError | undefined, fixedId?: string): FieldIds {
  const generated = useId()
  const id = fixedId ?? generated
  const hintId = `${id}-hint`
  const errorId = `${id}-error`
  const describedBy = [hint ? hintId : null, error?.message ? errorId : null].filter(Boolean).join(' ') || undefined
  return { id, hintId, errorId, describedBy }
}

export interface FieldWrapperProps {
  /** From useFieldIds; the control inside takes ids.id and ids.describedBy. */
  ids: FieldIds
  label: ReactNode
  required?: boolean
  error?: FieldError
  hint?: ReactNode
  className?: string
  /** The control (and anything that goes between it and the notes). */
  children: ReactNode
}

/**
 * What every form control of the app sits in (Field, SelectField,
 * DateField): the label tied to the control by id (with the required
 * mark), the control, then its hint and error.
 */
export function FieldWrapper({ ids, label, required, error, hint, className, children }: FieldWrapperProps) {
  return (
    <div className={`field ${error ? 'field--invalid' : ''} ${className ?? ''}`.trim()}>
      <label htmlFor={ids.id} className="field__label">
        {label}
        {required && <span aria-hidden="true" className="field__required"> *</span>}
      </label>
      {children}
      <FieldNotes hint={hint} hintId={ids.hintId} error={error} errorId={ids.errorId} />
    </div>
  )
}

/** The hint and the error under a field, with the ids its control's aria-describedby names. */
function FieldNotes({ hint, hintId, error, errorId }: { hint?: ReactNode; hintId: string; error?: FieldError; errorId: string }) {
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
