/**
 * The pass forms' zod schemas (the rules they use are in rules.ts, which the
 * home page's pass panel imports without zod).
 */
import { z } from 'zod'
import type { ProductFields } from '@/features/payment'
import { fitsType, MAX_ADDITIONAL_PASSENGERS, type Msg, type PassengerForm } from './rules'

const DATE = /^\d{4}-\d{2}-\d{2}$/
const LATIN = /^[A-Za-z][A-Za-z '-]*$/
const ALNUM = /^[A-Za-z0-9]+$/


/** The pass's choice: what it gives is the unlimited pass's purchase fields themselves. */
export const entrySchema = (msg: Msg) =>
  z.object({
    planId: z.string().min(1, msg('required')),
    periodId: z.string().min(1, msg('required')),
    fareType: z.enum(['happy', 'happlus'], { error: msg('required') }),
  }) satisfies z.ZodType<ProductFields<'gogo_pass'>>
export type EntryForm = z.infer<ReturnType<typeof entrySchema>>

export const exchangeSchema = (msg: Msg) =>
  z.object({
    code: z.string().trim().min(1, msg('codeRequired')).max(100, msg('max100')),
    password: z.string().trim().min(1, msg('required')).max(100, msg('max100')),
  })
export type ExchangeForm = z.infer<ReturnType<typeof exchangeSchema>>

/**
 * The coupon purchase form. firstBoardingDay and today are Japan-time days
 * of the chosen period; msg(key, {position}) words the passenger errors
 * with the passenger's position number (the member is 1).
 */
/** international: the trip crosses a border, so nationality, passport and entry details are asked. */
export const couponSchema = (msg: Msg, firstBoardingDay: string, today: string, international = true) =>
  // The product and period come from the page's pickers, not the form.
  z.object({
    fareType: z.enum(['lite', 'standard'], { error: msg('required') }),
    agreeTerms: z.boolean().refine((v) => v, msg('terms')),
    additionalPassengers: z
      .array(
        z.object({
          passengerType: z.enum(['adult', 'child', 'infant']),
          lastname: z.string(),
          firstname: z.string(),
          gender: z.string(),
          dateOfBirth: z.string(),
          nationalityCode: z.string(),
          passportNo: z.string(),
          dateOfEntry: z.string(),
          inboundTransportMethod: z.string(),
          inboundFlightNo: z.string(),
        }),
      )
      .max(MAX_ADDITIONAL_PASSENGERS)
      .superRefine((list, ctx) => {
        list.forEach((p, i) => {
          const position = i + 2
          const fail = (field: keyof PassengerForm, key: string) => ctx.addIssue({ code: 'custom', path: [i, field], message: msg(key, { position }) })
          const text = (field: keyof PassengerForm, re?: RegExp, reKey = 'latin') => {
            const v = p[field].trim()
            if (!v) fail(field, 'passengerRequired')
            else if (re && !re.test(v)) fail(field, reKey)
          }
          text('lastname', LATIN)
          text('firstname', LATIN)
          text('gender')
          if (international) {
            text('nationalityCode')
            text('passportNo', ALNUM, 'alnum')
            text('inboundTransportMethod')
            text('inboundFlightNo', ALNUM, 'alnum')
            if (!p.dateOfEntry) fail('dateOfEntry', 'passengerRequired')
            else if (!DATE.test(p.dateOfEntry)) fail('dateOfEntry', 'date')
          }
          if (!p.dateOfBirth) fail('dateOfBirth', 'passengerRequired')
          else if (!DATE.test(p.dateOfBirth)) fail('dateOfBirth', 'date')
          else if (p.dateOfBirth > today) fail('dateOfBirth', 'birthFuture')
          else if (firstBoardingDay && !fitsType(p.passengerType, p.dateOfBirth, firstBoardingDay))
            fail('dateOfBirth', p.passengerType === 'infant' ? 'infantAge' : 'twoAndOver')
        })
      }),
  }) satisfies z.ZodType<Omit<ProductFields<'coupon_ticket'>, 'productId' | 'periodId'>>
export type CouponForm = z.infer<ReturnType<typeof couponSchema>>
