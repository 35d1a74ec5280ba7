import '../account.css'
import { useEffect, useRef } from 'react'
import { useParams } from 'react-router'
import { useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { PageHeader } from '@/components/PageHeader'
import { ApiError } from '@/api/errors'
import { useEmailChangeLink } from '../api'

/**
 * /email-change/confirm/:token and /email-change/undo/:token: the links
 * mailed for an e-mail change. They work without a session; each is
 * followed once, when the page opens.
 */
export default function EmailChangeLinkPage({ kind }: { kind: 'confirm' | 'undo' }) {
  const { t } = useTranslation('account')
  const { token = '' } = useParams()
  const follow = useEmailChangeLink(kind)
  const sent = useRef(false)
  useEffect(() => {
    // Once per page: a second call would find the link used.
    if (sent.current) return
    sent.current = true
    follow.mutate(token)
  }, [follow, token])
  const invalid = follow.error instanceof ApiError && follow.error.status === 404
  return (
    <div className="page email-change-page">
      {/* Once done the heading (and the tab's title) says what happened, not what to do. */}
      <PageHeader title={follow.isSuccess ? t(`emailChange.${kind}DoneTitle`) : t(`emailChange.${kind}Title`)} />
      {follow.isPending || follow.isIdle ? <p>{t('loading')}</p> : null}
      {follow.isSuccess && (
        <>
          <p role="status" className="notice notice--ok">{t(`emailChange.${kind}Done`, { email: follow.data.email })}</p>
          {kind === 'undo'
            ? <AppLink to="/reset-password">{t('emailChange.setPassword')}</AppLink>
            : <AppLink to="/account">{t('emailChange.toAccount')}</AppLink>}
        </>
      )}
      {follow.isError && (
        <p role="alert" className="notice notice--warn">
          {invalid ? t('emailChange.invalid') : follow.error instanceof ApiError && follow.error.status === 409 ? t('emailChange.taken') : t('emailChange.failed')}
        </p>
      )}
    </div>
  )
}
