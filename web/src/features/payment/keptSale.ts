import type { ProductFields, ProductType } from './api'

/**
 * The product fields of the last order a pass page sent to payment, kept in
 * the tab's session storage so that "Start again" after a declined or
 * expired payment (?again) shows the same choices instead of a blank form.
 * Payment data is never kept: only the product's own fields.
 */
const PREFIX = 'sale-fields:'
const key = (productType: ProductType) => PREFIX + productType

export function keepSale<P extends ProductType>(productType: P, fields: ProductFields<P>): void {
  try {
    globalThis.sessionStorage?.setItem(key(productType), JSON.stringify(fields))
  } catch {
    // private mode: "Start again" shows an empty form
  }
}

/** The kept fields when the address asks for them (?again), else null. */
export function keptSale<P extends ProductType>(productType: P, search: string): Partial<ProductFields<P>> | null {
  if (!new URLSearchParams(search).has('again')) return null
  try {
    const v: unknown = JSON.parse(globalThis.sessionStorage?.getItem(key(productType)) ?? 'null')
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Partial<ProductFields<P>>) : null
  } catch {
    return null
  }
}
