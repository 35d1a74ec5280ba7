import '../passes.css'
import { useMemo, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useTranslation } from '@/i18n/translation'
import { usePassStatus } from '@/api/platform'
import { ApiError, isPassMaintenance } from '@/api/errors'
import { useModals } from '@/app/modals/modalContext'
import { useAppNavigate } from '@/app/routing/useAppNavigate'
import { AppLink } from '@/app/routing/AppLink'
import { Field } from '@/components/Field'
import { handleServerValidation } from '@/components/serverValidation'
import { useExchange, useValidateExchange, type GogoPassExchangeOffer, type PurchasedGogoPass } from '../api'
import { exchangeSchema, type ExchangeForm } from '../schemas'
import { DateRangeText, MaintenanceNotice, PassNav } from '../components/common'
import { PageHeader } from '@/components/PageHeader'

type Step = { kind: 'input' } | { kind: 'confirm'; offer: GogoPassExchangeOffer } | { kind: 'done'; pass: PurchasedGogoPass } | { kind: 'error'; unknown: boolean }

/** Exchange of another pass type by code and password. */
export default function ExchangePage() {
  const { t } = useTranslation('passes')
  const status = usePassStatus()
  const modals = useModals()
  const go = useAppNavigate()
  const validate = useValidateExchange()
  const exchange = useExchange()
  const [step, setStep] = useState<Step>({ kind: 'input' })
  const resolver = useMemo(() => zodResolver(exchangeSchema((k) => t(`errors.${k}`))), [t])
  const form = useForm<ExchangeForm>({ resolver, defaultValues: { code: '', password: '' } })
  const labels = { code: t('exchange.code'), password: t('exchange.password') }
  const { errors } = form.formState

  const fail = (e: unknown) => {
    if (handleServerValidation(e, form.setError, labels, modals)) return
    if (isPassMaintenance(e)) return go('/gogo-pass/maintenance')
    if (e instanceof ApiError && e.errorKey === 'gogopass_exchange_error') return setStep({ kind: 'error', unknown: false })
    if (e instanceof ApiError && e.errorKey === 'gogopass_exchange_unknown_error') return setStep({ kind: 'error', unknown: true })
    // a period the member holds (or is paying for): the code stays unused
    if (e instanceof ApiError && e.errorKey === 'gogopass_already_held') return modals.openError({ title: t('exchange.errorTitle'), message: t('errors.alreadyHeld') })
    modals.openError({ error: e })
  }
  const onValidate = form.handleSubmit((v) => {
    const id = modals.openLoading()
    validate.mutate(v, { onSuccess: (offer) => setStep({ kind: 'confirm', offer }), onError: fail, onSettled: () => modals.close(id) })
  })
  const onExchange = () => {
    const id = modals.openLoading()
    exchange.mutate(form.getValues(), {
      onSuccess: (pass) => {
        form.reset()
        setStep({ kind: 'done', pass })
      },
      onError: fail,
      onSettled: () => modals.close(id),
    })
  }

  return (
    <div className="page page--narrow passes">
      <PageHeader title={t('exchange.title')} />
      <PassNav />
      {!status.isGogoPassPublic ? (
        <p className="card">{t('gogo.notPublic')}</p>
      ) : status.isGogoPassMaintenance ? (
        <MaintenanceNotice />
      ) : step.kind === 'confirm' ? (
        <section className="card" aria-labelledby="exchange-confirm">
          <h2 id="exchange-confirm">{t('exchange.confirm')}</h2>
          <dl className="pass-facts">
            <dt>{t('exchange.code')}</dt>
            <dd>{step.offer.code}</dd>
            <dt>{t('lottery.passType')}</dt>
            <dd>{step.offer.name} ({step.offer.nameAlt})</dd>
            <dt>{t('plan.board')}</dt>
            <dd><DateRangeText range={step.offer.availablePeriodToBoard} /></dd>
            <dt>{t('plan.book')}</dt>
            <dd><DateRangeText range={step.offer.availablePeriodToBook} /></dd>
            <dt>{t('plan.fareType')}</dt>
            <dd>{t(`fare.${step.offer.fareType}`)}</dd>
          </dl>
          <div className="actions">
            <button type="button" className="button button--secondary" onClick={() => setStep({ kind: 'input' })}>{t('back')}</button>
            <button type="button" className="button button--primary" onClick={onExchange} disabled={exchange.isPending}>{t('exchange.submit')}</button>
          </div>
        </section>
      ) : step.kind === 'done' ? (
        <section className="card pass-done" aria-labelledby="exchange-done">
          <h2 id="exchange-done">{t('exchange.done')}</h2>
          <dl className="pass-facts">
            <dt>{t('pass.code')}</dt>
            <dd>{step.pass.code}</dd>
            <dt>{t('lottery.passType')}</dt>
            <dd>{step.pass.name} ({step.pass.nameAlt})</dd>
            <dt>{t('plan.board')}</dt>
            <dd><DateRangeText range={step.pass.availablePeriodToBoard} /></dd>
          </dl>
          <p>{t('exchange.mail')}</p>
          <p><AppLink to="/my-passes">{t('nav.myPasses')}</AppLink></p>
        </section>
      ) : step.kind === 'error' ? (
        <section className="card pass-notice pass-notice--warning" role="alert" aria-labelledby="exchange-error">
          <h2 id="exchange-error">{t('exchange.errorTitle')}</h2>
          <p>{t(step.unknown ? 'exchange.unknownError' : 'exchange.error')}</p>
          <button type="button" className="button button--secondary" onClick={() => setStep({ kind: 'input' })}>{t('back')}</button>
        </section>
      ) : (
        <form className="form card" onSubmit={onValidate} noValidate aria-label={t('exchange.title')}>
          <p className="pass-lead">{t('exchange.lead')}</p>
          <Field label={labels.code} required autoComplete="off" registration={form.register('code')} error={errors.code} />
          <Field label={labels.password} required type="password" autoComplete="off" registration={form.register('password')} error={errors.password} />
          <button type="submit" className="button button--primary" disabled={validate.isPending}>{t('next')}</button>
        </form>
      )}
    </div>
  )
}
