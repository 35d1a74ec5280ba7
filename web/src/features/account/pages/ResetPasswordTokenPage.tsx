import '../account.css'
import { useEffect, useMemo, useState } from 'react'
import { useParams, useSearchParams } from 'react-router'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useTranslation } from '@/i18n/translation'
import { Field } from '@/components/Field'
import { handleServerValidation } from '@/components/serverValidation'
import { useModals } from '@/app/modals/modalContext'
import { useToast } from '@/app/toast'
import { useAppNavigate } from '@/app/routing/useAppNavigate'
import { AppLink } from '@/app/routing/AppLink'
import { ApiError } from '@/api/errors'
import { useResetPassword, validateResetToken } from '../api'
import { resetSchema, type ResetForm } from '../schemas'
import { PageHeader } from '@/components/PageHeader'

/**
 * /reset-password/:token: set a new password from the mailed link (one
 * hour, once). With ?kind=set it is the link mailed to a member the
 * booking site provisioned without a password (seven days, once): the page
 * says they set their password, not a new one.
 */
export default function ResetPasswordTokenPage() {
  const { t } = useTranslation('account')
  const { token = '' } = useParams()
  const first = useSearchParams()[0].get('kind') === 'set'
  // The invalid page says which link it was: a member who never had a
  // password is not told their "reset" link expired.
  const invalidPage = first ? '/reset-password/invalid?kind=set' : '/reset-password/invalid'
  const navigate = useAppNavigate()
  const modals = useModals()
  const toast = useToast()
  const reset = useResetPassword()
  const [valid, setValid] = useState<boolean | null>(null)
  const [done, setDone] = useState(false)
  useEffect(() => {
    let live = true
    void validateResetToken(token).then((ok) => {
      if (!live) return
      if (ok) setValid(true)
      else navigate(invalidPage, { replace: true })
    })
    return () => { live = false }
  }, [token, navigate, invalidPage])
  const resolver = useMemo(() => zodResolver(resetSchema(t)), [t])
  const { register, handleSubmit, setError, formState: { errors } } = useForm<ResetForm>({
    resolver, defaultValues: { password: '', passwordReenter: '' },
  })
  const labels = { password: t('fields.passwordNew'), passwordReenter: t('fields.passwordReenter'), something: t('fields.something') }
  const onSubmit = handleSubmit((values) =>
    reset.mutate({ token, ...values }, {
      onSuccess: () => setDone(true),
      onError: (e) => {
        if (handleServerValidation(e, setError, labels, modals)) return
        if (e instanceof ApiError && e.status === 404) navigate(invalidPage, { replace: true })
        else toast.showError()
      },
    }),
  )
  return (
    <div className="page reset-page">
      <PageHeader title={first ? t('reset.firstTitle') : t('reset.newTitle')} />
      {done ? (
        <>
          <p role="status">{first ? t('reset.firstDone') : t('reset.done')}</p>
          <AppLink to="/login">{t('reset.toLogin')}</AppLink>
        </>
      ) : valid ? (
        <form onSubmit={onSubmit} noValidate>
          <Field label={t('fields.passwordNew')} type="password" required autoComplete="new-password" maxLength={100} hint={t('hints.password')} registration={register('password')} error={errors.password} />
          <Field label={t('fields.passwordReenter')} type="password" required autoComplete="new-password" maxLength={100} registration={register('passwordReenter')} error={errors.passwordReenter} />
          <button type="submit" className="button button--primary" disabled={reset.isPending}>{t('reset.set')}</button>
        </form>
      ) : (
        <p>{t('loading')}</p>
      )}
      {!done && (
        <p className="reset-page__back">
          <AppLink to="/login">{t('reset.backToLogin')}</AppLink>
        </p>
      )}
    </div>
  )
}
