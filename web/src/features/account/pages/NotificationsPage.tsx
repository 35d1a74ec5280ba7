import '../account.css'
import { useId, useState, type ReactNode } from 'react'
import { useForm } from 'react-hook-form'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from '@/i18n/translation'
import { LANGUAGES, LANGUAGE_NAMES } from '@/i18n/languages'
import { PageHeader } from '@/components/PageHeader'
import { AppLink } from '@/app/routing/AppLink'
import { handleServerValidation } from '@/components/serverValidation'
import { useModals } from '@/app/modals/modalContext'
import { useToast } from '@/app/toast'
import { notificationSettingsQuery, useUpdateNotificationSettings, type NotificationSettings } from '../api'
import { SelectField } from '@/components/SelectField'
import { PushToggle } from '@/app/pwa/PushToggle'

interface NotificationsForm {
  flightChanges: boolean
  pointsReminders: boolean
  /** '' while the mails follow the account's language ("same as the site"). */
  mailLang: NotificationSettings['mailLang'] | ''
}

const toForm = (s: NotificationSettings): NotificationsForm => ({
  flightChanges: s.flightChanges, pointsReminders: s.pointsReminders, mailLang: s.mailLangChosen ? s.mailLang : '',
})

/** /account/notifications: which mails the member gets, and their language. */
export default function NotificationsPage() {
  const { t } = useTranslation('account')
  const settings = useSuspenseQuery(notificationSettingsQuery)
  const save = useUpdateNotificationSettings()
  const modals = useModals()
  const toast = useToast()
  const [saved, setSaved] = useState(false)
  const { register, handleSubmit, setError, reset, formState: { errors } } = useForm<NotificationsForm>({
    defaultValues: toForm(settings.data),
  })
  const labels = {
    flightChanges: t('notifications.flightChanges'), pointsReminders: t('notifications.pointsReminders'),
    securityAlerts: t('notifications.securityAlerts'), mailLang: t('notifications.mailLang'), something: t('fields.something'),
  }
  const onSubmit = handleSubmit((values) => {
    setSaved(false)
    save.mutate(values, {
      onSuccess: (r) => { reset(toForm(r)); setSaved(true) },
      onError: (e) => handleServerValidation(e, setError, labels, modals) || toast.showError(),
    })
  })
  const lockId = useId()
  return (
    <div className="page account-page notifications-page">
      <PageHeader title={t('notifications.title')} />
      <section aria-labelledby="notifications-heading">
        <h2 id="notifications-heading">{t('notifications.mails')}</h2>
        <p className="notifications-page__lead">{t('notifications.lead')}</p>
        <form onSubmit={onSubmit} noValidate>
          <fieldset className="notification-kinds">
            <legend className="visually-hidden">{t('notifications.mails')}</legend>
            <Kind label={labels.flightChanges} hint={t('notifications.flightChangesHint')}>
              <input type="checkbox" {...register('flightChanges', { onChange: () => setSaved(false) })} />
            </Kind>
            <Kind label={labels.pointsReminders} hint={t('notifications.pointsRemindersHint')}>
              <input type="checkbox" {...register('pointsReminders', { onChange: () => setSaved(false) })} />
            </Kind>
            <Kind label={labels.securityAlerts} hint={t('notifications.securityAlertsHint')} locked={t('notifications.securityLocked')} lockId={lockId}>
              <input type="checkbox" checked disabled aria-describedby={lockId} />
            </Kind>
          </fieldset>
          <SelectField label={labels.mailLang} required registration={register('mailLang', { onChange: () => setSaved(false) })} error={errors.mailLang}
            placeholder={t('notifications.mailLangSite')} options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))} />
          <p className="field__hint notifications-page__lang-hint">{t('notifications.mailLangHint')}</p>
          <button type="submit" className="button button--primary" disabled={save.isPending}>{t('account.save')}</button>
          {saved && <p role="status" className="notice notice--ok">{t('notifications.saved')}</p>}
        </form>
      </section>
      <section aria-labelledby="notifications-device-heading">
        <h2 id="notifications-device-heading">{t('notifications.device')}</h2>
        <PushToggle />
      </section>
      <p><AppLink to="/account">{t('notifications.back')}</AppLink></p>
    </div>
  )
}

/** One kind of mail: its switch, name and what it is about; a locked one says why. */
function Kind({ label, hint, locked, lockId, children }: { label: string; hint: string; locked?: string; lockId?: string; children: ReactNode }) {
  return (
    <div className={`notification-kind${locked ? ' notification-kind--locked' : ''}`}>
      <label className="notification-kind__switch">
        {children}
        <span className="notification-kind__label">{label}</span>
      </label>
      <span className="notification-kind__hint">{hint}</span>
      {locked && (
        <span id={lockId} className="notification-kind__lock">
          <svg aria-hidden="true" width="12" height="12" viewBox="0 0 24 24"><path fill="currentColor" d="M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5Zm-3 8V7a3 3 0 0 1 6 0v3H9Z" /></svg>
          {locked}
        </span>
      )}
    </div>
  )
}
