import '../passes.css'
import { useTranslation } from '@/i18n/translation'
import { useMyCoupons, useMyPasses } from '../api'
import { CouponCard } from '../components/CouponCard'
import { PassCard } from '../components/PassCard'
import { DateRangeText, PassNav } from '../components/common'
import { PageHeader } from '@/components/PageHeader'

/** The member's passes, lottery entries and coupon passes (show purchased pass / coupon, refund). */
export default function MyPassesPage() {
  const { t } = useTranslation('passes')
  const passes = useMyPasses()
  const coupons = useMyCoupons()
  return (
    <div className="page passes">
      <PageHeader title={t('mine.title')} />
      <PassNav />
      <section aria-labelledby="mine-passes">
        <h2 id="mine-passes">{t('mine.passes')}</h2>
        {passes.isLoading && <p>{t('loading')}</p>}
        {passes.isError && <p className="form__error">{t('loadError')}</p>}
        {passes.data && passes.data.gogoPasses.length === 0 && <p>{t('mine.noPasses')}</p>}
        <div className="pass-grid">
          {passes.data?.gogoPasses.map((p) => <PassCard key={p.id} pass={p} />)}
        </div>
        {passes.data && passes.data.entries.length > 0 && (
          <>
            <h3>{t('lottery.myEntries')}</h3>
            <ul className="pass-list">
              {passes.data.entries.map((e) => (
                <li key={e.id}>
                  {e.name} · <DateRangeText range={e.availablePeriodToBoard} /> · {t(`fare.${e.fareType}`)} · <strong>{t(`result.${e.result}`)}</strong>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      <section aria-labelledby="mine-coupons">
        <h2 id="mine-coupons">{t('mine.coupons')}</h2>
        {coupons.isLoading && <p>{t('loading')}</p>}
        {coupons.isError && <p className="form__error">{t('loadError')}</p>}
        {coupons.data && coupons.data.couponTickets.length === 0 && <p>{t('mine.noCoupons')}</p>}
        <div className="pass-grid">
          {coupons.data?.couponTickets.map((c) => <CouponCard key={c.id} coupon={c} />)}
        </div>
      </section>
    </div>
  )
}
