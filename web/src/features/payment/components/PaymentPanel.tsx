import '../payment.css'
import { useCallback, useMemo, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { lazyResolver } from '@/components/lazyResolver'
import { useLang, useTranslation } from '@/i18n/translation'
import { useModals } from '@/app/modals/modalContext'
import { useAppNavigate } from '@/app/routing/useAppNavigate'
import { AppLink } from '@/app/routing/AppLink'
import { ApiError, SessionTimedOutError, ValidationError, isPassMaintenance, type ValidationErrors } from '@/api/errors'
import { formatMoney } from '@/i18n/format'
import { PENDING_PATH, PendingPaymentsNotice } from './PendingPayments'
import { purchaseBody, useAvailability, useBuy, useCards, usePendingPayment, useValidatePurchase, type PaymentFields, type ProductFields, type ProductType, type SavedCard } from '../api'
import { cardServes, heldElsewhere, sortByBrand } from '../rules'
import type { CardForm, StripeCardForm } from '../schemas'
import { loadCardRules } from '../cardRules'
import { TokenizeError, tokenizeCard } from '../gateway'
import { StripeCardFields } from '../stripe/StripeCardFields'
import { StripeCardError, type StripeCard } from '../stripe/stripeCard'
import { CardFields } from './CardFields'
import { CardSummary } from './CardSummary'
import { PaymentMethodChooser, type Method } from './PaymentMethodChooser'
import { PaymentSteps } from './PaymentSteps'
import { useDeleteCardFlow } from './cardModals'
import { useRecordSentOrder } from './sentOrder'
import { keepSale } from '../keptSale'

export interface PaymentPanelProps<P extends ProductType> {
  /** The product's API name. */
  productType: P
  /** The purchase currency (JPY, KRW…): it picks the cards and methods offered. */
  currency: string
  /** The amount shown, in minor units (the server prices the order itself). */
  amount: number
  /** The product's purchase fields (points: nominee, currencyCode, amount; pass: planId, periodId, fareType…). */
  productFields: ProductFields<P>
  /** Field errors of the product's fields from the server (400), for the product's form. */
  onValidationErrors?: (errors: ValidationErrors) => void
  /** Disables the confirm button (e.g. the product's form is not ready). */
  disabled?: boolean
}

const PAYMENT_FIELDS = ['paymentMethod', 'creditCardToken', 'creditCardGateway', 'saveCard', 'otherPaymentType', 'requestId']

function newRequestId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`
}

/**
 * Step 1 of a purchase: the payment method (saved card, new card,
 * other payment types, convenience store), validate and the tentative
 * order (buy), then the prepared page at /payment/<productType>/<id>.
 * The card number goes to the gateway from the browser; /api sees a token
 * (in Stripe mode, typed into Stripe's own field: a PaymentMethod id).
 * Cards saved with another gateway than the configured one are not offered.
 */
export function PaymentPanel<P extends ProductType>({ productType, currency, amount, productFields, onValidationErrors, disabled }: PaymentPanelProps<P>) {
  const { t } = useTranslation('payment')
  const lang = useLang()
  const go = useAppNavigate()
  const modals = useModals()
  const cards = useCards()
  const availability = useAvailability(currency, productType)
  const pending = usePendingPayment()
  const validate = useValidatePurchase(productType)
  const buy = useBuy(productType)
  const deleteFlow = useDeleteCardFlow()
  const recordSentOrder = useRecordSentOrder()
  // one requestId per order: a retry of the same order answers the same process
  const [requestId, setRequestId] = useState(newRequestId)
  const [chosen, setChosen] = useState<Method | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  // a pass period the member holds already: the refusal leads to My passes;
  // one with a payment waiting (a slip not paid yet): to Pending payments
  const [held, setHeld] = useState(false)
  const [waiting, setWaiting] = useState(false)
  const [paymentErrors, setPaymentErrors] = useState<string[]>([])
  const [busy, setBusy] = useState(false)
  // Stripe mode: whether Stripe's card field could be loaded (null: not known yet)
  const [cardEntry, setCardEntry] = useState<boolean | null>(null)
  const msg = useCallback((key: string) => t(`card.errors.${key}`), [t])
  // zod and the card rules load on the form's first validation, not with the page (docs/speed.md)
  const resolver = useMemo(() => lazyResolver<CardForm>(() => loadCardRules().then(({ card }) => card(msg))), [msg])
  const form = useForm<CardForm>({
    resolver,
    defaultValues: { cardNumber: '', expirationDate: '', cvv: '', holderName: '', saveCard: false },
  })
  const stripeResolver = useMemo(() => lazyResolver<StripeCardForm>(() => loadCardRules().then(({ stripeCard }) => stripeCard(msg))), [msg])
  const stripeForm = useForm<StripeCardForm>({ resolver: stripeResolver, defaultValues: { holderName: '', saveCard: false } })
  const stripeCard = useRef<StripeCard | null>(null)
  const stripeKey = availability.data?.gateway === 'stripe' ? (availability.data.publishableKey ?? '') : null

  const usable = useMemo(() => sortByBrand((cards.data ?? []).filter((c) => !heldElsewhere(c) && cardServes(c.currency, currency))), [cards.data, currency])
  const method: Method = chosen ?? (usable.find((c) => c.isValid) ? { kind: 'saved', card: usable.find((c) => c.isValid) as SavedCard } : { kind: 'new' })
  const blocked = pending.data?.pending === true

  function openChooser() {
    if (!availability.data) return
    modals.open((close) => (
      <PaymentMethodChooser current={method} cards={usable} availability={availability.data} onChoose={setChosen} onClose={close}
        onExpired={(card) => deleteFlow.expired(card, () => setChosen(null))} />
    ))
  }

  function paymentBody(token?: { token: string; gateway: string }, save?: boolean): PaymentFields {
    switch (method.kind) {
      case 'saved':
        return { paymentMethod: 'creditCard', creditCardToken: method.card.token, creditCardGateway: method.card.gateway }
      case 'new':
        return { paymentMethod: 'creditCard', creditCardToken: token?.token, creditCardGateway: token?.gateway, saveCard: save === true }
      case 'other':
        // one of the types the availability answer listed (a string there)
        return { paymentMethod: 'otherPayment', otherPaymentType: method.type as PaymentFields['otherPaymentType'] }
      case 'convenienceStore':
        return { paymentMethod: 'convenienceStore' }
    }
  }

  function showError(e: unknown) {
    if (e instanceof SessionTimedOutError) return
    if (e instanceof ValidationError) {
      const product: ValidationErrors = {}
      const mine: string[] = []
      for (const [k, v] of Object.entries(e.validationErrors)) {
        if (PAYMENT_FIELDS.includes(k)) mine.push(...v)
        else product[k] = v
      }
      setPaymentErrors(mine)
      if (Object.keys(product).length > 0) {
        if (onValidationErrors) onValidationErrors(product)
        else modals.openValidationErrors(product)
      }
      return
    }
    // A catalogued errorKey with a page of its own (a 500, as every
    // catalogued key): the pass sale went into maintenance meanwhile.
    if (isPassMaintenance(e)) {
      go('/gogo-pass/maintenance')
      return
    }
    if (e instanceof ApiError && e.status === 409 && e.serverMessage) {
      setMessage(e.serverMessage)
      setHeld(e.errorKey === 'gogopass_already_held')
      setWaiting(e.errorKey === 'payment_pending_same_goods')
      void pending.refetch()
      return
    }
    modals.openError({ error: e })
  }

  async function confirm(token?: { token: string; gateway: string }, save?: boolean) {
    setBusy(true)
    setMessage(null)
    setPaymentErrors([])
    try {
      const body = purchaseBody<P>(productFields, paymentBody(token, save))
      keepSale(productType, productFields)
      await validate.mutateAsync(body)
      let p
      try {
        p = await buy.mutateAsync({ ...body, requestId })
      } catch (e) {
        // the same requestId was used for another order (the member changed
        // the purchase after a failed attempt): a new id is a new order
        if (e instanceof ApiError && e.errorKey === 'payment_processing_error') {
          const fresh = newRequestId()
          setRequestId(fresh)
          p = await buy.mutateAsync({ ...body, requestId: fresh })
        } else throw e
      }
      // Back to this page from the payment finds the order again
      recordSentOrder({ paymentProcessId: p.paymentProcessId, productType })
      go(`/payment/${productType}/${p.paymentProcessId}`)
    } catch (e) {
      showError(e)
    } finally {
      setBusy(false)
    }
  }

  const onNewCard = form.handleSubmit(async (v) => {
    setBusy(true)
    try {
      const tok = await tokenizeCard(v)
      await confirm(tok, v.saveCard)
    } catch (e) {
      if (e instanceof TokenizeError) {
        for (const [field, codes] of Object.entries(e.fields)) {
          if (field === 'cardNumber' || field === 'expirationDate' || field === 'cvv' || field === 'holderName') {
            form.setError(field, { type: 'gateway', message: msg(codes[0] ?? 'format') })
          }
        }
      } else modals.openError({ error: e })
    } finally {
      setBusy(false)
    }
  })

  // Stripe mode: Stripe makes a PaymentMethod of the typed card; its id goes as the token
  async function payWithStripeCard(v: StripeCardForm) {
    setBusy(true)
    setPaymentErrors([])
    try {
      if (!stripeCard.current) throw new StripeCardError('unavailable')
      const pm = await stripeCard.current.createPaymentMethod(v.holderName.trim())
      await confirm({ token: pm, gateway: 'stripe' }, v.saveCard)
    } catch (e) {
      // incomplete: Stripe's own message is under its field
      if (e instanceof StripeCardError) {
        if (e.code === 'unavailable') setPaymentErrors([t('stripe.unavailable')])
      } else modals.openError({ error: e })
    } finally {
      setBusy(false)
    }
  }

  function onConfirm() {
    if (method.kind !== 'new') void confirm()
    else if (stripeKey !== null) void stripeForm.handleSubmit(payWithStripeCard)()
    else void onNewCard()
  }

  const loading = cards.isLoading || availability.isLoading || pending.isLoading
  return (
    <section className="payment-panel" aria-labelledby="payment-panel-title">
      <PaymentSteps current={1} />
      <h2 id="payment-panel-title" className="payment-panel__title">{t('panel.title')}</h2>
      <p className="payment-panel__amount">
        <span>{t('panel.total')}</span> <strong>{formatMoney(amount, currency, lang)}</strong>
      </p>
      {blocked && <PendingPaymentsNotice blocked />}
      {message && !blocked && (
        <p className="pay-notice pay-notice--warn" role="alert">
          {message}{held && <> <AppLink to="/my-passes">{t('panel.myPasses')}</AppLink></>}
          {waiting && <> <AppLink to={PENDING_PATH}>{t('pendingPage.open')}</AppLink></>}
        </p>
      )}
      {loading ? (
        <p role="status">{t('loading')}</p>
      ) : cards.isError || availability.isError ? (
        <p className="pay-notice pay-notice--warn" role="alert">{t('errors.load')}</p>
      ) : (
        <div className="payment-panel__method">
          <div className="payment-panel__method-head">
            <h3>{t('panel.method')}</h3>
            <button type="button" className="button button--secondary" onClick={openChooser}>{t('panel.change')}</button>
          </div>
          <div className="payment-panel__current" data-testid="current-method">
            {method.kind === 'saved' && <CardSummary card={method.card} />}
            {method.kind === 'new' && <span>{t('chooser.newCard')}</span>}
            {method.kind === 'other' && <span>{t('methods.otherPayment')}: {t(`otherTypes.${method.type}`)}</span>}
            {method.kind === 'convenienceStore' && <span>{t('methods.convenienceStore')}</span>}
          </div>
          {method.kind === 'new' && (stripeKey !== null
            ? <StripeCardFields publishableKey={stripeKey} cardRef={stripeCard} register={stripeForm.register} errors={stripeForm.formState.errors} showSave
                onOtherMethods={openChooser} onAvailable={setCardEntry} />
            : <CardFields register={form.register} errors={form.formState.errors} showSave />)}
          {method.kind === 'new' && (stripeKey === null || cardEntry !== false) && <p className="field__hint">{stripeKey !== null ? t('stripe.cardSecurity') : t('panel.cardSecurity')}</p>}
          {paymentErrors.map((m) => <p key={m} className="field__error" role="alert">{m}</p>)}
        </div>
      )}
      <button type="button" className="button button--primary button--block payment-panel__confirm"
        disabled={busy || blocked || loading || disabled || (method.kind === 'new' && stripeKey !== null && cardEntry === false)}
        onClick={onConfirm}>
        {busy ? t('panel.working') : t('panel.confirm')}
      </button>
    </section>
  )
}
