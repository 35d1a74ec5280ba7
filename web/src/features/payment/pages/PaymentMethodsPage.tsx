import '../payment.css'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useSearchParams } from 'react-router'
import { useForm } from 'react-hook-form'
import { lazyResolver } from '@/components/lazyResolver'
import { useTranslation } from '@/i18n/translation'
import { useModals } from '@/app/modals/modalContext'
import { pageNavigation } from '@/app/pageNavigation'
import { ApiError, SessionTimedOutError, ValidationError } from '@/api/errors'
import { useCards, useRegisterCard } from '../api'
import { useCompleteCardSetup, useGateway } from '../gatewayApi'
import { heldElsewhere, sortByBrand } from '../rules'
import type { CardForm, StripeCardForm } from '../schemas'
import { loadCardRules } from '../cardRules'
import { TokenizeError, tokenizeCard } from '../gateway'
import { CardFields } from '../components/CardFields'
import { CardSummary } from '../components/CardSummary'
import { useDeleteCardFlow } from '../components/cardModals'
import { StripeCardFields } from '../stripe/StripeCardFields'
import { StripeCardError, type StripeCard } from '../stripe/stripeCard'
import { PageHeader } from '@/components/PageHeader'

/** How a registration ended, said at the top of the page (focus moves there). */
type Outcome =
  | { kind: 'registered'; mailSent: boolean }
  /** The card issuer or Stripe refused the card (the server's messages, in the member's language). */
  | { kind: 'refused'; messages: string[] }
  /** Back from the issuer's check, which has not answered yet. */
  | { kind: 'waiting'; setupId: string }
  | { kind: 'failed' }

/** The query parameters the return from a card check brings: ours (setup) and those Stripe adds. */
const SETUP_PARAMS = ['setup', 'setup_intent', 'setup_intent_client_secret', 'redirect_status']

/**
 * /payment-methods: the saved cards in brand order, register a card, delete
 * one. In Stripe mode the card is typed into Stripe's field; a card that
 * needs the issuer's check (3-D Secure) leaves for it and comes back here
 * with ?setup=<id>, which finishes the registration.
 */
export default function PaymentMethodsPage() {
  const { t } = useTranslation('payment')
  const cards = useCards()
  const deleteFlow = useDeleteCardFlow()
  const complete = useCompleteCardSetup()
  useGateway() // asked now, so the registration form opens at once
  const [params, setParams] = useSearchParams()
  const [adding, setAdding] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const list = sortByBrand(cards.data ?? [])
  const doneRef = useRef<HTMLDivElement>(null)
  // the form closes (or the page comes back from the card check) under the
  // member's eyes: bring the outcome into view and focus
  useEffect(() => {
    if (outcome === null || !doneRef.current) return
    doneRef.current.scrollIntoView?.({ block: 'center' })
    doneRef.current.focus()
  }, [outcome])

  const finishSetup = useCallback((setupId: string) => {
    complete.mutate(setupId, {
      onSuccess: (res) => setOutcome({ kind: 'registered', mailSent: res.mailSent === true }),
      onError: (e) => {
        if (e instanceof SessionTimedOutError) return
        if (e instanceof ValidationError) setOutcome({ kind: 'refused', messages: Object.values(e.validationErrors).flat() })
        else if (e instanceof ApiError && e.status === 409) setOutcome({ kind: 'waiting', setupId })
        else setOutcome({ kind: 'failed' })
      },
    })
  }, [complete])

  // back from the card check: finish once, and take the check's parameters
  // off the address (a reload must not send them again)
  const setupId = params.get('setup')
  const started = useRef<string | null>(null)
  useEffect(() => {
    if (!setupId || started.current === setupId) return
    started.current = setupId
    finishSetup(setupId)
    setParams((p) => {
      const next = new URLSearchParams(p)
      for (const k of SETUP_PARAMS) next.delete(k)
      return next
    }, { replace: true })
  }, [setupId, finishSetup, setParams])

  return (
    <div className="page payment-methods-page">
      <PageHeader title={t('methodsPage.title')} />
      <p className="payment-methods-page__intro">{t('methodsPage.intro')}</p>
      {complete.isPending && <p role="status" className="pay-notice">{t('stripe.finishing')}</p>}
      {outcome !== null && <OutcomeNotice outcome={outcome} innerRef={doneRef} onRetry={finishSetup} busy={complete.isPending} />}
      {cards.isLoading && <p role="status">{t('loading')}</p>}
      {cards.isError && !(cards.error instanceof SessionTimedOutError) && <p className="pay-notice pay-notice--warn" role="alert">{t('errors.load')}</p>}
      {cards.isSuccess && list.length === 0 && <p>{t('methodsPage.empty')}</p>}
      <ul className="saved-cards" aria-label={t('methodsPage.title')}>
        {list.map((card) => (
          <li key={card.token} className={`saved-card ${card.isValid ? '' : 'saved-card--expired'}`.trim()}>
            <CardSummary card={card} />
            <button type="button" className="button button--secondary saved-card__delete"
              aria-label={t('delete.named', { brand: t(`brands.${card.brand}`), last4: card.cardNumber.slice(-4) })}
              onClick={() => {
                // only the latest outcome is shown: a delete clears the last registration's notice
                setOutcome(null)
                if (card.isValid || heldElsewhere(card)) deleteFlow.confirm(card)
                else deleteFlow.expired(card)
              }}>
              {t('delete.button')}
            </button>
          </li>
        ))}
      </ul>
      {adding ? (
        <RegisterCard onDone={(o) => { setAdding(false); setOutcome(o) }} onCancel={() => setAdding(false)} />
      ) : (
        <button type="button" className="button button--primary" onClick={() => { setOutcome(null); setAdding(true) }}>{t('register.open')}</button>
      )}
    </div>
  )
}

function OutcomeNotice({ outcome, innerRef, onRetry, busy }: {
  outcome: Outcome; innerRef: React.Ref<HTMLDivElement>; onRetry: (setupId: string) => void; busy: boolean
}) {
  const { t } = useTranslation('payment')
  const ok = outcome.kind === 'registered'
  return (
    <div ref={innerRef} tabIndex={-1} role={ok ? 'status' : 'alert'} className={ok ? 'pay-notice pay-notice--ok' : 'pay-notice pay-notice--warn'} data-testid="register-outcome">
      {outcome.kind === 'registered' && <p>{outcome.mailSent ? t('register.done') : t('register.doneNoMail')}</p>}
      {outcome.kind === 'refused' && (
        <>
          <p>{t('stripe.refused')}</p>
          {outcome.messages.map((m) => <p key={m}>{m}</p>)}
          <p>{t('stripe.nothingCharged')}</p>
        </>
      )}
      {outcome.kind === 'waiting' && (
        <>
          <p>{t('stripe.waiting')}</p>
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => onRetry(outcome.setupId)}>{t('stripe.checkAgain')}</button>
        </>
      )}
      {outcome.kind === 'failed' && <p>{t('stripe.failed')} {t('stripe.nothingCharged')}</p>}
    </div>
  )
}

const CURRENCY_SCOPES = ['JPY', 'NON_JPY'] as const
type Scope = (typeof CURRENCY_SCOPES)[number]

interface RegisterProps {
  onDone: (outcome: Outcome) => void
  onCancel: () => void
}

/** The registration form of the configured gateway: the sandbox's card fields, or Stripe's. */
function RegisterCard(props: RegisterProps) {
  const { t } = useTranslation('payment')
  const gateway = useGateway()
  if (gateway.isLoading) return <p role="status">{t('loading')}</p>
  // not knowing the gateway, no form: the card would go to the wrong one
  if (!gateway.data) return <p className="pay-notice pay-notice--warn" role="alert">{t('errors.load')}</p>
  if (gateway.data.gateway === 'stripe') return <RegisterStripeCard {...props} publishableKey={gateway.data.publishableKey} />
  return <RegisterSandboxCard {...props} />
}

/** The end of either gateway's register form: the currency scope, what keeps the card safe (security), save and cancel. */
function ScopeAndSubmit({ scope, setScope, security, busy, onCancel }: {
  scope: Scope; setScope: (s: Scope) => void; security: string; busy: boolean; onCancel: () => void
}) {
  const { t } = useTranslation('payment')
  return (
    <>
      <fieldset className="register-card__scope">
        <legend>{t('register.scope')}</legend>
        {CURRENCY_SCOPES.map((s) => (
          <label key={s} className="radio">
            <input type="radio" name="scope" value={s} checked={scope === s} onChange={() => setScope(s)} /> {t(`scope.${s}`)}
          </label>
        ))}
        <p className="field__hint">{t('register.scopeHint')}</p>
      </fieldset>
      <p className="field__hint">{security}</p>
      <div className="register-card__actions">
        <button type="submit" className="button button--primary" disabled={busy}>{busy ? t('panel.working') : t('register.submit')}</button>
        <button type="button" className="button button--secondary" onClick={onCancel}>{t('cancel')}</button>
      </div>
    </>
  )
}

function RegisterSandboxCard({ onDone, onCancel }: RegisterProps) {
  const { t } = useTranslation('payment')
  const modals = useModals()
  const register = useRegisterCard()
  const [scope, setScope] = useState<Scope>('JPY')
  const [busy, setBusy] = useState(false)
  const msg = useCallback((key: string) => t(`card.errors.${key}`), [t])
  // zod and the card rules load on the form's first validation, not with the page (docs/speed.md)
  const resolver = useMemo(() => lazyResolver<CardForm>(() => loadCardRules().then(({ card }) => card(msg))), [msg])
  const form = useForm<CardForm>({
    resolver,
    defaultValues: { cardNumber: '', expirationDate: '', cvv: '', holderName: '', saveCard: true },
  })

  const submit = form.handleSubmit(async (v) => {
    setBusy(true)
    try {
      const tok = await tokenizeCard(v)
      const res = await register.mutateAsync({ token: tok.token, gateway: tok.gateway, currency: scope })
      onDone({ kind: 'registered', mailSent: res.mailSent === true })
    } catch (e) {
      if (e instanceof TokenizeError) {
        for (const [field, codes] of Object.entries(e.fields)) {
          if (field === 'cardNumber' || field === 'expirationDate' || field === 'cvv' || field === 'holderName') {
            form.setError(field, { type: 'gateway', message: msg(codes[0] ?? 'format') })
          }
        }
      } else if (e instanceof ValidationError) {
        modals.openValidationErrors(e.validationErrors, { token: t('card.number'), currency: t('register.scope') })
      } else if (!(e instanceof SessionTimedOutError)) modals.openError({ error: e })
    } finally {
      setBusy(false)
    }
  })

  return (
    <form className="register-card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="register-card-title">
      <h2 id="register-card-title">{t('register.title')}</h2>
      <CardFields register={form.register} errors={form.formState.errors} showSave={false} />
      <ScopeAndSubmit scope={scope} setScope={setScope} security={t('panel.cardSecurity')} busy={busy} onCancel={onCancel} />
    </form>
  )
}

/**
 * Stripe mode: Stripe makes a PaymentMethod from its card field; the server
 * checks it with a SetupIntent, which either saves the card, refuses it, or
 * asks for the issuer's check (a redirect that comes back with ?setup=).
 */
function RegisterStripeCard({ onDone, onCancel, publishableKey }: RegisterProps & { publishableKey: string }) {
  const { t } = useTranslation('payment')
  const modals = useModals()
  const register = useRegisterCard()
  const cardRef = useRef<StripeCard | null>(null)
  const [scope, setScope] = useState<Scope>('JPY')
  const [busy, setBusy] = useState(false)
  const [refusal, setRefusal] = useState<string[] | null>(null)
  const refusalRef = useRef<HTMLDivElement>(null)
  useEffect(() => { if (refusal) refusalRef.current?.focus() }, [refusal])
  const msg = useCallback((key: string) => t(`card.errors.${key}`), [t])
  const resolver = useMemo(() => lazyResolver<StripeCardForm>(() => loadCardRules().then(({ stripeCard }) => stripeCard(msg))), [msg])
  const form = useForm<StripeCardForm>({ resolver, defaultValues: { holderName: '', saveCard: true } })

  async function save(v: StripeCardForm) {
    setBusy(true)
    setRefusal(null)
    let leaving = false
    try {
      if (!cardRef.current) throw new StripeCardError('unavailable')
      const pm = await cardRef.current.createPaymentMethod(v.holderName.trim())
      const res = await register.mutateAsync({ token: pm, gateway: 'stripe', currency: scope })
      if (res.status === 'requires_action' && res.nextAction) {
        // the issuer's check (3-D Secure): Stripe sends the member back to /payment-methods?setup=<id>
        leaving = true
        pageNavigation.assign(res.nextAction.url)
        return
      }
      onDone({ kind: 'registered', mailSent: res.mailSent === true })
    } catch (e) {
      if (e instanceof StripeCardError) {
        // incomplete: Stripe's own message is under its field
        if (e.code === 'unavailable') setRefusal([t('stripe.unavailable')])
      } else if (e instanceof ValidationError) {
        setRefusal(Object.values(e.validationErrors).flat())
      } else if (!(e instanceof SessionTimedOutError)) modals.openError({ error: e })
    } finally {
      if (!leaving) setBusy(false)
    }
  }

  return (
    <form className="register-card" onSubmit={(e) => void form.handleSubmit(save)(e)} noValidate aria-labelledby="register-card-title">
      <h2 id="register-card-title">{t('register.title')}</h2>
      {refusal && (
        <div ref={refusalRef} tabIndex={-1} role="alert" className="pay-notice pay-notice--warn" data-testid="register-refusal">
          <p>{t('stripe.refused')}</p>
          {refusal.map((m) => <p key={m}>{m}</p>)}
          <p>{t('stripe.nothingCharged')}</p>
        </div>
      )}
      <StripeCardFields publishableKey={publishableKey} cardRef={cardRef} register={form.register} errors={form.formState.errors} showSave={false} />
      <ScopeAndSubmit scope={scope} setScope={setScope} security={t('stripe.cardSecurity')} busy={busy} onCancel={onCancel} />
    </form>
  )
}
