import type { FieldErrors, Resolver } from 'react-hook-form'
import { toNestErrors } from '@hookform/resolvers'

/**
 * The login form's rules, written out instead of a zod schema: two fields,
 * each required and at most 100 characters (the address trimmed first), do
 * not need zod's core (13.5 KiB brotli) on the first page most visitors load
 * (docs/speed.md). Same messages, same error types and same values (the
 * trimmed address) as the zod schema it replaces; other forms keep zod.
 */
export interface LoginForm {
  email: string
  password: string
}

export const LOGIN_MAX = 100

type Translate = (key: string, opts?: Record<string, unknown>) => string

/** The first broken rule of one value, as zod reported it (code and message), or null. */
function check(value: string, t: Translate): { type: string; message: string } | null {
  if (value.length < 1) return { type: 'too_small', message: t('validation.required') }
  if (value.length > LOGIN_MAX) return { type: 'too_big', message: t('validation.maxLength', { max: LOGIN_MAX }) }
  return null
}

/** A react-hook-form resolver for the login form. */
export function loginResolver(t: Translate): Resolver<LoginForm> {
  return (raw, _context, options) => {
    const values = { email: raw.email.trim(), password: raw.password }
    const errors: Record<string, { type: string; message: string }> = {}
    for (const name of ['email', 'password'] as const) {
      const broken = check(values[name], t)
      if (broken) errors[name] = broken
    }
    if (Object.keys(errors).length === 0) return { values, errors: {} }
    return { values: {}, errors: toNestErrors(errors as FieldErrors, options) as FieldErrors<LoginForm> }
  }
}
