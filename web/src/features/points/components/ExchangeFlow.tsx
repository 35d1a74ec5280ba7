import { useMemo, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useTranslation } from '@/i18n/translation'
import { ApiError } from '@/api/errors'
import { Field } from '@/components/Field'
import { handleServerValidation } from '@/components/serverValidation'
import { useModals } from '@/app/modals/modalContext'
import { useToast } from '@/app/toast'
import { useExchange, type ExchangePreview, type IssueResult } from '../api'
import { exchangeSchema, type ExchangeForm } from '../schemas'
import { IssuedVoucher } from './IssuedVoucher'
import { Money } from './Money'
import { PointsNav } from './PointsNav'
import '../points.css'
import { PageHeader } from '@/components/PageHeader'

type Step =
  | { name: 'input' }
  | { name: 'loading' }
  | { name: 'confirm'; form: ExchangeForm; preview: ExchangePreview }
  | { name: 'exchanging' }
  | { name: 'done'; result: IssueResult }
  | { name: 'mismatch' }

const empty: ExchangeForm = { code: '', password: '' }

/**
 * Exchange into points, by an exchange code (ana false) or by partner-airline
 * miles (ana true): input → confirm (validate; loading) → exchange (loading)
 * → done, or the mismatch screen. Texts follow the variant.
 */
export function ExchangeFlow({ ana }: { ana: boolean }) {
  const { t } = useTranslation('points')
  const v = ana ? 'ana' : 'other'
  const schema = useMemo(() => exchangeSchema(t), [t])
  const modals = useModals()
  const toast = useToast()
  const { validate, exchange } = useExchange()
  const [step, setStep] = useState<Step>({ name: 'input' })
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    reset,
    formState: { errors },
  } = useForm<ExchangeForm>({ resolver: zodResolver(schema), defaultValues: empty })
  const labels = { code: t(`exchange.${v}.code`), password: t(`exchange.${v}.password`) }

  const fail = (e: unknown) => {
    if (e instanceof ApiError && e.errorKey === 'peachpoint_exchange_mismatch_error') return setStep({ name: 'mismatch' })
    setStep({ name: 'input' })
    if (handleServerValidation(e, setError, labels, modals)) return
    if (e instanceof ApiError && e.status === 403) return
    if (e instanceof ApiError && (e.errorKey === 'peachpoint_exchange_error' || e.errorKey === 'peachpoint_exchange_unknown_error'))
      // the server says what went wrong (a code used already) in the member's language; the catalogue's general text otherwise
      modals.openError({ title: t('exchange.failedTitle'), message: e.errorKey === 'peachpoint_exchange_error' && e.serverMessage ? e.serverMessage : t(`errors.${e.errorKey}`) })
    else if (e instanceof ApiError && e.status === 429) modals.openError({ error: e })
    else toast.showError()
  }

  const onConfirm = handleSubmit(
    async (form) => {
      setStep({ name: 'loading' })
      try {
        const preview = await validate.mutateAsync({ ...form, ana })
        setStep({ name: 'confirm', form, preview })
      } catch (e) {
        fail(e)
      }
    },
    (errs) => modals.openValidationErrors(Object.fromEntries(Object.entries(errs).map(([k, e]) => [k, [e?.message ?? '']])), labels),
  )

  const onExchange = async (form: ExchangeForm) => {
    setStep({ name: 'exchanging' })
    try {
      const result = await exchange.mutateAsync({ ...form, ana })
      reset(empty)
      setStep({ name: 'done', result })
    } catch (e) {
      fail(e)
    }
  }

  return (
    <div className="page points">
      <PageHeader title={t(`exchange.${v}.title`)} />
      <PointsNav />
      <section className="card points-narrow exchange" aria-live="polite">
        {step.name === 'input' && (
          <>
            <h2>{t('exchange.inputTitle')}</h2>
            <p>{t(`exchange.${v}.intro`)}</p>
            <form
              className="form"
              noValidate
              aria-label={t(`exchange.${v}.title`)}
              onSubmit={(e) => {
                clearErrors()
                void onConfirm(e)
              }}
            >
              <Field label={labels.code} required registration={register('code')} error={errors.code} maxLength={100} autoComplete="off" autoCapitalize="characters" />
              <Field label={labels.password} required type="password" registration={register('password')} error={errors.password} maxLength={100} autoComplete="off" />
              <button type="submit" className="button button--primary">
                {t('exchange.confirm')}
              </button>
            </form>
          </>
        )}
        {(step.name === 'loading' || step.name === 'exchanging') && (
          <p role="status" className="exchange__loading">
            <span className="spinner" aria-hidden="true" /> {t(step.name === 'loading' ? 'exchange.checking' : 'exchange.exchanging')}
          </p>
        )}
        {step.name === 'confirm' && (
          <>
            <h2>{t('exchange.confirmTitle')}</h2>
            <p>{t(`exchange.${v}.confirmText`)}</p>
            <dl className="issued__list">
              <div>
                <dt>{labels.code}</dt>
                <dd>{step.preview.code}</dd>
              </div>
              <div>
                <dt>{t('exchange.points')}</dt>
                <dd>
                  <Money amount={step.preview.amount} currency={step.preview.currencyCode} />
                </dd>
              </div>
            </dl>
            <div className="actions">
              <button type="button" className="button" onClick={() => setStep({ name: 'input' })}>
                {t('back')}
              </button>
              <button type="button" className="button button--primary" onClick={() => void onExchange(step.form)}>
                {t('exchange.submit')}
              </button>
            </div>
          </>
        )}
        {step.name === 'done' && (
          <>
            <h2>{t('exchange.doneTitle')}</h2>
            {step.result.errorKey === 'mobile_mail_error' ? (
              <p className="form__error" role="alert">{t('errors.mailNotSent')}</p>
            ) : (
              <p role="status">{t(`exchange.${v}.doneText`)}</p>
            )}
            <IssuedVoucher voucher={step.result.peachpoint} pin={step.result.pin} />
            <button type="button" className="button" onClick={() => setStep({ name: 'input' })}>
              {t('exchange.another')}
            </button>
          </>
        )}
        {step.name === 'mismatch' && (
          <div role="alert">
            <h2>{t('exchange.mismatchTitle')}</h2>
            <p>{t(`exchange.${v}.mismatchText`)}</p>
            <button type="button" className="button button--primary" onClick={() => setStep({ name: 'input' })}>
              {t('exchange.retry')}
            </button>
          </div>
        )}
      </section>
    </div>
  )
}
