import '../connect.css'
import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'
import { useTranslation } from '@/i18n/translation'
import { pageNavigation } from '@/app/pageNavigation'
import { PageHeader } from '@/components/PageHeader'
import { useDecideOidcRequest, useOidcRequest } from '../api'

/**
 * /connect?request=ID — another site asks to sign the member in with this
 * account (OpenID Connect). A first-party site, or one the member allowed
 * before, goes straight on; any other shows what it will receive and asks.
 * The answer goes to the server (with the CSRF token, as every call), which
 * says where the browser goes: on to the site with a code, or back to it.
 */
export default function ConnectPage() {
  const { t } = useTranslation('connect')
  const location = useLocation()
  const id = new URLSearchParams(location.search).get('request') ?? ''
  const request = useOidcRequest(id)
  const decide = useDecideOidcRequest(id)
  const started = useRef(false)

  const answer = (approve: boolean) =>
    decide.mutate(approve, {
      onSuccess: (to) => pageNavigation.assign(to),
    })

  const straightOn = request.data !== undefined && !request.data.consentNeeded
  useEffect(() => {
    if (!straightOn || started.current) return
    started.current = true
    answer(true)
    // Once per page load: the request is decided once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [straightOn])

  if (id === '' || request.isError) {
    return (
      <div className="page page--narrow connect">
        <PageHeader title={t('expiredTitle')} />
        <section className="card">
          <p role="alert">{t('expiredText')}</p>
        </section>
      </div>
    )
  }
  const client = request.data?.clientName ?? ''
  if (!request.data || straightOn || decide.isSuccess) {
    return (
      <div className="page page--narrow connect">
        <PageHeader title={client ? t('title', { client }) : t('loading')} />
        <section className="card">
          {decide.isError ? (
            <p className="form__error" role="alert">
              {t('error')}
            </p>
          ) : (
            <p role="status">{client ? t('continuing', { client }) : t('loading')}</p>
          )}
        </section>
      </div>
    )
  }
  return (
    <div className="page page--narrow connect">
      <PageHeader title={t('title', { client })} />
      <section className="card connect__consent" aria-labelledby="connect-lead">
        <p id="connect-lead">{t('consentLead', { client })}</p>
        <ul className="connect__scopes">
          {request.data.scopes.map((s) => (
            <li key={s}>{t(`scope.${s}`)}</li>
          ))}
        </ul>
        <p className="field__hint">{t('takeBack')}</p>
        {decide.isError && (
          <p className="form__error" role="alert">
            {t('error')}
          </p>
        )}
        <div className="button-row">
          <button type="button" className="button button--primary" disabled={decide.isPending} onClick={() => answer(true)}>
            {t('allow')}
          </button>
          <button type="button" className="button button--secondary" disabled={decide.isPending} onClick={() => answer(false)}>
            {t('deny')}
          </button>
        </div>
      </section>
    </div>
  )
}
