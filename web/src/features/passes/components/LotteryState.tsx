import { useLang, useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { formatDateTime } from '@/i18n/format'
import type { GogoPassEntry, PurchasedGogoPass } from '../api'

/** Where one lottery entry stands: entered, won (to buy), bought, too late, lost. */
export type EntryState = 'entered' | 'won' | 'bought' | 'late' | 'lost'

export function entryState(e: GogoPassEntry, passes: PurchasedGogoPass[], now = Date.now()): EntryState {
  if (e.result === 'pending') return 'entered'
  if (e.result === 'lost') return 'lost'
  if (passes.some((p) => p.periodId === e.periodId)) return 'bought'
  if (e.buyUntil && new Date(e.buyUntil).getTime() <= now) return 'late'
  return 'won'
}

/**
 * The lottery phase on the pass page: each of the member's entries with
 * its state and the next step (wait for the draw, whose date is said;
 * buy the pass won; see it in My passes), or, without an entry, the way
 * to enter. Passes cannot be picked here unless one was won.
 */
export function LotteryState({ entries, passes, drawAt, onBuy }: {
  entries: GogoPassEntry[]
  passes: PurchasedGogoPass[]
  drawAt?: string
  onBuy: (e: GogoPassEntry) => void
}) {
  const { t } = useTranslation('passes')
  const lang = useLang()
  const draw = drawAt ? t('lotteryState.drawAt', { date: formatDateTime(drawAt, lang) }) : t('lotteryState.drawSoon')
  return (
    <section className="card pass-notice lottery-state" aria-labelledby="lottery-phase">
      <h2 id="lottery-phase">{t('gogo.lotteryPhase')}</h2>
      {entries.length === 0 ? (
        <>
          <p>{t('gogo.lotteryText')}</p>
          <p>{draw}</p>
          <p><AppLink to="/gogo-pass/lottery" className="button button--primary">{t('lotteryState.enter')}</AppLink></p>
        </>
      ) : (
        <ul className="lottery-state__list">
          {entries.map((e) => {
            const state = entryState(e, passes)
            const name = `${e.name} (${e.nameAlt}) · ${t(`fare.${e.fareType}`)}`
            return (
              <li key={e.id} className={`lottery-state__entry lottery-state__entry--${state}`}>
                <p><strong>{name}</strong> <span className="lottery-state__badge">{t(`lotteryState.${state}.badge`)}</span></p>
                <p>{t(`lotteryState.${state}.text`, { until: e.buyUntil ? formatDateTime(e.buyUntil, lang) : '', draw })}</p>
                {state === 'won' && (
                  <button type="button" className="button button--primary" onClick={() => onBuy(e)}>{t('lotteryState.buy')}</button>
                )}
                {state === 'bought' && <AppLink to="/my-passes" className="button button--secondary">{t('nav.myPasses')}</AppLink>}
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
