/** One zod schema per form, built from the rules in rules.ts; messages from the "account" catalogue. */
import { z } from 'zod'
import * as r from './rules'

type T = (key: string, opts?: Record<string, unknown>) => string

function field(t: T, check: (v: string) => r.RuleError) {
  return z.string().superRefine((v, ctx) => {
    const e = check(v)
    if (e) ctx.addIssue({ code: 'custom', message: t(`rules.${e.key}`, e.args) })
  })
}

/**
 * The profile form. currentEmail is the saved address: a different address
 * needs the current password (the change then waits for the link mailed to
 * the new address), as the server requires.
 */
export function profileSchema(t: T, now: () => Date = () => new Date(), currentEmail?: string) {
  return z.object({
    lastname: field(t, r.checkName),
    firstname: field(t, r.checkName),
    gender: field(t, r.checkGender),
    birth: field(t, (v) => r.checkBirth(v, now())),
    tel: field(t, (v) => r.checkTel(v)),
    email: field(t, (v) => r.checkEmail(v)),
    addressCountryCode: field(t, r.checkRequired),
    addressPostalCode: field(t, r.checkRequired),
    addressStateAndCity: field(t, (v) => r.checkAddress(v, true)),
    address1: field(t, (v) => r.checkAddress(v, false)),
    passportNo: field(t, r.checkPassportNo),
    passportNationalityCode: z.string(),
    passportIssueCountryCode: z.string(),
    passportExpirationDate: field(t, r.checkOptionalDate),
    optin1: z.boolean(),
    autoLoginNoticeMail: z.boolean(),
    currentPassword: z.string().max(100),
  }).superRefine((v, ctx) => {
    if (r.isEmailChange(currentEmail, v.email) && v.currentPassword === '') {
      ctx.addIssue({ code: 'custom', path: ['currentPassword'], message: t('emailChange.passwordRequired') })
    }
  })
}

export type ProfileForm = z.infer<ReturnType<typeof profileSchema>>

export function passwordSchema(t: T) {
  return z
    .object({
      passwordOld: field(t, r.checkRequired),
      passwordNew: field(t, r.checkNewPassword),
      passwordReenter: z.string(),
    })
    .superRefine((v, ctx) => {
      const e = r.checkReenter(v.passwordReenter, v.passwordNew)
      if (e) ctx.addIssue({ code: 'custom', path: ['passwordReenter'], message: t(`rules.${e.key}`, e.args) })
    })
}
export type PasswordForm = z.infer<ReturnType<typeof passwordSchema>>

export function passengerSchema(t: T, now: () => Date = () => new Date()) {
  return z
    .object({
      passengerType: z.string(),
      lastname: field(t, r.checkName),
      firstname: field(t, r.checkName),
      gender: field(t, r.checkGender),
      birth: field(t, (v) => r.checkBirth(v, now(), -1)),
      tel: field(t, (v) => r.checkTel(v, false)),
      email: field(t, (v) => r.checkEmail(v, false)),
      passportNo: field(t, r.checkPassportNo),
      passportNationalityCode: z.string(),
      passportIssueCountryCode: z.string(),
      passportExpirationDate: field(t, r.checkOptionalDate),
    })
    .superRefine((v, ctx) => {
      const e = r.checkPassengerType(v.passengerType, v.birth, now())
      if (e) ctx.addIssue({ code: 'custom', path: ['passengerType'], message: t(`rules.${e.key}`, e.args) })
    })
}
export type PassengerForm = z.infer<ReturnType<typeof passengerSchema>>

export function resetRequestSchema(t: T) {
  return z.object({ email: field(t, (v) => r.checkEmail(v)) })
}
export type ResetRequestForm = z.infer<ReturnType<typeof resetRequestSchema>>

export function resetSchema(t: T) {
  return z
    .object({ password: field(t, r.checkNewPassword), passwordReenter: z.string() })
    .superRefine((v, ctx) => {
      const e = r.checkReenter(v.passwordReenter, v.password)
      if (e) ctx.addIssue({ code: 'custom', path: ['passwordReenter'], message: t(`rules.${e.key}`, e.args) })
    })
}
export type ResetForm = z.infer<ReturnType<typeof resetSchema>>
