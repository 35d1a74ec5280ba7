/**
 * The booking forms' zod schemas, the same rules as the server's, loaded
 * when a form is first validated (searchForm.ts searchResolver, lazyResolver),
 * not with the page.
 */
import { z } from 'zod'
import { EARLIEST_DATE, isDate, todayJST, type SearchForm, type T } from './searchForm'

/** The form's rules; first failing rule per field, like the server. */
export function searchSchema(t: T, now: () => Date = () => new Date()) {
  const bookingDate = z
    .string()
    .trim()
    .min(1, { message: t('validation.required'), abort: true })
    .refine(isDate, { message: t('validation.date'), abort: true })
    .refine((s) => s >= EARLIEST_DATE, { message: t('validation.after2012'), abort: true })
    .refine((s) => s <= todayJST(now()), { message: t('validation.pastDate'), abort: true })
  const optionalDate = z
    .string()
    .trim()
    .refine((s) => s === '' || isDate(s), { message: t('validation.date'), abort: true })
  return z
    .object({
      // Spec order, as the server checks: single-byte alphanumerics, then the length.
      pnr: z
        .string()
        .trim()
        .refine((s) => s === '' || /^[A-Za-z0-9]+$/.test(s), { message: t('validation.pnr'), abort: true })
        .refine((s) => s.length <= 20, { message: t('validation.maxLength', { max: 20 }), abort: true }),
      airportCode: z.string(),
      bookingDateFrom: bookingDate,
      bookingDateTo: bookingDate,
      departDateFrom: optionalDate,
      departDateTo: optionalDate,
      status: z.enum(['ACTIVE', 'all']),
      order: z.enum(['asc', 'desc']),
    })
}

/**
 * Every field's first failing rule, the date-order rule included even when
 * other fields failed (zod skips object-level rules then), so the form shows
 * all errors at once, as the server reports them.
 */
export function validateSearch(v: SearchForm, t: T, now: () => Date = () => new Date()): Partial<Record<keyof SearchForm, string>> {
  const errors: Partial<Record<keyof SearchForm, string>> = {}
  const r = searchSchema(t, now).safeParse(v)
  if (!r.success) {
    for (const issue of r.error.issues) {
      const field = issue.path[0] as keyof SearchForm
      errors[field] ??= issue.message
    }
  }
  const order = (from: keyof SearchForm, to: keyof SearchForm) => {
    const f = String(v[from]).trim()
    const tt = String(v[to]).trim()
    if (!errors[from] && !errors[to] && isDate(f) && isDate(tt) && tt < f) errors[to] = t('validation.dateOrder')
  }
  order('bookingDateFrom', 'bookingDateTo')
  order('departDateFrom', 'departDateTo')
  return errors
}

/** The add-a-booking form: PNR (single-byte alphanumerics, max 20) and a passenger's last name. */
export function addSchema(t: T) {
  return z.object({
    pnr: z
      .string()
      .trim()
      .min(1, { message: t('validation.required'), abort: true })
      .refine((s) => /^[A-Za-z0-9]*$/.test(s), { message: t('validation.pnr'), abort: true })
      .refine((s) => s.length <= 20, { message: t('validation.maxLength', { max: 20 }), abort: true }),
    lastname: z
      .string()
      .trim()
      .min(1, { message: t('validation.required'), abort: true })
      .max(100, t('validation.maxLength', { max: 100 })),
  })
}

export type AddForm = z.infer<ReturnType<typeof addSchema>>
