import { useMemo, useRef, useState } from 'react'
import '../passes.css'
import { useForm, useWatch } from 'react-hook-form'
import { lazyResolver } from '@/components/lazyResolver'
import { useLang, useTranslation } from '@/i18n/translation'
import { formatPersonName } from '@/i18n/format'
import { usePassStatus } from '@/api/platform'
import { useGogoPassCatalogue, useMyPasses, type GogoPassEntry } from '../api'
import type { EntryForm } from '../schemas'
import { PlanChooser } from '../components/PlanChooser'
import { LotteryState, entryState } from '../components/LotteryState'
import { PurchaseSlot } from '../components/PurchaseSlot'
import { DateRangeText, MaintenanceNotice, Money, PassNav } from '../components/common'
import { useSession } from '@/app/session/SessionProvider'
import { PageHeader } from '@/components/PageHeader'
import { SentOrderCheck, keptSale, useReturnToSentOrder } from '@/features/payment'
import { useLocation } from 'react-router'

/** Unlimited pass purchase: plan choice, then the payment panel. */
export default function GogoPassPage() {
  // Back from a payment this page sent: that payment's result, not a blank form
  const returning = useReturnToSentOrder()
  const { t } = useTranslation('passes')
  const lang = useLang()
  const status = usePassStatus()
  const { user } = useSession()
  const catalogue = useGogoPassCatalogue(status.isGogoPassPublic)
  // zod and the rules load on the form's first validation, not with the page (docs/speed.md)
  const resolver = useMemo(
    () => lazyResolver<EntryForm>(() => Promise.all([import('../schemas'), import('@hookform/resolvers/zod')]).then(([s, { zodResolver }]) => zodResolver(s.entrySchema((k) => t(`errors.${k}`))))),
    [t],
  )
  // "Start again" after a declined payment (?again): the plan, period and fare sent last
  const location = useLocation()
  const [kept] = useState(() => keptSale('gogo_pass', location.search))
  const form = useForm<EntryForm>({
    resolver,
    defaultValues: { planId: kept?.planId ?? '', periodId: kept?.periodId ?? '', ...(kept?.fareType === 'happy' || kept?.fareType === 'happlus' ? { fareType: kept.fareType } : {}) },
  })
  const periodId = useWatch({ control: form.control, name: 'periodId' })
  const fareType = useWatch({ control: form.control, name: 'fareType' })
  const c = catalogue.data
  const plan = c?.gogoPasses.find((p) => p.periods.some((pe) => pe.id === periodId))
  const period = plan?.periods.find((pe) => pe.id === periodId)
  const maintenance = status.isGogoPassMaintenance || c?.maintenance
  const mine = useMyPasses()
  const lottery = status.isGogoPassLotteryPhase
  // In the lottery phase only a pass the member won (and has not bought)
  // can be picked; before the draw none can.
  const buyable = useMemo(() => {
    if (!lottery) return undefined
    const passes = mine.data?.gogoPasses ?? []
    return new Set((c?.wins ?? []).filter((w) => entryState(w, passes) === 'won').map((w) => w.periodId))
  }, [lottery, c?.wins, mine.data?.gogoPasses])
  // one pass a period: the periods held are marked on the picker, not offered
  const held = useMemo(() => new Set((mine.data?.gogoPasses ?? []).map((p) => p.periodId)), [mine.data?.gogoPasses])
  const summaryRef = useRef<HTMLDivElement>(null)
  function buyWon(e: GogoPassEntry) {
    form.setValue('planId', e.planId, { shouldValidate: true })
    form.setValue('periodId', e.periodId, { shouldValidate: true })
    form.setValue('fareType', e.fareType, { shouldValidate: true })
    window.setTimeout(() => summaryRef.current?.scrollIntoView?.({ behavior: 'smooth', block: 'start' }), 0)
  }

  if (returning) return <SentOrderCheck title={t('gogo.title')} />
  return (
    <div className="page passes">
      <PageHeader title={t('gogo.title')} />
      <p className="pass-lead">{t('gogo.lead')}</p>
      <PassNav />
      {!status.isGogoPassPublic ? (
        <p className="card">{t('gogo.notPublic')}</p>
      ) : maintenance ? (
        <MaintenanceNotice />
      ) : (
        <>
          {lottery && (
            <LotteryState entries={mine.data?.entries ?? []} passes={mine.data?.gogoPasses ?? []} drawAt={status.lotteryDrawAt} onBuy={buyWon} />
          )}
          {catalogue.isLoading && <p>{t('loading')}</p>}
          {catalogue.isError && <p className="form__error">{t('loadError')}</p>}
          {c && c.gogoPasses.length === 0 && <p className="card">{t('gogo.none')}</p>}
          {c && c.gogoPasses.length > 0 && (!buyable || buyable.size > 0) && (
            <form className="form" onSubmit={(e) => e.preventDefault()} aria-label={t('gogo.choose')}>
              <h2>{t('gogo.choose')}</h2>
              <PlanChooser plans={c.gogoPasses} form={form} selectable={buyable} held={held} />
            </form>
          )}
          <div ref={summaryRef} />
          {plan && period && fareType && (
            <section className="card pass-summary" aria-labelledby="pass-summary">
              <h2 id="pass-summary">{t('gogo.summary')}</h2>
              <dl className="pass-facts">
                <dt>{t('gogo.product')}</dt>
                <dd>
                  {plan.name} ({plan.nameAlt})
                </dd>
                <dt>{t('plan.board')}</dt>
                <dd>
                  <DateRangeText range={period.availablePeriodToBoard} />
                </dd>
                <dt>{t('plan.book')}</dt>
                <dd>
                  <DateRangeText range={period.availablePeriodToBook} />
                </dd>
                <dt>{t('plan.fareType')}</dt>
                <dd>
                  <strong>{t(`fare.${fareType}`)}</strong>
                  <span className="pass-muted pass-fact__hint">{t(`fareHints.${fareType}`)}</span>
                </dd>
                <dt>{t('gogo.passenger')}</dt>
                <dd>
                  {formatPersonName(user?.firstname, user?.lastname, lang)}
                  <span className="pass-muted pass-fact__hint">{t('gogo.passengerHint')}</span>
                </dd>
                <dt>{t('gogo.price')}</dt>
                <dd className="pass-total">
                  <strong>
                    <Money amount={period.price[fareType]} currency={period.currencyCode} />
                  </strong>
                </dd>
              </dl>
              {!c?.purchasable && <p className="form__error">{t('gogo.notPurchasable')}</p>}
            </section>
          )}
          {c?.purchasable && plan && period && fareType && (
            <PurchaseSlot productType="gogo_pass" currency={period.currencyCode} amount={period.price[fareType]}
              productFields={{ planId: plan.id, periodId: period.id, fareType }} />
          )}
        </>
      )}
    </div>
  )
}
