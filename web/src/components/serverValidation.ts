import type { FieldValues, Path, UseFormSetError } from 'react-hook-form'
import { ValidationError, type ValidationErrors } from '@/api/errors'

/**
 * Puts a 400's {validationErrors: {field: [message]}} on the form fields that
 * exist (first message each), and returns the field keys it could not place
 * ("something" and unknown keys).
 */
export function applyValidationErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  errors: ValidationErrors,
  fields: readonly Path<T>[],
): string[] {
  const unplaced: string[] = []
  let focus = true
  for (const [key, msgs] of Object.entries(errors)) {
    if ((fields as readonly string[]).includes(key)) {
      setError(key as Path<T>, { type: 'server', message: msgs[0] ?? '' }, { shouldFocus: focus })
      focus = false
    } else unplaced.push(key)
  }
  return unplaced
}

/**
 * The whole 400 flow for a form: if `error` is a ValidationError, mark the
 * fields and open the validation-error modal (labels from `labels`), then
 * return true; otherwise return false so the caller handles it.
 *
 *   onError: (e) => handleServerValidation(e, form.setError, labels, modals) || toast.showError()
 */
export function handleServerValidation<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  labels: Partial<Record<Path<T> | 'something', string>>,
  modals: { openValidationErrors(errors: ValidationErrors, labels?: Record<string, string>): string },
): boolean {
  if (!(error instanceof ValidationError)) return false
  applyValidationErrors(setError, error.validationErrors, Object.keys(labels) as Path<T>[])
  modals.openValidationErrors(error.validationErrors, labels as Record<string, string>)
  return true
}
