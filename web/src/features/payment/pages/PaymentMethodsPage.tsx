import '../payment.css'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useTranslation } from '@/i18n/translation'
import { useModals } from '@/app/modals/modalContext'
import { SessionTimedOutError, ValidationError } from '@/api/errors'
import { useCards, useRegisterCard } from '../api'
import { sortByBrand } from '../rules'
import { cardSchema, type CardForm } from '../schemas'
import { TokenizeError, tokenizeCard } from '../gateway'
import { CardFields } from '../components/CardFields'
import { CardSummary } from '../components/CardSummary'
import { useDeleteCardFlow } from '../components/cardModals'
import { PageHeader } from '@/components/PageHeader'

/** /payment-methods: the saved cards in brand order, register a card, delete one. */
export default function PaymentMethodsPage() {
  const { t } = useTranslation('payment')
  const cards = useCards()
  const deleteFlow = useDeleteCardFlow()
  const [adding, setAdding] = useState(false)
  const [registered, setRegistered] = useState<boolean | null>(null)
  const list = sortByBrand(cards.data ?? [])
  const doneRef = useRef<HTMLParagraphElement>(null)
  // the form closes under the member's eyes: bring the outcome into view and focus
  useEffect(() => {
    if (registered === null || !doneRef.current) return
    doneRef.current.scrollIntoView?.({ block: 'center' })
    doneRef.current.focus()
  }, [registered])

  return (
    <div className="page payment-methods-page">
      <PageHeader title={t('methodsPage.title')} />
      <p className="payment-methods-page__intro">{t('methodsPage.intro')}</p>
      {registered !== null && (
        <p role="status" ref={doneRef} tabIndex={-1} className={registered ? 'pay-notice pay-notice--ok' : 'pay-notice pay-notice--warn'}>
          {registered ? t('register.done') : t('register.doneNoMail')}
        </p>
      )}
      {cards.isLoading && <p role="status">{t('loading')}</p>}
      {cards.isError && !(cards.error instanceof SessionTimedOutError) && <p className="pay-notice pay-notice--warn" role="alert">{t('errors.load')}</p>}
      {cards.isSuccess && list.length === 0 && <p>{t('methodsPage.empty')}</p>}
      <ul className="saved-cards" aria-label={t('methodsPage.title')}>
        {list.map((card) => (
          <li key={card.token} className={`saved-card ${card.isValid ? '' : 'saved-card--expired'}`.trim()}>
            <CardSummary card={card} />
            <button type="button" className="button button--secondary saved-card__delete"
              aria-label={t('delete.named', { brand: t(`brands.${card.brand}`), last4: card.cardNumber.slice(-4) })}
              onClick={() => (card.isValid ? deleteFlow.confirm(card) : deleteFlow.expired(card))}>
              {t('delete.button')}
            </button>
          </li>
        ))}
      </ul>
      {adding ? (
        <RegisterCard onDone={(sent) => { setAdding(false); setRegistered(sent) }} onCancel={() => setAdding(false)} />
      ) : (
        <button type="button" className="button button--primary" onClick={() => { setRegistered(null); setAdding(true) }}>{t('register.open')}</button>
      )}
    </div>
  )
}

const CURRENCY_SCOPES = ['JPY', 'NON_JPY'] as const

function RegisterCard({ onDone, onCancel }: { onDone: (mailSent: boolean) => void; onCancel: () => void }) {
  const { t } = useTranslation('payment')
  const modals = useModals()
  const register = useRegisterCard()
  const [scope, setScope] = useState<(typeof CURRENCY_SCOPES)[number]>('JPY')
  const [busy, setBusy] = useState(false)
  const msg = useCallback((key: string) => t(`card.errors.${key}`), [t])
  const resolver = useMemo(() => zodResolver(cardSchema(msg)), [msg])
  const form = useForm<CardForm>({
    resolver,
    defaultValues: { cardNumber: '', expirationDate: '', cvv: '', holderName: '', saveCard: true },
  })

  const submit = form.handleSubmit(async (v) => {
    setBusy(true)
    try {
      const tok = await tokenizeCard(v)
      const res = await register.mutateAsync({ token: tok.token, gateway: tok.gateway, currency: scope })
      onDone(res.mailSent)
    } catch (e) {
      if (e instanceof TokenizeError) {
        for (const [field, codes] of Object.entries(e.fields)) {
          if (field === 'cardNumber' || field === 'expirationDate' || field === 'cvv' || field === 'holderName') {
            form.setError(field, { type: 'gateway', message: msg(codes[0] ?? 'format') })
          }
        }
      } else if (e instanceof ValidationError) {
        modals.openValidationErrors(e.validationErrors, { token: t('card.number'), currency: t('register.scope') })
      } else if (!(e instanceof SessionTimedOutError)) modals.openError()
    } finally {
      setBusy(false)
    }
  })

  return (
    <form className="register-card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="register-card-title">
      <h2 id="register-card-title">{t('register.title')}</h2>
      <CardFields register={form.register} errors={form.formState.errors} showSave={false} />
      <fieldset className="register-card__scope">
        <legend>{t('register.scope')}</legend>
        {CURRENCY_SCOPES.map((s) => (
          <label key={s} className="radio">
            <input type="radio" name="scope" value={s} checked={scope === s} onChange={() => setScope(s)} /> {t(`scope.${s}`)}
          </label>
        ))}
        <p className="field__hint">{t('register.scopeHint')}</p>
      </fieldset>
      <p className="field__hint">{t('panel.cardSecurity')}</p>
      <div className="register-card__actions">
        <button type="submit" className="button button--primary" disabled={busy}>{busy ? t('panel.working') : t('register.submit')}</button>
        <button type="button" className="button button--secondary" onClick={onCancel}>{t('cancel')}</button>
      </div>
    </form>
  )
}
