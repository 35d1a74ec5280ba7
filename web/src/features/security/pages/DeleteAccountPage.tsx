import '../security.css'
import { useState } from 'react'
import { useParams } from 'react-router'
import { useLang, useTranslation } from '@/i18n/translation'
import { formatMoney } from '@/i18n/format'
import { AppLink } from '@/app/routing/AppLink'
import { useToast } from '@/app/toast'
import { ApiError } from '@/api/errors'
import { useConfirmDeletion, useDeletionLink, useDeletionLosses, type DeletionLosses } from '../api'
import { WhatGoesWhatStays } from '../components/WhatGoesWhatStays'
import { PageHeader } from '@/components/PageHeader'
import { eraseKeptTripsIfAny } from '@/app/pwa/keptFlag'
import { forgetPushIfAny } from '@/app/pwa/pushChoice'

/** Errors of the confirmation the page answers itself (the losses are fetched again). */
const LOSS_ERRORS = ['account_deletion_payment_pending', 'account_deletion_unconfirmed']

/**
 * /delete-account/:token — the mailed link: says again what goes and what stays,
 * names a payment still in flight (deletion waits for it), lists the refundable
 * coupon passes and point balances that will be lost and has the member tick
 * each one by name, then deletes.
 */
export default function DeleteAccountPage() {
  const { t } = useTranslation('security')
  const { token = '' } = useParams()
  const lang = useLang()
  const toast = useToast()
  const link = useDeletionLink(token)
  const losses = useDeletionLosses(link.isSuccess)
  const confirm = useConfirmDeletion()
  const [acked, setAcked] = useState<ReadonlySet<string>>(new Set())
  const [refusal, setRefusal] = useState<string | null>(null)

  const items = losses.data ? [...losses.data.coupons.map((c) => c.ack), ...losses.data.points.map((p) => p.ack)] : []
  const allAcked = items.every((a) => acked.has(a))
  const blocked = !losses.data || losses.data.pendingPayment !== null || !allAcked

  const toggle = (ack: string) =>
    setAcked((prev) => {
      const next = new Set(prev)
      if (next.has(ack)) next.delete(ack)
      else next.add(ack)
      return next
    })

  const onDelete = () => {
    setRefusal(null)
    confirm.mutate(
      { token, acknowledged: items.filter((a) => acked.has(a)) },
      {
        // The session is gone with the account: a full load starts the app afresh.
        // The trips kept on this device go with it (docs/offline.md), and its flight change alerts.
        onSuccess: () =>
          void Promise.all([eraseKeptTripsIfAny().catch(() => undefined), forgetPushIfAny().catch(() => undefined)])
            .finally(() => window.location.assign(`/account-deleted?lang=${lang}`)),
        onError: (e) => {
          if (e instanceof ApiError && e.errorKey && LOSS_ERRORS.includes(e.errorKey)) {
            setRefusal(e.serverMessage ?? t('deletion.refused'))
            void losses.refetch()
            return
          }
          toast.showError()
        },
      },
    )
  }

  return (
    <div className="page delete-account">
      <PageHeader title={t('deletion.confirmTitle')} />
      {link.isPending || (link.isSuccess && losses.isPending) ? (
        <p role="status">{t('deletion.checking')}</p>
      ) : link.isError ? (
        <section className="card">
          <p className="form__error" role="alert">
            {t('deletion.linkInvalid')}
          </p>
          <AppLink to="/your-data" className="button">
            {t('deletion.backToData')}
          </AppLink>
        </section>
      ) : (
        <section className="card danger-zone" aria-labelledby="confirm-title">
          <h2 id="confirm-title">{t('deletion.confirmHeading')}</h2>
          {losses.isError ? (
            <p className="form__error" role="alert">
              {t('deletion.lossesFailed')}
            </p>
          ) : losses.data ? (
            <Losses losses={losses.data} acked={acked} onToggle={toggle} />
          ) : null}
          <WhatGoesWhatStays />
          <p>{t('deletion.final')}</p>
          {refusal ? (
            <p className="form__error" role="alert">
              {refusal}
            </p>
          ) : null}
          <div className="button-row">
            <button type="button" className="button button--danger" onClick={onDelete} disabled={confirm.isPending || blocked}>
              {t('deletion.confirm')}
            </button>
            <AppLink to="/" className="button">
              {t('deletion.keep')}
            </AppLink>
          </div>
          {losses.data && losses.data.pendingPayment === null && !allAcked ? (
            <p className="deletion-losses__hint">{t('deletion.tickEach')}</p>
          ) : null}
        </section>
      )}
    </div>
  )
}

type LossesProps = {
  losses: DeletionLosses
  acked: ReadonlySet<string>
  onToggle: (ack: string) => void
}

/** The payment in flight (with a link to its status page) and one checkbox per loss, named. */
function Losses({ losses, acked, onToggle }: LossesProps) {
  const { t } = useTranslation('security')
  const lang = useLang()
  const pending = losses.pendingPayment
  const hasLosses = losses.coupons.length + losses.points.length > 0
  return (
    <>
      {pending ? (
        <div className="deletion-pending" role="alert">
          <h3>{t('deletion.pendingTitle')}</h3>
          <p>{t('deletion.pendingText')}</p>
          <AppLink to={`/payment/${pending.productType}/${pending.paymentProcessId}/result`} className="button">
            {t('deletion.pendingLink')}
          </AppLink>
        </div>
      ) : null}
      {hasLosses ? (
        <fieldset className="deletion-losses">
          <legend>{t('deletion.lossesTitle')}</legend>
          <p className="deletion-losses__lead">{t('deletion.lossesLead')}</p>
          <ul>
            {losses.coupons.map((c) => (
              <li key={c.ack}>
                <label>
                  <input type="checkbox" checked={acked.has(c.ack)} onChange={() => onToggle(c.ack)} />
                  <span>
                    {t('deletion.lostCoupon', { name: c.name, amount: formatMoney(c.refundAmount, c.currencyCode, lang) })}
                  </span>
                </label>
              </li>
            ))}
            {losses.points.map((p) => (
              <li key={p.ack}>
                <label>
                  <input type="checkbox" checked={acked.has(p.ack)} onChange={() => onToggle(p.ack)} />
                  <span>{t('deletion.lostPoints', { amount: formatMoney(p.amount, p.currencyCode, lang) })}</span>
                </label>
              </li>
            ))}
          </ul>
          {losses.coupons.length > 0 ? (
            <p>
              <AppLink to="/my-passes">{t('deletion.refundFirst')}</AppLink>
            </p>
          ) : null}
        </fieldset>
      ) : null}
    </>
  )
}
