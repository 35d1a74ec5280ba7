import { useEffect, useMemo, useState } from 'react'
import { useLocation } from 'react-router'
import { useForm, useWatch } from 'react-hook-form'
import { lazyResolver } from '@/components/lazyResolver'
import { useLang, useTranslation } from '@/i18n/translation'
import { applyValidationErrors } from '@/components/serverValidation'
import { Field } from '@/components/Field'
import { SelectField } from '@/components/SelectField'
import { formatMoney } from '@/i18n/format'
import { useModals } from '@/app/modals/modalContext'
import { keptSale, PaymentPanel, PendingPaymentsNotice, SentOrderCheck, useReturnToSentOrder } from '@/features/payment'
import { useSalePreapply } from '../api'
import { CURRENCIES } from '../rules'
import type { SaleForm, SaleInput } from '../schemas'
import { PointsNav } from '../components/PointsNav'
import '../points.css'
import { PageHeader } from '@/components/PageHeader'
import { useSession } from '@/app/session/SessionProvider'

/** The last order sent to payment (the payment panel keeps it), for "Start again" after a failed payment (?again). */
function savedForm(search: string): SaleInput | null {
  const v = keptSale('peachpoints', search)
  return v && typeof v.nominee === 'string' && typeof v.currencyCode === 'string' && typeof v.amount === 'number'
    ? { nominee: v.nominee, currencyCode: v.currencyCode, amount: String(v.amount) }
    : null
}

/** The member's name as a nominee: Latin letters only (the rule of the field), else nothing. */
export function nomineeOf(user: { firstname?: string; lastname?: string } | null | undefined): string {
  const name = `${user?.firstname ?? ''} ${user?.lastname ?? ''}`.trim().replace(/\s+/g, ' ')
  return /^[A-Za-z][A-Za-z .'-]*$/.test(name) ? name.toUpperCase() : ''
}

/**
 * Points sale: nominee (the member's own name to start with), currency unit and amount, checked here and by the
 * server, then the payment (the payment feature's panel: method, validate,
 * tentative order, the gateway's steps, the result with number and PIN).
 */
export default function PointsSalePage() {
  // Back from a payment this page sent: that payment's result, not a blank form
  const returning = useReturnToSentOrder()
  const { t } = useTranslation('points')
  const lang = useLang()
  const modals = useModals()
  // The checks before the form: what is on sale, or a pending payment's block.
  const options = useSalePreapply()
  const blocked = options.data?.blocked === true
  const amounts = useMemo(
    () => Object.fromEntries((options.data?.currencies ?? []).map((c) => [c.currencyCode, c.amounts])) as Record<string, number[]>,
    [options.data],
  )
  // zod and the rules load on the form's first validation, not with the page (docs/speed.md)
  const resolver = useMemo(
    () =>
      lazyResolver<SaleInput, unknown, SaleForm>(() =>
        Promise.all([import('../schemas'), import('@hookform/resolvers/zod')]).then(([s, { zodResolver }]) => zodResolver(s.saleSchema(t, amounts))),
      ),
    [t, amounts],
  )
  const [ready, setReady] = useState<SaleForm | null>(null)
  const { user } = useSession()
  const location = useLocation()
  const [restored] = useState(() => savedForm(location.search))
  const {
    register,
    handleSubmit,
    setError,
    control,
    setValue,
    formState: { errors },
    getValues,
  } = useForm<SaleInput, unknown, SaleForm>({
    resolver,
    defaultValues: restored ?? { nominee: nomineeOf(user), currencyCode: lang === 'jp' ? 'JPY' : '', amount: '' },
  })
  // the session's user may come after the first render: fill an untouched nominee then
  useEffect(() => {
    if (!restored && getValues('nominee') === '' && nomineeOf(user)) setValue('nominee', nomineeOf(user))
  }, [user, restored, getValues, setValue])
  // the amounts come with the options: pick the kept one again once they are there
  useEffect(() => {
    if (restored && options.data) setValue('amount', restored.amount)
  }, [restored, options.data, setValue])
  const currency = useWatch({ control, name: 'currencyCode' })
  const labels = { nominee: t('sale.nominee'), currencyCode: t('sale.currency'), amount: t('sale.amount') }
  const onNext = handleSubmit(
    (form) => {
      setReady(form)
    },
    (errs) => modals.openValidationErrors(Object.fromEntries(Object.entries(errs).map(([k, e]) => [k, [e?.message ?? '']])), labels),
  )
  if (returning) return <SentOrderCheck title={t('sale.title')} />
  return (
    <div className="page points">
      <PageHeader title={t('sale.title')} />
      <PointsNav />
      <section className="card points-narrow" aria-labelledby="sale-form-title">
        <h2 id="sale-form-title">{t('sale.heading')}</h2>
        <p>{t('sale.intro')}</p>
        {blocked && <PendingPaymentsNotice blocked />}
        <form className="form" noValidate aria-label={t('sale.heading')} onSubmit={(e) => void onNext(e)}>
          <fieldset className="points-sale__fields" disabled={ready !== null || blocked}>
            <Field label={labels.nominee} hint={t('sale.nomineeHint')} required registration={register('nominee')} error={errors.nominee} maxLength={100} autoComplete="name" />
            <SelectField id="sale-currency" label={labels.currencyCode} required registration={register('currencyCode', { onChange: () => setValue('amount', '') })}
              error={errors.currencyCode} placeholder={t('sale.choose')} options={CURRENCIES.map((c) => ({ value: c, label: c }))} />
            <SelectField id="sale-amount" label={labels.amount} required registration={register('amount')} error={errors.amount} placeholder={t('sale.choose')}
              options={(amounts[currency] ?? []).map((a) => ({ value: String(a), label: formatMoney(a, currency, lang) }))} />
          </fieldset>
          {ready ? (
            <button type="button" className="button" onClick={() => setReady(null)}>
              {t('sale.change')}
            </button>
          ) : (
            <button type="submit" className="button button--primary" disabled={blocked}>
              {t('sale.next')}
            </button>
          )}
        </form>
      </section>
      {ready && (
        <div className="points-narrow">
          <PaymentPanel
            productType="peachpoints"
            currency={ready.currencyCode}
            amount={ready.amount}
            productFields={ready}
            onValidationErrors={(e) => {
              setReady(null)
              applyValidationErrors(setError, e, ['nominee', 'currencyCode', 'amount'])
            }}
          />
        </div>
      )}
    </div>
  )
}
