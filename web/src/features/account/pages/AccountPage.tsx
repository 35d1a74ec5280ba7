import '../account.css'
import { useMemo, useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { usePrefetchQuery, useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from '@/i18n/translation'
import { Field } from '@/components/Field'
import { DateField } from '@/components/DateField'
import { handleServerValidation } from '@/components/serverValidation'
import { useModals } from '@/app/modals/modalContext'
import { useToast } from '@/app/toast'
import { countriesQuery, emailChangeQuery, lookupPostalCode, mailSuggestion, useChangePassword, useUpdateUser, useUser, userQuery, type Country, type User, type UserUpdate } from '../api'
import type { PasswordForm, ProfileForm } from '../schemas'
import { cleanTel, isEmailChange } from '../rules'
import { lazyResolver } from '@/components/lazyResolver'
import { SelectField } from '@/components/SelectField'
import { PassportFields } from '../components/PassportFields'
import { SavedNotice } from '../components/Notice'
import { PendingEmailChange } from '../components/PendingEmailChange'
import { OnlineShopSection } from '../components/OnlineShop'
import { AccountSecuritySlot } from '@/app/pages/AccountSecuritySlot'
import { PageHeader } from '@/components/PageHeader'
import { AppLink } from '@/app/routing/AppLink'

/** /account: the member profile and the password change. */
export default function AccountPage() {
  const { t, i18n } = useTranslation('account')
  // The profile's other fetches start now, beside the country list's: the
  // page suspends on that list, and the user's and the pending e-mail
  // change's would otherwise only start once it is in (one round trip more).
  // (Before useUser: a query already in the cache is not prefetched.)
  usePrefetchQuery(userQuery)
  usePrefetchQuery(emailChangeQuery)
  const user = useUser()
  // The page waits for the country list as a whole (the profile's selects
  // need it), so what follows the profile never shows before it. The form
  // gets it from here: a section that suspended on its own could be
  // re-rendered on a language switch after the page had suspended, outside
  // any Suspense boundary, and its thrown promise went uncaught.
  const countries = useSuspenseQuery(countriesQuery(i18n.language))
  return (
    <div className="page account-page">
      <PageHeader title={t('account.title')} />
      {user.data ? <ProfileSection user={user.data} countries={countries.data} /> : <p>{t('loading')}</p>}
      {!user.isPending && (
        <>
          <PasswordSection />
          {user.data && <OnlineShopSection user={user.data} />}
          <NotificationsLink />
          <AccountSecuritySlot />
        </>
      )}
    </div>
  )
}

function toForm(u: User): ProfileForm {
  return {
    lastname: u.lastname, firstname: u.firstname, gender: u.gender, birth: u.birth, tel: u.tel, email: u.email,
    addressCountryCode: u.addressCountryCode, addressPostalCode: u.addressPostalCode,
    addressStateAndCity: u.addressStateAndCity, address1: u.address1, passportNo: u.passportNo,
    passportNationalityCode: u.passportNationalityCode, passportIssueCountryCode: u.passportIssueCountryCode,
    passportExpirationDate: u.passportExpirationDate, optin1: u.optin1, autoLoginNoticeMail: u.autoLoginNoticeMail,
    currentPassword: '',
  }
}

export function ProfileSection({ user, countries }: { user: User; countries: Country[] }) {
  const { t } = useTranslation('account')
  const modals = useModals()
  const toast = useToast()
  const save = useUpdateUser()
  const [mailSent, setMailSent] = useState<boolean | null>(null)
  const [suggestion, setSuggestion] = useState<string>()
  // The rules (zod) load when the form is first validated, not with the page.
  const profileResolver = useMemo(
    () => lazyResolver<ProfileForm>(() => Promise.all([import('../schemas'), import('@hookform/resolvers/zod')]).then(([s, { zodResolver }]) => zodResolver(s.profileSchema(t, undefined, user.email)))),
    [t, user.email],
  )
  const form = useForm<ProfileForm>({ resolver: profileResolver, defaultValues: toForm(user) })
  const { register, handleSubmit, setError, setValue, getValues, reset, control, formState: { errors } } = form
  // A new address needs the current password; it takes effect from the link mailed to it.
  const changingEmail = isEmailChange(user.email, useWatch({ control, name: 'email' }))
  const labels: Record<keyof ProfileForm | 'something', string> = {
    lastname: t('fields.lastname'), firstname: t('fields.firstname'), gender: t('fields.gender'), birth: t('fields.birth'),
    tel: t('fields.tel'), email: t('fields.email'), addressCountryCode: t('fields.addressCountry'),
    addressPostalCode: t('fields.addressPostalCode'), addressStateAndCity: t('fields.addressStateAndCity'),
    address1: t('fields.address1'), passportNo: t('fields.passportNo'), passportNationalityCode: t('fields.passportNationality'),
    passportIssueCountryCode: t('fields.passportIssueCountry'), passportExpirationDate: t('fields.passportExpirationDate'),
    optin1: t('fields.optin1'), autoLoginNoticeMail: t('fields.autoLoginNoticeMail'), something: t('fields.something'),
    currentPassword: t('fields.currentPassword'),
  }
  // One list for the three country selects, built once per language.
  const countryOptions = useMemo(() => countries.map((c) => ({ value: c.code, label: c.name })), [countries])
  const onSubmit = handleSubmit(
    (values) => {
      setMailSent(null)
      const { currentPassword, ...profile } = values
      const body: UserUpdate = { ...profile, tel: cleanTel(values.tel), gender: values.gender as UserUpdate["gender"] }
      if (isEmailChange(user.email, values.email)) body.currentPassword = currentPassword
      save.mutate(body, {
        onSuccess: (r) => {
          setMailSent(r.mailSent)
          // The saved profile still has the old address until the link is followed.
          reset(toForm(r.user))
        },
        onError: (e) => handleServerValidation(e, setError, labels, modals) || toast.showError(),
      })
    },
    (errs) => modals.openValidationErrors(
      Object.fromEntries(Object.entries(errs).map(([k, v]) => [k, [String(v?.message ?? '')]])), labels),
  )
  async function fillAddress() {
    const a = await lookupPostalCode(getValues('addressCountryCode') || 'JP', getValues('addressPostalCode'))
    if (!a) {
      setError('addressPostalCode', { type: 'lookup', message: t('postal.notFound') })
      return
    }
    // Only what the member left empty: a typed street line is theirs. The
    // server answers in the page's language (no kanji on an English or Thai
    // page: the prefecture in Latin letters, and no street).
    const stateAndCity = a.prefecture + a.city
    if (stateAndCity && !getValues('addressStateAndCity').trim()) setValue('addressStateAndCity', stateAndCity, { shouldValidate: true })
    if (a.street && !getValues('address1').trim()) setValue('address1', a.street, { shouldValidate: true })
  }
  async function checkMail() {
    setSuggestion(await mailSuggestion(getValues('email')))
  }
  const emailReg = register('email', { onBlur: () => void checkMail() })
  return (
    <section aria-labelledby="profile-heading">
      <h2 id="profile-heading">{t('account.profile')}</h2>
      <PendingEmailChange />
      <form onSubmit={onSubmit} noValidate>
        <Field label={t('fields.lastname')} required autoComplete="family-name" registration={register('lastname')} error={errors.lastname} />
        <Field label={t('fields.firstname')} required autoComplete="given-name" registration={register('firstname')} error={errors.firstname} />
        <SelectField label={t('fields.gender')} required registration={register('gender')} error={errors.gender} placeholder={t('select')}
          options={[{ value: 'male', label: t('gender.male') }, { value: 'female', label: t('gender.female') }]} />
          <DateField label={t('fields.birth')} required registration={register('birth')} error={errors.birth} />
          {/* The e-mail address, and beside it the password a change of it asks for: the field
              appears in its own place while a new address is typed, nothing else on the form moves. */}
          <div className="email-change">
            <Field label={t('fields.email')} type="email" required autoComplete="email" maxLength={100} registration={emailReg} error={errors.email} />
            {changingEmail && (
              <Field label={t('fields.currentPassword')} type="password" required autoComplete="current-password" maxLength={100}
                hint={t('emailChange.passwordHint')} registration={register('currentPassword')} error={errors.currentPassword} />
            )}
            {suggestion && (
              <p role="status" className="field__hint">
                {t('mailSuggest.didYouMean', { email: suggestion })}{' '}
                <button type="button" className="link-button" onClick={() => { setValue('email', suggestion, { shouldValidate: true }); setSuggestion(undefined) }}>
                  {t('mailSuggest.use')}
                </button>
              </p>
            )}
          </div>
          <Field label={t('fields.tel')} type="tel" inputMode="tel" required hint={t('hints.tel')} registration={register('tel')} error={errors.tel} />
          <SelectField label={t('fields.addressCountry')} required registration={register('addressCountryCode')} error={errors.addressCountryCode}
            options={countryOptions} placeholder={t('select')} />
          {/* "Find address" sits beside the postal code it reads. */}
          <div className="field-with-action">
            <Field label={t('fields.addressPostalCode')} required autoComplete="postal-code" registration={register('addressPostalCode')} error={errors.addressPostalCode} />
            <button type="button" className="button button--secondary" onClick={() => void fillAddress()}>{t('postal.lookup')}</button>
          </div>
          <Field label={t('fields.addressStateAndCity')} required registration={register('addressStateAndCity')} error={errors.addressStateAndCity} />
          <Field label={t('fields.address1')} registration={register('address1')} error={errors.address1} />
          <PassportFields register={register} errors={errors} countries={countryOptions} />
          <div className="field field--check">
            <label><input type="checkbox" {...register('optin1')} /> {t('fields.optin1')}</label>
          </div>
          <div className="field field--check">
            <label><input type="checkbox" {...register('autoLoginNoticeMail')} /> {t('fields.autoLoginNoticeMail')}</label>
          </div>
          <button type="submit" className="button button--primary" disabled={save.isPending}>{t('account.save')}</button>
        <SavedNotice mailSent={mailSent} />
      </form>
    </section>
  )
}

/** The way to the notification settings (which mails, in which language). */
function NotificationsLink() {
  const { t } = useTranslation('account')
  return (
    <section aria-labelledby="notifications-link-heading">
      <h2 id="notifications-link-heading">{t('notifications.mails')}</h2>
      <p>{t('notifications.linkHint')}</p>
      <AppLink to="/account/notifications" className="button button--secondary">{t('notifications.open')}</AppLink>
    </section>
  )
}

export function PasswordSection() {
  const { t } = useTranslation('account')
  const modals = useModals()
  const toast = useToast()
  const change = useChangePassword()
  const [mailSent, setMailSent] = useState<boolean | null>(null)
  const passwordResolver = useMemo(
    () => lazyResolver<PasswordForm>(() => Promise.all([import('../schemas'), import('@hookform/resolvers/zod')]).then(([s, { zodResolver }]) => zodResolver(s.passwordSchema(t)))),
    [t],
  )
  const { register, handleSubmit, setError, reset, formState: { errors } } = useForm<PasswordForm>({
    resolver: passwordResolver, defaultValues: { passwordOld: '', passwordNew: '', passwordReenter: '' },
  })
  const labels = {
    passwordOld: t('fields.passwordOld'), passwordNew: t('fields.passwordNew'), passwordReenter: t('fields.passwordReenter'),
    something: t('fields.something'),
  }
  const onSubmit = handleSubmit((values) => {
    setMailSent(null)
    change.mutate(values, {
      onSuccess: (r) => { reset(); setMailSent(r.mailSent) },
      onError: (e) => handleServerValidation(e, setError, labels, modals) || toast.showError(),
    })
  })
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">{t('password.title')}</h2>
      <form onSubmit={onSubmit} noValidate>
        <Field label={t('fields.passwordOld')} type="password" required autoComplete="current-password" maxLength={100} registration={register('passwordOld')} error={errors.passwordOld} />
        <Field label={t('fields.passwordNew')} type="password" required autoComplete="new-password" maxLength={100} hint={t('hints.password')} registration={register('passwordNew')} error={errors.passwordNew} />
        <Field label={t('fields.passwordReenter')} type="password" required autoComplete="new-password" maxLength={100} registration={register('passwordReenter')} error={errors.passwordReenter} />
        <button type="submit" className="button button--primary" disabled={change.isPending}>{t('password.submit')}</button>
        <SavedNotice mailSent={mailSent} />
      </form>
    </section>
  )
}
