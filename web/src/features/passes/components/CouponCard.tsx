import { useLang, useTranslation } from '@/i18n/translation'
import { Dialog } from '@/components/Dialog'
import { ApiError } from '@/api/errors'
import { useModals } from '@/app/modals/modalContext'
import { formatDate, formatDateTime, formatMoney, formatPersonName, pluralKey } from '@/i18n/format'
import { useRefundCoupon, type PurchasedCoupon } from '../api'
import { COUPON_REFUND_FEE_PER_ITEM, couponPlanOf } from '../rules'
import { DateRangeText, Money } from './common'

/** A purchased coupon pass with every display field and its refund. */
export function CouponCard({ coupon: c }: { coupon: PurchasedCoupon }) {
  const { t } = useTranslation('passes')
  const lang = useLang()
  const modals = useModals()
  const refund = useRefundCoupon()
  const cur = c.currencyCode

  const confirmRefund = () =>
    modals.open((close, active) => (
      <Dialog
        title={t('refund.title')}
        active={active}
        onDismiss={close}
        actions={
          <>
            <button type="button" className="button button--secondary" onClick={close}>{t('refund.cancel')}</button>
            <button type="button" className="button button--primary" data-autofocus onClick={() => { close(); doRefund() }}>{t('refund.confirm')}</button>
          </>
        }
      >
        <p>{t('refund.question', { name: c.name })}</p>
        <dl className="pass-facts">
          <dt>{t('coupon.totalPaid')}</dt>
          <dd><Money amount={c.purchasedPrice} currency={cur} /></dd>
          <dt>{t('coupon.refundFee')}</dt>
          <dd><Money amount={c.refundFee} currency={cur} /> ({t('refund.feeRule', { fee: formatMoney(COUPON_REFUND_FEE_PER_ITEM, 'JPY', lang), n: c.items })})</dd>
          <dt>{t('coupon.refundAmount')}</dt>
          <dd><strong><Money amount={c.refundAmount} currency={cur} /></strong></dd>
        </dl>
        <p className="pass-muted">{t('refund.warning')}</p>
      </Dialog>
    ))

  const doRefund = () => {
    const id = modals.openLoading()
    refund.mutate(c.id, {
      onSuccess: () => modals.open((close, active) => (
        <Dialog title={t('refund.doneTitle')} active={active} onDismiss={close}
          actions={<button type="button" className="button button--primary" onClick={close}>{t('close')}</button>}>
          <p>{t('refund.done')}</p>
        </Dialog>
      )),
      // a refund refused (already refunded, not refundable) says why under its own title, not "System error occurred."
      onError: (e) => modals.openError(e instanceof ApiError && e.status === 409 && e.serverMessage
        ? { title: t('refund.failedTitle'), message: e.serverMessage }
        : { error: e }),
      onSettled: () => modals.close(id),
    })
  }

  return (
    <article className={`card coupon ${c.disabled ? 'coupon--disabled' : ''}`} aria-labelledby={`coupon-${c.id}`}>
      <header className="pass-card__head">
        <h3 id={`coupon-${c.id}`}>{c.name}</h3>
        {c.disabled && <span className="badge badge--muted">{t('coupon.refunded')}</span>}
      </header>
      <p className="pass-muted">{c.description}</p>
      <dl className="pass-facts">
        <dt>{t('coupon.travelPeriod')}</dt>
        <dd><DateRangeText range={c.availablePeriodToBoard} /></dd>
        <dt>{t('coupon.bookingPeriod')}</dt>
        <dd><DateRangeText range={c.availablePeriodToBook} /></dd>
        <dt>{t('coupon.daysAfterFirstUse')}</dt>
        <dd>{t(pluralKey('coupon.days', c.availableDaysAfterFirstUse, lang), { n: c.availableDaysAfterFirstUse })}</dd>
        <dt>{t('plan.fareType')}</dt>
        <dd>{t(`plan.${couponPlanOf(c.fareType)}`)}</dd>
        <dt>{t('coupon.segments')}</dt>
        <dd>{t(pluralKey('coupon.usesLeft', c.availableNumberOfUse, lang), { left: Math.max(0, c.availableNumberOfUse - c.numberOfUsed), n: c.availableNumberOfUse })}</dd>
        <dt>{t('coupon.pricePerPerson')}</dt>
        <dd><Money amount={c.pricePerPerson} currency={cur} /></dd>
        <dt>{t('coupon.totalPaid')}</dt>
        <dd><Money amount={c.purchasedPrice} currency={cur} /></dd>
        <dt>{t('coupon.refundFee')}</dt>
        <dd><Money amount={c.refundFee} currency={cur} /></dd>
        <dt>{t('coupon.refundAmount')}</dt>
        <dd><Money amount={c.refundAmount} currency={cur} /></dd>
        <dt>{t('coupon.purchasedAt')}</dt>
        <dd>{formatDateTime(c.purchasedAt, lang)}</dd>
        <dt>{t('coupon.purchaserTitle')}</dt>
        <dd>{formatPersonName(c.purchaser.firstname, c.purchaser.lastname, lang)} · {formatDate(c.purchaser.birthday, lang)}</dd>
        {c.passengers.map((p, i) => (
          <div key={i} className="pass-facts__row">
            <dt>{t('passenger.title', { position: i + 2 })}</dt>
            <dd>{formatPersonName(p.firstname, p.lastname, lang)} · {t(`passenger.${p.passengerType ?? 'adult'}`)}</dd>
          </div>
        ))}
      </dl>
      {!c.disabled && c.refundable && (
        <button type="button" className="button button--secondary" onClick={confirmRefund} disabled={refund.isPending}>{t('refund.button')}</button>
      )}
      {!c.disabled && !c.refundable && <p className="pass-muted">{t('refund.notRefundable')}</p>}
    </article>
  )
}
