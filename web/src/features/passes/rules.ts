/**
 * The pass rules mirrored on the client (the server checks them all again):
 * Japan-time dates, the maintenance window, the coupon age classes, the
 * refund fee, and the form schemas.
 */
import { z } from 'zod'

const DAY = 86_400_000
const JST_OFFSET = 9 * 3_600_000

/** Today's calendar date in Japan time (UTC+9), YYYY-MM-DD. */
export function todayJST(now: Date = new Date()): string {
  return new Date(now.getTime() + JST_OFFSET).toISOString().slice(0, 10)
}

/** Whole days from a to b (YYYY-MM-DD); negative when b is before a. */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY)
}

/** The pass maintenance window: 03:00 to 05:00 Japan time (spec §9). */
export const MAINTENANCE_START_HOUR = 3
export const MAINTENANCE_END_HOUR = 5
export function inMaintenanceWindow(now: Date): boolean {
  const h = new Date(now.getTime() + JST_OFFSET).getUTCHours()
  return h >= MAINTENANCE_START_HOUR && h < MAINTENANCE_END_HOUR
}

/** Age in completed years on a day (both YYYY-MM-DD); 29 February birthdays count from 1 March. */
export function ageOn(birth: string, day: string): number {
  const [by, bm, bd] = birth.split('-').map(Number)
  const [dy, dm, dd] = day.split('-').map(Number)
  let age = dy - by
  if (dm < bm || (dm === bm && dd < bd)) age--
  return age
}

export const INFANT_UNDER = 2
export const ADULT_FROM = 12
export type PassengerType = 'adult' | 'child' | 'infant'

/** Child and adult entries are 2 and over, infant entries under 2, on the first boarding day. */
export function fitsType(type: PassengerType, birth: string, firstBoardingDay: string): boolean {
  const age = ageOn(birth, firstBoardingDay)
  return type === 'infant' ? age < INFANT_UNDER : age >= INFANT_UNDER
}

export const isAdultOn = (birth: string, day: string) => ageOn(birth, day) >= ADULT_FROM

/** Refund fee per coupon item in yen (spec §9) and the refund: never below zero. */
export const REFUND_FEE_PER_ITEM = 9000
export function refundOf(purchasedPrice: number, items: number): { fee: number; amount: number } {
  const fee = Math.min(items * REFUND_FEE_PER_ITEM, purchasedPrice)
  return { fee, amount: purchasedPrice - fee }
}

/** Passengers with a seat pay; infants travel on a lap. */
export function couponTotal(pricePerPerson: number, types: PassengerType[]): { items: number; total: number; count: number } {
  const items = 1 + types.filter((t) => t !== 'infant').length
  return { items, total: items * pricePerPerson, count: 1 + types.length }
}

/** Coupon fare types: the purchased coupon says happy for Lite and happlus for Standard. */
export const couponPlanOf = (fareType: string) => (fareType === 'happy' ? 'lite' : 'standard')

const DATE = /^\d{4}-\d{2}-\d{2}$/
const LATIN = /^[A-Za-z][A-Za-z '-]*$/
const ALNUM = /^[A-Za-z0-9]+$/

export type Msg = (key: string, values?: Record<string, unknown>) => string

export const entrySchema = (msg: Msg) =>
  z.object({
    planId: z.string().min(1, msg('required')),
    periodId: z.string().min(1, msg('required')),
    fareType: z.enum(['happy', 'happlus'], { error: msg('required') }),
  })
export type EntryForm = z.infer<ReturnType<typeof entrySchema>>

export const exchangeSchema = (msg: Msg) =>
  z.object({
    code: z.string().trim().min(1, msg('codeRequired')).max(100, msg('max100')),
    password: z.string().trim().min(1, msg('required')).max(100, msg('max100')),
  })
export type ExchangeForm = z.infer<ReturnType<typeof exchangeSchema>>

export interface PassengerForm {
  passengerType: PassengerType
  lastname: string
  firstname: string
  gender: string
  dateOfBirth: string
  nationalityCode: string
  passportNo: string
  dateOfEntry: string
  inboundTransportMethod: string
  inboundFlightNo: string
}

export const emptyPassenger = (): PassengerForm => ({
  passengerType: 'adult', lastname: '', firstname: '', gender: '', dateOfBirth: '', nationalityCode: '',
  passportNo: '', dateOfEntry: '', inboundTransportMethod: '', inboundFlightNo: '',
})

export const MAX_ADDITIONAL_PASSENGERS = 8

/**
 * The coupon purchase form. firstBoardingDay and today are Japan-time days
 * of the chosen period; msg(key, {position}) words the passenger errors
 * with the passenger's position number (the member is 1).
 */
export const couponSchema = (msg: Msg, firstBoardingDay: string, today: string) =>
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
          text('nationalityCode')
          text('passportNo', ALNUM, 'alnum')
          text('inboundTransportMethod')
          text('inboundFlightNo', ALNUM, 'alnum')
          if (!p.dateOfEntry) fail('dateOfEntry', 'passengerRequired')
          else if (!DATE.test(p.dateOfEntry)) fail('dateOfEntry', 'date')
          if (!p.dateOfBirth) fail('dateOfBirth', 'passengerRequired')
          else if (!DATE.test(p.dateOfBirth)) fail('dateOfBirth', 'date')
          else if (p.dateOfBirth > today) fail('dateOfBirth', 'birthFuture')
          else if (firstBoardingDay && !fitsType(p.passengerType, p.dateOfBirth, firstBoardingDay))
            fail('dateOfBirth', p.passengerType === 'infant' ? 'infantAge' : 'twoAndOver')
        })
      }),
  })
export type CouponForm = z.infer<ReturnType<typeof couponSchema>>
