import '../passes.css'
import { useMemo, useState } from 'react'
import { useFieldArray, useForm, useWatch } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useLang, useTranslation } from '@/i18n/translation'
import { formatMoney, formatPersonName, pluralKey } from '@/i18n/format'
import { couponTermsUrl } from '@/app/externalLinks'
import { usePassStatus } from '@/api/platform'
import { ApiError } from '@/api/errors'
import { useModals } from '@/app/modals/modalContext'
import { applyValidationErrors } from '@/components/serverValidation'
import { useSession } from '@/app/session/SessionProvider'
import { useCountries, useCouponProducts, usePrepareCoupon, useSavedPassengers, type CouponPassenger, type CouponTicketQuote } from '../api'
import { COUPON_REFUND_FEE_PER_ITEM, couponTotal, emptyPassenger, MAX_ADDITIONAL_PASSENGERS, todayJST } from '../rules'
import { couponSchema, type CouponForm } from '../schemas'
import { PassengerFields } from '../components/PassengerFields'
import { PurchaseSlot } from '../components/PurchaseSlot'
import { DateRangeText, Money, PassNav } from '../components/common'
import { PageHeader } from '@/components/PageHeader'
import { PendingPaymentsNotice, SentOrderCheck, keptSale, usePendingPayment, useReturnToSentOrder } from '@/features/payment'
import { useLocation } from 'react-router'

function newRequestId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`
}

/** Discovery coupon pass purchase: product, period and plan, passengers, terms, total; then payment. */
export default function CouponPassPage() {
  // Back from a payment this page sent: that payment's result, not a blank form
  const returning = useReturnToSentOrder()
  const { t } = useTranslation('passes')
  const lang = useLang()
  const status = usePassStatus()
  const { user } = useSession()
  const products = useCouponProducts(status.isCouponTicketPublic)
  const countries = useCountries()
  const saved = useSavedPassengers()
  const [periodError, setPeriodError] = useState<string | null>(null)
  const prepare = usePrepareCoupon()
  const waiting = usePendingPayment()
  const modals = useModals()
  const [ticket, setTicket] = useState<CouponTicketQuote | null>(null)
  const [requestId] = useState(newRequestId)
  const list = products.data ?? []
  // "Start again" after a declined payment (?again): the product, period, fare and passengers sent last
  const location = useLocation()
  const [kept] = useState(() => keptSale('coupon_ticket', location.search))
  const [productId, setProductId] = useState(kept?.productId ?? '')
  const product = list.find((p) => p.id === productId) ?? list[0]
  const [periodId, setPeriodId] = useState(kept?.periodId ?? '')
  const period = product?.periods.find((p) => p.id === periodId) ?? product?.periods[0]
  const today = todayJST()
  const first = period?.availablePeriodToBoard.begin ?? ''
  const msg = (k: string, v?: Record<string, unknown>) => t(`errors.${k}`, v)
  // a product whose trips cross a border asks passport and entry details; a domestic one does not
  const international = product?.international ?? true
  const schema = useMemo(() => couponSchema(msg, first, today, international), [first, today, international]) // eslint-disable-line react-hooks/exhaustive-deps
  const form = useForm<CouponForm>({
    resolver: zodResolver(schema),
    defaultValues: {
      fareType: kept?.fareType === 'lite' ? 'lite' : 'standard',
      agreeTerms: kept?.agreeTerms === true,
      additionalPassengers: (kept?.additionalPassengers ?? []) as CouponForm['additionalPassengers'],
    },
  })
  const passengers = useFieldArray({ control: form.control, name: 'additionalPassengers' })
  const fareType = useWatch({ control: form.control, name: 'fareType' })
  const types = (useWatch({ control: form.control, name: 'additionalPassengers' }) ?? []).map((p) => p.passengerType)
  const plan = period?.plan[fareType]
  const total = plan ? couponTotal(plan.pricePerPerson, types) : null
  // The member's birth date is checked by the server (the shell's user has none).
  const purchaserAdult = true

  const onSubmit = form.handleSubmit((v) => {
    setTicket(null)
    setPeriodError(null)
    prepare.mutate(
      { ...v, additionalPassengers: v.additionalPassengers as CouponPassenger[], productId: product?.id ?? '', periodId: period?.id ?? '', requestId },
      {
        onSuccess: setTicket,
        onError: (e) => {
          if (e instanceof ApiError && 'validationErrors' in e) {
            const ve = (e as ApiError & { validationErrors: Record<string, string[]> }).validationErrors
            const names = Object.keys(ve).filter((k) => k.startsWith('additionalPassengers.') || k === 'agreeTerms' || k === 'fareType')
            applyValidationErrors(form.setError, ve, names as never[])
            // a period no longer on sale is the period picker's error, shown under it
            const { periodId: periodMessages, ...rest } = ve
            if (periodMessages?.[0]) setPeriodError(periodMessages[0])
            if (Object.keys(rest).length > 0) modals.openValidationErrors(rest, { purchaser: t('coupon.purchaser'), agreeTerms: t('coupon.terms') })
            else document.getElementById('coupon-period')?.focus()
            return
          }
          modals.openError({ error: e })
        },
      },
    )
  })

  if (returning) return <SentOrderCheck title={t('coupon.title')} />
  return (
    <div className="page passes">
      <PageHeader title={t('coupon.title')} />
      <p className="pass-lead">{t('coupon.lead')}</p>
      <PassNav />
      {/* a payment still waiting blocks a new purchase: say so before the passengers are filled in, not after */}
      {status.isCouponTicketPublic && waiting.data?.pending === true && <PendingPaymentsNotice blocked />}
      {!status.isCouponTicketPublic ? (
        <p className="card">{t('coupon.notPublic')}</p>
      ) : products.isLoading ? (
        <p>{t('loading')}</p>
      ) : products.isError ? (
        <p className="form__error">{t('loadError')}</p>
      ) : !product || !period ? (
        <p className="card">{t('coupon.none')}</p>
      ) : (
        <form className="form coupon-form" onSubmit={onSubmit} noValidate aria-label={t('coupon.title')}>
          <section className="card" aria-labelledby="coupon-product">
            <h2 id="coupon-product">{t('coupon.choose')}</h2>
            <div className="coupon-choice">
              <label className="field">
                <span className="field__label">{t('coupon.product')}</span>
                <select className="field__input" value={product.id} onChange={(e) => { setProductId(e.target.value); setPeriodId(''); setTicket(null); setPeriodError(null) }}>
                  {list.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
                </select>
              </label>
              <div className={`field ${periodError ? 'field--invalid' : ''}`}>
                <label className="field__label" htmlFor="coupon-period">{t('coupon.period')}</label>
                <select id="coupon-period" className="field__input" value={period.id} aria-invalid={periodError ? true : undefined}
                  aria-describedby={periodError ? 'coupon-period-error' : undefined}
                  onChange={(e) => { setPeriodId(e.target.value); setTicket(null); setPeriodError(null) }}>
                  {product.periods.map((p) => <option key={p.id} value={p.id}>{p.description}</option>)}
                </select>
                {periodError && <p id="coupon-period-error" className="field__error" role="alert">{periodError}</p>}
              </div>
            </div>
            <p className="pass-muted">{product.description}</p>
            <dl className="pass-facts">
              <dt>{t('plan.board')}</dt>
              <dd><DateRangeText range={period.availablePeriodToBoard} /></dd>
              <dt>{t('plan.book')}</dt>
              <dd><DateRangeText range={period.availablePeriodToBook} /></dd>
            </dl>
            <div className="fares fares--plans" role="radiogroup" aria-label={t('coupon.plan')}>
              {(['lite', 'standard'] as const).map((k) => (
                <label key={k} className={`fare ${fareType === k ? 'fare--chosen' : ''}`}>
                  <input type="radio" value={k} {...form.register('fareType')} onClick={() => setTicket(null)} />
                  <span className="fare__name">{t(`plan.${k}`)}</span>
                  <span className="fare__price fare__price--per">
                    <span className="nowrap"><Money amount={period.plan[k].pricePerPerson} currency={period.plan[k].currencyCode} /></span> <span className="fare__per">{t('coupon.perPerson')}</span>
                  </span>
                  <span className="pass-muted">{t(pluralKey('coupon.days', period.plan[k].availableDaysAfterFirstUse, lang), { n: period.plan[k].availableDaysAfterFirstUse })} · {t(pluralKey('coupon.uses', period.plan[k].availableNumberOfUse, lang), { n: period.plan[k].availableNumberOfUse })}</span>
                </label>
              ))}
            </div>
          </section>

          <section className="card" aria-labelledby="coupon-passengers">
            <h2 id="coupon-passengers">{t('coupon.passengers')}</h2>
            <p>
              {t('passenger.title', { position: 1 })}: <strong>{formatPersonName(user?.firstname, user?.lastname, lang)}</strong> ({t('coupon.purchaser')})
            </p>
            {!purchaserAdult && <p className="field__error" role="alert">{t('errors.purchaserAdult')}</p>}
            <p className="pass-muted">{t('coupon.ageRule')}</p>
            {passengers.fields.map((f, i) => (
              <PassengerFields key={f.id} form={form} index={i} countries={countries.data ?? []} international={international}
                saved={saved.data ?? []} onRemove={() => { passengers.remove(i); setTicket(null) }} />
            ))}
            {passengers.fields.length < MAX_ADDITIONAL_PASSENGERS && (
              <button type="button" className="button button--secondary" onClick={() => { passengers.append(emptyPassenger()); setTicket(null) }}>
                {t('coupon.addPassenger')}
              </button>
            )}
          </section>

          <section className="card" aria-labelledby="coupon-total">
            <h2 id="coupon-total">{t('coupon.summary')}</h2>
            {total && plan && (
              <dl className="pass-facts">
                <dt>{t('coupon.count')}</dt>
                <dd>{t(pluralKey('coupon.people', total.count, lang), { n: total.count })}</dd>
                <dt>{t('coupon.total')}</dt>
                <dd className="pass-total"><strong><Money amount={total.total} currency={plan.currencyCode} /></strong></dd>
              </dl>
            )}
            <label className={`checkbox ${form.formState.errors.agreeTerms ? 'field--invalid' : ''}`}>
              <input type="checkbox" {...form.register('agreeTerms')} aria-describedby="coupon-refund-note" onClick={() => setTicket(null)} /> {t('coupon.terms')}
            </label>
            {/* what a refund costs, and the terms, where the member agrees to them (not only on the confirm page) */}
            <p id="coupon-refund-note" className="pass-muted coupon-refund-note">
              {t(pluralKey('coupon.refundNote', total?.items ?? 1, lang), {
                fee: formatMoney(COUPON_REFUND_FEE_PER_ITEM, 'JPY', lang),
                n: total?.items ?? 1,
                total: formatMoney(COUPON_REFUND_FEE_PER_ITEM * (total?.items ?? 1), 'JPY', lang),
              })}{' '}
              <a href={couponTermsUrl(lang)} target="_blank" rel="noopener noreferrer">{t('coupon.termsLink')}</a>
            </p>
            {form.formState.errors.agreeTerms && <p className="field__error" role="alert">{form.formState.errors.agreeTerms.message}</p>}
            <button type="submit" className="button button--primary" disabled={prepare.isPending || !purchaserAdult}>{t('coupon.toPayment')}</button>
          </section>
        </form>
      )}
      {ticket && (
        <>
          <section className="card pass-summary" aria-labelledby="coupon-ticket">
            <h2 id="coupon-ticket">{t('coupon.ready')}</h2>
            <p>{ticket.name} · {t(`plan.${ticket.fareType}`)} · <DateRangeText range={ticket.period.availablePeriodToBoard} /></p>
            <p className="pass-total">
              {t(pluralKey('coupon.people', ticket.totalPassengersCount, lang), { n: ticket.totalPassengersCount })} · <strong><Money amount={ticket.totalPrice} currency={ticket.currencyCode} /></strong>
            </p>
          </section>
          <PurchaseSlot productType="coupon_ticket" currency={ticket.currencyCode} amount={ticket.totalPrice}
            productFields={{ productId: ticket.productId, periodId: ticket.periodId, fareType: ticket.fareType, additionalPassengers: ticket.additionalPassengers, agreeTerms: true }} />
        </>
      )}
    </div>
  )
}
