import { PaymentPanel, type ProductFields } from '@/features/payment'

export interface PurchaseSlotProps<P extends 'gogo_pass' | 'coupon_ticket'> {
  productType: P
  currency: string
  amount: number
  productFields: ProductFields<P>
  onValidationErrors?: (errors: Record<string, string[]>) => void
}

/**
 * The hand-over to the payment feature: the pass pages collect and check
 * the product fields, the PaymentPanel takes the payment method and makes
 * the tentative order (…/buy/validate, …/buy), then the payment pages.
 */
export function PurchaseSlot<P extends 'gogo_pass' | 'coupon_ticket'>({ productType, currency, amount, productFields, onValidationErrors }: PurchaseSlotProps<P>) {
  return <PaymentPanel productType={productType} currency={currency} amount={amount} productFields={productFields} onValidationErrors={onValidationErrors} />
}
