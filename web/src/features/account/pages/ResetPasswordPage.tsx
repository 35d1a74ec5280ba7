import '../account.css'
import { useMemo, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useTranslation } from '@/i18n/translation'
import { Field } from '@/components/Field'
import { handleServerValidation } from '@/components/serverValidation'
import { useModals } from '@/app/modals/modalContext'
import { useToast } from '@/app/toast'
import { useRequestReset } from '../api'
import { resetRequestSchema, type ResetRequestForm } from '../schemas'
import { PageHeader } from '@/components/PageHeader'
import { AppLink } from '@/app/routing/AppLink'

/** /reset-password: ask for a reset link (same answer whether or not the address is a member's). */
export default function ResetPasswordPage() {
  const { t } = useTranslation('account')
  const modals = useModals()
  const toast = useToast()
  const request = useRequestReset()
  const [sent, setSent] = useState(false)
  const resolver = useMemo(() => zodResolver(resetRequestSchema(t)), [t])
  const { register, handleSubmit, setError, formState: { errors } } = useForm<ResetRequestForm>({
    resolver, defaultValues: { email: '' },
  })
  const onSubmit = handleSubmit(({ email }) =>
    request.mutate(email, {
      onSuccess: () => setSent(true),
      onError: (e) => handleServerValidation(e, setError, { email: t('fields.email'), something: t('fields.something') }, modals) || toast.showError(),
    }),
  )
  return (
    <div className="page reset-page">
      <PageHeader title={t('reset.title')} />
      {sent ? (
        <p role="status">{t('reset.sent')}</p>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <p>{t('reset.intro')}</p>
          <Field label={t('fields.email')} type="email" required autoComplete="email" maxLength={100} registration={register('email')} error={errors.email} />
          <button type="submit" className="button button--primary" disabled={request.isPending}>{t('reset.send')}</button>
        </form>
      )}
      {/* Never a dead end: the way back to login is always there. */}
      <p className="reset-page__back">
        <AppLink to="/login">{t('reset.backToLogin')}</AppLink>
      </p>
    </div>
  )
}
