import { useTranslation } from '@/i18n/translation'
import type { FieldError, FieldErrors, UseFormRegister, UseFormRegisterReturn } from 'react-hook-form'
import { Field } from '@/components/Field'
import type { CardForm } from '../schemas'

/** The card inputs (number, expiry, CVV, holder, save), for a form built on cardSchema. */
export function CardFields({ register, errors, showSave }: { register: UseFormRegister<CardForm>; errors: FieldErrors<CardForm>; showSave: boolean }) {
  const { t } = useTranslation('payment')
  return (
    <div className="card-fields">
      <Field label={t('card.number')} registration={register('cardNumber')} error={errors.cardNumber} required
        inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" className="card-fields__number" />
      <div className="card-fields__row">
        <Field label={t('card.expiry')} registration={register('expirationDate')} error={errors.expirationDate} required
          autoComplete="cc-exp" placeholder={t('card.expiryPlaceholder')} hint={t('card.expiryHint')} />
        <Field label={t('card.cvv')} registration={register('cvv')} error={errors.cvv} required inputMode="numeric"
          autoComplete="cc-csc" maxLength={4} hint={t('card.cvvHint')} />
      </div>
      <HolderFields holder={register('holderName')} save={register('saveCard')} error={errors.holderName} showSave={showSave} />
    </div>
  )
}

/** The holder name and the save box, under the card inputs of either gateway's form (CardFields, StripeCardFields). */
export function HolderFields({ holder, save, error, showSave }: {
  holder: UseFormRegisterReturn<'holderName'>; save: UseFormRegisterReturn<'saveCard'>; error: FieldError | undefined; showSave: boolean
}) {
  const { t } = useTranslation('payment')
  return (
    <>
      <Field label={t('card.holder')} registration={holder} error={error} required autoComplete="cc-name" placeholder="TARO PEACH" />
      {showSave && (
        <label className="checkbox">
          <input type="checkbox" {...save} /> {t('card.save')}
        </label>
      )}
    </>
  )
}
