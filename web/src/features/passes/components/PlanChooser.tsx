import { useTranslation } from '@/i18n/translation'
import { AppLink } from '@/app/routing/AppLink'
import { useWatch, type UseFormReturn } from 'react-hook-form'
import type { GogoPassPlan } from '../api'
import type { EntryForm } from '../schemas'
import { DateRangeText, Money } from './common'

/**
 * The plans with their periods (boarding and booking windows) and the two
 * fare types with their prices; the member picks a period and a fare type.
 */
export function PlanChooser({ plans, form, selectable, held }: {
  plans: GogoPassPlan[]
  form: UseFormReturn<EntryForm>
  /** The periods that can be picked (the lottery's won ones); all when absent. */
  selectable?: ReadonlySet<string>
  /** The periods the member holds a pass of: marked, with a link to My passes, and not offered (one pass a period). */
  held?: ReadonlySet<string>
}) {
  const { t } = useTranslation('passes')
  const { register, setValue, formState, control } = form
  const periodId = useWatch({ control, name: 'periodId' })
  const fareType = useWatch({ control, name: 'fareType' })
  return (
    <div className="plan-list">
      {plans.map((plan) => (
        <fieldset key={plan.id} className="card plan">
          <legend className="plan__name">
            <span>{plan.name}</span>
            <span className="plan__alt">{plan.nameAlt}</span>
          </legend>
          {plan.periods.map((p) => {
            const owned = held?.has(p.id) ?? false
            const closed = owned || (selectable !== undefined && !selectable.has(p.id))
            return (
            <div key={p.id} className={`period ${periodId === p.id ? 'period--chosen' : ''}${closed ? ' period--closed' : ''}`}>
              <label className="period__choice">
                <input
                  type="radio"
                  value={p.id}
                  disabled={closed}
                  aria-describedby={owned ? `held-${p.id}` : undefined}
                  checked={periodId === p.id}
                  onChange={() => {
                    setValue('planId', plan.id, { shouldValidate: true })
                    setValue('periodId', p.id, { shouldValidate: true })
                  }}
                />
                <span>
                  <span className="period__line">
                    {t('plan.board')}: <DateRangeText range={p.availablePeriodToBoard} />
                  </span>
                  <span className="period__line pass-muted">
                    {t('plan.book')}: <DateRangeText range={p.availablePeriodToBook} />
                  </span>
                </span>
              </label>
              {owned && (
                <p className="period__held" id={`held-${p.id}`}>
                  <span className="period__held-badge">{t('plan.held')}</span> <AppLink to="/my-passes">{t('plan.heldLink')}</AppLink>
                </p>
              )}
              <div className="fares" role="radiogroup" aria-label={t('plan.fareType')}>
                {(['happy', 'happlus'] as const).map((f) => (
                  <label key={f} className={`fare ${periodId === p.id && fareType === f ? 'fare--chosen' : ''}`}>
                    <input
                      type="radio"
                      {...register('fareType')}
                      value={f}
                      disabled={closed}
                      onChange={(e) => {
                        setValue('planId', plan.id, { shouldValidate: true })
                        setValue('periodId', p.id, { shouldValidate: true })
                        setValue('fareType', e.target.value as EntryForm['fareType'], { shouldValidate: true })
                      }}
                      checked={periodId === p.id && fareType === f}
                    />
                    <span className="fare__name">{t(`fare.${f}`)}</span>
                    <span className="fare__price">
                      <Money amount={p.price[f]} currency={p.currencyCode} />
                    </span>
                  </label>
                ))}
              </div>
            </div>
            )
          })}
        </fieldset>
      ))}
      {(formState.errors.periodId || formState.errors.fareType) && (
        <p className="field__error" role="alert">
          {t('plan.choose')}
        </p>
      )}
    </div>
  )
}
