/**
 * The pass rules mirrored on the client (the server checks them all again):
 * Japan-time dates, the maintenance window, the coupon age classes, the
 * refund fee (the forms' zod schemas are in schemas.ts, loaded with the
 * pages that have those forms).
 */
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

export type Msg = (key: string, values?: Record<string, unknown>) => string

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
