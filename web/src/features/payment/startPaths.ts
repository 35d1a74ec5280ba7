/** Where each product's purchase starts (the "try again" and "back" links). */
const START: Record<string, string> = { peachpoints: '/points', gogo_pass: '/gogo-pass', coupon_ticket: '/coupon-pass' }
export function startPath(productType: string): string {
  return START[productType] ?? '/'
}

/** Where "Start again" after a failed or expired payment leads: the product's form with its inputs kept (?again). */
const RETRY: Record<string, string> = { peachpoints: '/points/sale?again=1', gogo_pass: '/gogo-pass?again=1', coupon_ticket: '/coupon-pass?again=1' }
export function retryPath(productType: string): string {
  return RETRY[productType] ?? startPath(productType)
}

/** Where a product's goods are kept once paid: the passes in My passes (the result page links there). */
const KEPT: Record<string, string> = { gogo_pass: '/my-passes', coupon_ticket: '/my-passes' }
export function keptPath(productType: string): string | undefined {
  return KEPT[productType]
}
