/** Where each product's purchase starts (the "try again" and "back" links). */
const START: Record<string, string> = { peachpoints: '/points', gogo_pass: '/gogo-pass', coupon_ticket: '/coupon-pass' }
export function startPath(productType: string): string {
  return START[productType] ?? '/'
}
