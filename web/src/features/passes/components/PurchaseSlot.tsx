import { PaymentPanel } from '@/features/payment'

export interface PurchaseSlotProps {
  productType: 'gogo_pass' | 'coupon_ticket'
  currency: string
  amount: number
  productFields: Record<string, unknown>
  onValidationErrors?: (errors: Record<string, string[]>) => void
}

/**
 * The hand-over to the payment feature: the pass pages collect and check
 * the product fields, the PaymentPanel takes the payment method and makes
 * the tentative order (…/buy/validate, …/buy), then the payment pages.
 */
export function PurchaseSlot({ productType, currency, amount, productFields, onValidationErrors }: PurchaseSlotProps) {
  return <PaymentPanel productType={productType} currency={currency} amount={amount} productFields={productFields} onValidationErrors={onValidationErrors} />
}
