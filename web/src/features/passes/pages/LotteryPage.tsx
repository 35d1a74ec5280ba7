import '../passes.css'
import { useMemo, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useTranslation } from '@/i18n/translation'
import { usePassStatus } from '@/api/platform'
import { useModals } from '@/app/modals/modalContext'
import { useAppNavigate } from '@/app/routing/useAppNavigate'
import { handleServerValidation } from '@/components/serverValidation'
import { useApplicable, useApply, useValidateEntry, type GogoPassEntryConfirmation } from '../api'
import { entrySchema, type EntryForm } from '../schemas'
import { PlanChooser } from '../components/PlanChooser'
import { DateRangeText, Money, PassNav } from '../components/common'
import { PageHeader } from '@/components/PageHeader'

/** Lottery entry: choose, confirm, enter; then the confirmation page. */
export default function LotteryPage() {
  const { t } = useTranslation('passes')
  const status = usePassStatus()
  const open = status.isGogoPassPublic && status.isGogoPassLotteryPhase
  const applicable = useApplicable(open)
  const validate = useValidateEntry()
  const apply = useApply()
  const modals = useModals()
  const go = useAppNavigate()
  const [confirm, setConfirm] = useState<GogoPassEntryConfirmation | null>(null)
  const resolver = useMemo(() => zodResolver(entrySchema((k) => t(`errors.${k}`))), [t])
  const form = useForm<EntryForm>({ resolver, defaultValues: { planId: '', periodId: '' } })
  const labels = { planId: t('lottery.passType'), periodId: t('lottery.lotteryType'), fareType: t('plan.fareType') }

  const fail = (e: unknown) => {
    if (handleServerValidation(e, form.setError, labels, modals)) return
    modals.openError({ error: e })
  }
  const onValidate = form.handleSubmit((v) => validate.mutate(v, { onSuccess: setConfirm, onError: fail }))
  const onApply = () =>
    apply.mutate(form.getValues(), { onSuccess: () => go('/gogo-pass/lottery/complete', { replace: true }), onError: fail })

  return (
    <div className="page passes">
      <PageHeader title={t('lottery.title')} />
      <PassNav />
      {!open ? (
        <p className="card">{t('lottery.closed')}</p>
      ) : confirm ? (
        <section className="card" aria-labelledby="confirm-entry">
          <h2 id="confirm-entry">{t('lottery.confirm')}</h2>
          <dl className="pass-facts">
            <dt>{t('lottery.passType')}</dt>
            <dd>{confirm.plan.name} ({confirm.plan.nameAlt})</dd>
            <dt>{t('plan.board')}</dt>
            <dd><DateRangeText range={confirm.period.availablePeriodToBoard} /></dd>
            <dt>{t('plan.book')}</dt>
            <dd><DateRangeText range={confirm.period.availablePeriodToBook} /></dd>
            <dt>{t('plan.fareType')}</dt>
            <dd>{t(`fare.${confirm.fareType}`)}</dd>
            <dt>{t('gogo.price')}</dt>
            <dd><Money amount={confirm.period.price[confirm.fareType as 'happy' | 'happlus']} currency={confirm.period.currencyCode} /></dd>
          </dl>
          <p className="pass-muted">{t('lottery.confirmText')}</p>
          <div className="actions">
            <button type="button" className="button button--secondary" onClick={() => setConfirm(null)}>{t('back')}</button>
            <button type="button" className="button button--primary" onClick={onApply} disabled={apply.isPending}>{t('lottery.enter')}</button>
          </div>
        </section>
      ) : (
        <>
          <p className="pass-lead">{t('lottery.lead')}</p>
          {applicable.data && applicable.data.entries.length > 0 && (
            <section className="card" aria-labelledby="my-entries">
              <h2 id="my-entries">{t('lottery.myEntries')}</h2>
              <ul className="pass-list">
                {applicable.data.entries.map((e) => (
                  <li key={e.id}>
                    {e.name} · <DateRangeText range={e.availablePeriodToBoard} /> · {t(`fare.${e.fareType}`)} · <strong>{t(`result.${e.result}`)}</strong>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {applicable.data && !applicable.data.applicable && <p className="card">{t('lottery.nothing')}</p>}
          {applicable.data?.applicable && (
            <form className="form" onSubmit={onValidate} noValidate aria-label={t('lottery.title')}>
              <PlanChooser plans={applicable.data.gogoPasses} form={form} />
              <button type="submit" className="button button--primary" disabled={validate.isPending}>{t('next')}</button>
            </form>
          )}
        </>
      )}
    </div>
  )
}
