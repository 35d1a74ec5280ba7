import '../payment.css'
import { useParams } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { useLang, useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { formatDate, formatDateTime, formatMoney } from '@/i18n/format'
import type { Lang } from '@/i18n/languages'
import { processMissing, processQuery, secretKey } from '../api'
import { PaymentSteps } from '../components/PaymentSteps'
import { OrderSummary } from '../components/OrderSummary'
import { keptPath, startPath } from '../startPaths'
import { PageHeader } from '@/components/PageHeader'
import { PaymentPageNotice, usePaymentTitle } from '../components/PaymentPageNotice'

function entries(v: unknown): [string, string][] {
  if (typeof v !== 'object' || v === null) return []
  return Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== null && typeof x !== 'object').map(([k, x]) => [k, String(x)])
}

/** A goods value as the pages write it: dates in the language's form (never ISO), amounts with their currency. */
function goodsValue(key: string, v: string, currency: string, lang: Lang): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return formatDate(v, lang)
  if (/^\d{4}-\d{2}-\d{2}T/.test(v)) return formatDateTime(v, lang)
  if (/(Amount|Price)$/.test(key) && currency && /^-?\d+$/.test(v)) return formatMoney(Number(v), currency, lang)
  return v
}

/**
 * The goods' scalar fields that have a label in this feature's catalogue
 * (goods.<key>): dates in the language's form, amounts in the goods' currency.
 */
/** The goods' values a member reads out or types (a voucher's number, a pass code, an amount): never broken. */
const NUMBER_KEYS = new Set(['pin', 'pointNumber', 'code', 'issuedCurrencyAmount', 'effectiveDate', 'expireDate'])

function useGoodsRows(goods: unknown): [string, string, boolean][] {
  const { t, i18n } = useTranslation('payment')
  const lang = useLang()
  const currency = typeof goods === 'object' && goods !== null ? String((goods as Record<string, unknown>).currencyCode ?? '') : ''
  return entries(goods)
    .filter(([k]) => i18n.exists(`payment:goods.${k}`))
    .map(([k, v]) => [t(`goods.${k}`), goodsValue(k, v, currency, lang), NUMBER_KEYS.has(k)])
}

/** /payment/:productType/:processId/completed: "payment completed" with the goods (and the secret, once). */
export default function PaymentCompletedPage() {
  const { productType = '', processId = '' } = useParams()
  const { t } = useTranslation('payment')
  const process = useQuery(processQuery(processId))
  // kept by whichever status answer carried it (see processQuery)
  const secret = useQuery({ queryKey: secretKey(processId), queryFn: () => null, enabled: false, staleTime: Infinity }).data as
    | Record<string, unknown>
    | null
    | undefined
  const p = process.data
  const goodsRows = useGoodsRows(p?.goods)
  const title = usePaymentTitle(productType)
  if (processMissing(process))
    return (
      <PaymentPageNotice productType={productType} warn>
        {t('errors.notFound')}
      </PaymentPageNotice>
    )
  if (!p) return <PaymentPageNotice productType={productType}>{t('loading')}</PaymentPageNotice>
  const kept = keptPath(productType)
  return (
    <div className="page payment-page">
      <PageHeader title={title} />
      <PaymentSteps current={3} />
      <div className="payment-done" role="status">
        <span className="payment-done__icon" aria-hidden="true">✓</span>
        <h2>{t('completed.title')}</h2>
        <p>{t('completed.text')}</p>
      </div>
      <OrderSummary process={p} />
      {goodsRows.length > 0 && (
        <dl className="order-summary goods">
          {goodsRows.map(([k, v, number]) => <div key={k}><dt>{k}</dt><dd className={number ? 'pay-number' : undefined}>{v}</dd></div>)}
        </dl>
      )}
      {entries(secret).length > 0 && (
        <div className="secret">
          <p className="secret__note">{t('completed.secretNote')}</p>
          <dl className="order-summary">
            {entries(secret).map(([k, v]) => <div key={k}><dt>{t(`goods.${k}`, { defaultValue: k })}</dt><dd className="secret__value pay-number">{v}</dd></div>)}
          </dl>
        </div>
      )}
      <div className="payment-page__actions">
        {kept && <AppLink to={kept} className="button button--primary">{t('completed.myPasses')}</AppLink>}
        <AppLink to={startPath(productType)} className={kept ? 'button button--secondary' : 'button button--primary'}>{t('completed.back')}</AppLink>
        <AppLink to="/" className="button button--secondary">{t('completed.home')}</AppLink>
      </div>
    </div>
  )
}
