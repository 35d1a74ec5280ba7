/**
 * The pass rules mirrored on the client (the server checks them all again):
 * Japan-time dates, the coupon age classes and prices (the forms' zod
 * schemas are in schemas.ts, loaded with the pages that have those forms).
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

/** Age in completed years on a day (both YYYY-MM-DD); 29 February birthdays count from 1 March. */
function ageOn(birth: string, day: string): number {
  const [by, bm, bd] = birth.split('-').map(Number)
  const [dy, dm, dd] = day.split('-').map(Number)
  let age = dy - by
  if (dm < bm || (dm === bm && dd < bd)) age--
  return age
}

const INFANT_UNDER = 2
type PassengerType = 'adult' | 'child' | 'infant'

/** Child and adult entries are 2 and over, infant entries under 2, on the first boarding day. */
export function fitsType(type: PassengerType, birth: string, firstBoardingDay: string): boolean {
  const age = ageOn(birth, firstBoardingDay)
  return type === 'infant' ? age < INFANT_UNDER : age >= INFANT_UNDER
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

/** The refund fee of a coupon pass, per paid item, in yen (the server's coupon.RefundFeePerItem). */
export const COUPON_REFUND_FEE_PER_ITEM = 9000
