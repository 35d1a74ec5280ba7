import { useTranslation } from '@/i18n/translation'

/** The 3 payment steps of the display: details, confirmation, completion. */
export function PaymentSteps({ current }: { current: 1 | 2 | 3 }) {
  const { t } = useTranslation('payment')
  const steps = [t('steps.details'), t('steps.confirm'), t('steps.complete')]
  return (
    <ol className="payment-steps" aria-label={t('steps.label')}>
      {steps.map((label, i) => {
        const n = i + 1
        const state = n < current ? 'done' : n === current ? 'current' : 'todo'
        return (
          <li key={label} className={`payment-steps__step payment-steps__step--${state}`} aria-current={n === current ? 'step' : undefined}>
            <span className="payment-steps__num" aria-hidden="true">{n < current ? '✓' : n}</span>
            <span className="payment-steps__label">{label}</span>
          </li>
        )
      })}
    </ol>
  )
}
