import { useMemo, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useTranslation } from '@/i18n/translation'
import { useParams } from 'react-router'
import { ApiError } from '@/api/errors'
import { ConfirmDialog } from '@/components/Dialog'
import { Field } from '@/components/Field'
import { handleServerValidation } from '@/components/serverValidation'
import { useModals } from '@/app/modals/modalContext'
import { useReissue, type IssueResult, type Peachpoint } from '../api'
import { REISSUE_VARIANTS, type ReissueVariant } from '../rules'
import { reissueSchema, type ReissueForm } from '../schemas'
import { IssuedVoucher } from '../components/IssuedVoucher'
import { Money } from '../components/Money'
import { PointsNav } from '../components/PointsNav'
import '../points.css'
import { PageHeader } from '@/components/PageHeader'
import { NotFoundPage } from '@/app/pages/NotFoundPage'

const empty: ReissueForm = { pointNumber: '', pin: '', email: '' }

/**
 * Reissue of expired points (CNY and TWD variants): number, PIN and e-mail →
 * confirm (validate) → reissue → the new number and PIN.
 */
export default function PointsReissuePage() {
  const { t } = useTranslation('points')
  const params = useParams()
  const known = (REISSUE_VARIANTS as readonly string[]).includes(params.variant ?? '')
  const variant: ReissueVariant = known ? (params.variant as ReissueVariant) : 'cny'
  // the page's currency: the server refuses a voucher of the other one here
  const currencyCode = variant.toUpperCase()
  const schema = useMemo(() => reissueSchema(t), [t])
  const modals = useModals()
  const { validate, reissue } = useReissue()
  const [done, setDone] = useState<IssueResult | null>(null)
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ReissueForm>({ resolver: zodResolver(schema), defaultValues: empty })
  const labels = { pointNumber: t('reissue.pointNumber'), pin: t('reissue.pin'), email: t('reissue.email') }

  // The reissue flow's failures show the error modal, never only a toast:
  // the catalogued keys with their own text; any other failure of the
  // reissue itself (a 500 without a key, no answer) leaves its outcome
  // unknown, so it says what voucher_reissue_unknown_error says (check the
  // points before trying again); one of the check before it is the
  // system-error modal.
  const fail = (e: unknown, step: 'validate' | 'reissue') => {
    if (handleServerValidation(e, setError, labels, modals)) return
    if (e instanceof ApiError && e.status === 403) return // the shell shows the timeout modal
    if (e instanceof ApiError && (e.errorKey === 'voucher_reissue_error' || e.errorKey === 'voucher_reissue_unknown_error'))
      modals.openError({ title: t('reissue.failedTitle'), message: t(`errors.${e.errorKey}`) })
    else if (e instanceof ApiError && e.status >= 400 && e.status < 500) modals.openError({ error: e })
    else if (step === 'reissue') modals.openError({ title: t('reissue.failedTitle'), message: t('errors.voucher_reissue_unknown_error') })
    else modals.openError({ error: e })
  }

  const doReissue = async (form: ReissueForm) => {
    const loading = modals.openLoading()
    try {
      const res = await reissue.mutateAsync({ ...form, currencyCode })
      reset(empty)
      setDone(res)
    } catch (e) {
      fail(e, 'reissue')
    } finally {
      modals.close(loading)
    }
  }

  const confirm = (form: ReissueForm, voucher: Peachpoint) => {
    modals.open((close, active) => (
      <ConfirmDialog title={t('reissue.confirmTitle')} close={close} active={active} cancelLabel={t('back')} confirmLabel={t('reissue.submit')} onConfirm={() => void doReissue(form)}>
        <p>{t('reissue.confirmText')}</p>
        <dl className="issued__list">
          <div>
            <dt>{t('reissue.pointNumber')}</dt>
            <dd>{voucher.pointNumber}</dd>
          </div>
          <div>
            <dt>{t('issued.amount')}</dt>
            <dd>
              <Money amount={voucher.balance} currency={voucher.currency} />
            </dd>
          </div>
          <div>
            <dt>{t('reissue.email')}</dt>
            <dd>{form.email}</dd>
          </div>
        </dl>
      </ConfirmDialog>
    ))
  }

  const onSubmit = handleSubmit(
    async (form) => {
      setDone(null)
      try {
        const v = await validate.mutateAsync({ ...form, currencyCode })
        confirm(form, v.peachpoint)
      } catch (e) {
        fail(e, 'validate')
      }
    },
    (errs) => modals.openValidationErrors(Object.fromEntries(Object.entries(errs).map(([k, v]) => [k, [v?.message ?? '']])), labels),
  )

  if (!known) return <NotFoundPage />

  return (
    <div className="page points">
      <PageHeader title={t(`reissue.title.${variant}`)} />
      <PointsNav />
      {done ? (
        <section className="card points-narrow" aria-labelledby="reissue-done-title">
          <h2 id="reissue-done-title">{t('reissue.doneTitle')}</h2>
          {/* the mail either went or it did not: say only what happened */}
          {done.errorKey === 'mobile_mail_error' ? (
            <p className="form__error" role="alert">{t('errors.mailNotSent')}</p>
          ) : (
            <p role="status">{t('reissue.doneText')}</p>
          )}
          <IssuedVoucher voucher={done.peachpoint} pin={done.pin} />
          <button type="button" className="button" onClick={() => setDone(null)}>
            {t('reissue.another')}
          </button>
        </section>
      ) : (
        <section className="card points-narrow" aria-labelledby="reissue-form-title">
          <h2 id="reissue-form-title">{t('reissue.heading')}</h2>
          <p>{t(`reissue.intro.${variant}`)}</p>
          <form
            className="form"
            noValidate
            aria-label={t('reissue.heading')}
            onSubmit={(e) => {
              clearErrors()
              void onSubmit(e)
            }}
          >
            <Field label={t('reissue.pointNumber')} required registration={register('pointNumber')} error={errors.pointNumber} maxLength={100} autoComplete="off" inputMode="numeric" />
            <Field label={t('reissue.pin')} required registration={register('pin')} error={errors.pin} maxLength={100} autoComplete="off" inputMode="numeric" />
            <Field label={t('reissue.email')} hint={t('reissue.emailHint')} required type="email" registration={register('email')} error={errors.email} maxLength={100} autoComplete="email" />
            <button type="submit" className="button button--primary" disabled={isSubmitting}>
              {t('reissue.confirm')}
            </button>
          </form>
        </section>
      )}
    </div>
  )
}
