/**
 * The points search form's fields and first values, without its rules
 * (schemas.ts searchSchema, zod): the page loads those on the form's first
 * validation, not with the page (docs/speed.md).
 */
export interface SearchForm {
  currencyCode: string
  expireDate: string
  travelExpireDate: string
  hasBalance: boolean
  isOnlyActive: boolean
}

export const searchDefaults: SearchForm = { currencyCode: '', expireDate: '', travelExpireDate: '', hasBalance: true, isOnlyActive: true }
