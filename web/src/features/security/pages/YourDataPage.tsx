import '../security.css'
import { useMemo, useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { useTranslation } from '@/i18n/translation'
import { Field } from '@/components/Field'
import { handleServerValidation } from '@/components/serverValidation'
import { useModals } from '@/app/modals/modalContext'
import { useToast } from '@/app/toast'
import { ApiError } from '@/api/errors'
import { EXPORT_PARTS, EXPORT_URL, useRequestDeletion } from '../api'
import { deletionSchema, type DeletionForm } from '../schemas'
import { WhatGoesWhatStays } from '../components/WhatGoesWhatStays'
import { PageHeader } from '@/components/PageHeader'

/** /your-data: download everything held about the member; ask to delete the account. */
export default function YourDataPage() {
  const { t } = useTranslation('security')
  return (
    <div className="page your-data">
      <PageHeader title={t('data.title')} />
      <section className="card" aria-labelledby="export-title">
        <h2 id="export-title">{t('data.exportTitle')}</h2>
        <p>{t('data.exportLead')}</p>
        <a className="button button--primary" href={EXPORT_URL} download>
          {t('data.download')}
        </a>
        <h3>{t('data.partsTitle')}</h3>
        <dl className="data-parts">
          {EXPORT_PARTS.map((p) => (
            <div key={p} style={{ display: 'contents' }}>
              <dt translate="no">{p}</dt>
              <dd>{t(`data.parts.${p}`)}</dd>
            </div>
          ))}
        </dl>
      </section>
      <DeleteAccount />
    </div>
  )
}

function DeleteAccount() {
  const { t } = useTranslation('security')
  const modals = useModals()
  const toast = useToast()
  const request = useRequestDeletion()
  const [sent, setSent] = useState<boolean | null>(null)
  const resolver = useMemo(() => zodResolver(deletionSchema(t)), [t])
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<DeletionForm>({ resolver, defaultValues: { password: '' } })
  const onSubmit = handleSubmit(({ password }) =>
    request.mutate(password, {
      onSuccess: (res) => {
        reset()
        setSent(res.mailSent)
      },
      onError: (e) => {
        if (handleServerValidation(e, setError, { password: t('deletion.password') }, modals)) return
        toast.showError(e instanceof ApiError ? e.serverMessage : undefined)
      },
    }),
  )
  return (
    <section className="card danger-zone" aria-labelledby="delete-title">
      <h2 id="delete-title">{t('deletion.title')}</h2>
      <p>{t('deletion.lead')}</p>
      <WhatGoesWhatStays />
      {sent !== null ? (
        <p className={sent ? 'form__success' : 'form__error'} role="status">
          {sent ? t('deletion.mailSent') : t('deletion.mailNotSent')}
        </p>
      ) : (
        <form className="form" onSubmit={onSubmit} noValidate aria-label={t('deletion.title')}>
          <Field
            label={t('deletion.password')}
            type="password"
            autoComplete="current-password"
            required
            registration={register('password')}
            error={errors.password}
            hint={t('deletion.passwordHint')}
          />
          <button type="submit" className="button button--danger" disabled={request.isPending}>
            {t('deletion.request')}
          </button>
        </form>
      )}
    </section>
  )
}
