import { useTranslation } from '@/i18n/translation'
import { PageHeader } from '@/components/PageHeader'
import { isProductType } from '../api'

/** A payment page's title: the product bought, or "Payment" for an address naming none. */
export function usePaymentTitle(productType: string): string {
  const { t } = useTranslation('payment')
  return isProductType(productType) ? t(`products.${productType}`) : t('products.payment')
}

/**
 * A payment page while its order loads, or when the address names no
 * order: the page's title (heading and browser tab) above the notice, as
 * in every other state of the page.
 */
export function PaymentPageNotice({ productType, warn = false, children }: { productType: string; warn?: boolean; children: string }) {
  const title = usePaymentTitle(productType)
  return (
    <div className="page payment-page">
      <PageHeader title={title} />
      <p className={warn ? 'pay-notice pay-notice--warn' : undefined} role={warn ? 'alert' : 'status'}>
        {children}
      </p>
    </div>
  )
}
