import { Suspense, lazy, useEffect, useMemo, useState, type FormEvent } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { useForm } from 'react-hook-form'
import { useLang, useTranslation } from '@/i18n/translation'
import { ApiError } from '@/api/errors'
import { sessionInfoQuery, useLoginMutation } from '@/api/platform'
import { endedElsewhereUntold, markEndedElsewhereTold } from '@/api/sessionHint'
import { Field } from '@/components/Field'
import { handleServerValidation } from '@/components/serverValidation'
import { useModals } from '../modals/modalContext'
import { useSession } from '../session/SessionProvider'
import { AppLink } from '../routing/AppLink'
import { memberRegistrationUrl, privacyPolicyUrl, termsUrl } from '../externalLinks'
import { PageHeader } from '@/components/PageHeader'
import { PasskeySignIn } from '@/features/security/components/PasskeySignIn'
import { loginResolver, type LoginForm } from './loginForm'
import { keepsTrips } from '../pwa/keptFlag'

// "Your saved trips", on a device that keeps them only: its code is never part of the login page's first load.
const SavedTripsLink = lazy(() => import('@/features/bookings/offline/SavedTripsLink'))

/** /login: after success the route guard returns to ?redirect= (sanitised) or "/". */
export default function LoginPage() {
  const { t } = useTranslation()
  const lang = useLang()
  const modals = useModals()
  const session = useSession()
  const mutation = useLoginMutation()
  const [failure, setFailure] = useState<string | null>(null)
  const location = useLocation()
  const navigate = useNavigate()
  // The booking site sends the member back with ?sso=failed when its
  // silent OpenID Connect sign-on here failed: the message shows once, and
  // the flag leaves the address so a reload or a shared link does not
  // repeat it.
  const [ssoFailed, setSsoFailed] = useState(() => new URLSearchParams(location.search).get('sso') === 'failed')
  // Arriving from the logout button (router state, so a reload does not repeat it).
  const [loggedOut, setLoggedOut] = useState(() => (location.state as { loggedOut?: boolean } | null)?.loggedOut === true)
  // The session check of this page load found this device signed out by
  // the member from another one (the security centre): say so, not a
  // plain "log in", once. The server says so until a login on this device
  // replaces the ended session's cookie; a reload, or a page load after
  // the dialog of a page that said it, does not say it again (sessionHint).
  const qc = useQueryClient()
  const [signedOutElsewhere, setSignedOutElsewhere] = useState(() =>
    endedElsewhereUntold(qc.getQueryData(sessionInfoQuery.queryKey)?.signedOutElsewhere === true),
  )
  useEffect(() => {
    if (signedOutElsewhere) markEndedElsewhereTold()
  }, [signedOutElsewhere])
  useEffect(() => {
    const params = new URLSearchParams(location.search)
    if (!params.has('sso')) return
    params.delete('sso')
    navigate({ pathname: location.pathname, search: `?${params.toString()}` }, { replace: true })
  }, [location.pathname, location.search, navigate])
  // Another site sending the member here may name the address (OpenID
  // Connect's login_hint): it fills in the e-mail.
  const [hintedEmail] = useState(() => {
    const e = new URLSearchParams(location.search).get('email') ?? ''
    return /^[^\s@]+@[^\s@]+$/.test(e) && e.length <= 100 ? e : ''
  })
  const resolver = useMemo(() => loginResolver(t), [t])
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<LoginForm>({ resolver, defaultValues: { email: hintedEmail, password: '' } })

  const labels = { email: t('login.email'), password: t('login.password') }

  const submit = handleSubmit(async (values) => {
    try {
      await mutation.mutateAsync(values)
      await session.onLoggedIn()
    } catch (e) {
      if (handleServerValidation(e, setError, labels, modals)) return
      if (e instanceof ApiError && (e.status === 401 || e.status === 429)) {
        setFailure(e.serverMessage ?? t('login.failed'))
        // The pressed button was disabled while the form was sent, which
        // left the focus on nothing: it goes back to the password, selected,
        // to be typed again (the alert above is read out on its own).
        if (e.status === 401) setFocus('password', { shouldSelect: true })
        return
      }
      // A server or network error: the spec's "Login failed because an error has occurred. Please retry."
      setFailure(t('login.error'))
    }
  })
  // Every submit first clears the messages of the last attempt, even one the form's own rules stop.
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    setFailure(null)
    setSsoFailed(false)
    setLoggedOut(false)
    setSignedOutElsewhere(false)
    return submit(e)
  }

  return (
    <div className="page page--narrow">
      <PageHeader title={t('login.title')} />
      {keepsTrips() && (
        <Suspense fallback={null}>
          <SavedTripsLink />
        </Suspense>
      )}
      <form className="card form" onSubmit={onSubmit} noValidate aria-describedby={failure ? 'login-failure' : undefined}>
        {loggedOut && !failure && (
          <p className="form__success" role="status">
            {t('login.loggedOut')}
          </p>
        )}
        {signedOutElsewhere && !loggedOut && !failure && (
          <p className="form__notice" role="status">
            {t('sessionEndedElsewhere.text')}
          </p>
        )}
        {ssoFailed && !failure && (
          <p className="form__error" role="alert">
            {t('login.ssoFailed')}
          </p>
        )}
        {failure && (
          <p id="login-failure" className="form__error" role="alert">
            {failure}
          </p>
        )}
        <Field
          label={labels.email}
          type="email"
          autoComplete="username"
          inputMode="email"
          required
          registration={register('email')}
          error={errors.email}
        />
        <Field
          label={labels.password}
          type="password"
          autoComplete="current-password"
          required
          registration={register('password')}
          error={errors.password}
        />
        <button type="submit" className="button button--primary button--block" disabled={isSubmitting}>
          {isSubmitting ? t('login.submitting') : t('login.submit')}
        </button>
        <p className="form__aside">
          <AppLink to="/reset-password">{t('login.forgot')}</AppLink>
        </p>
      </form>
      <PasskeySignIn />
      <section className="card register" aria-labelledby="register-heading">
        <h2 id="register-heading">{t('login.registerTitle')}</h2>
        <p>{t('login.registerText')}</p>
        <a className="button button--secondary button--block" href={memberRegistrationUrl(lang)}>
          {t('login.register')}
        </a>
      </section>
      <p className="legal-links">
        <a href={termsUrl()}>{t('login.terms')}</a>
        <span aria-hidden="true"> · </span>
        <a href={privacyPolicyUrl()}>{t('login.privacy')}</a>
      </p>
    </div>
  )
}
