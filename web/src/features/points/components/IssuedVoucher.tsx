import { useLang, useTranslation } from '@/i18n/translation'
import type { Peachpoint } from '../api'
import { Money } from './Money'
import { formatDate } from '@/i18n/format'

/** A newly issued voucher with its PIN, shown this once. */
export function IssuedVoucher({ voucher, pin }: { voucher: Peachpoint; pin: string }) {
  const { t } = useTranslation('points')
  const lang = useLang()
  return (
    <div className="issued">
      <dl className="issued__list">
        <div>
          <dt>{t('issued.number')}</dt>
          <dd className="issued__code" data-testid="issued-number">
            {voucher.pointNumber}
          </dd>
        </div>
        <div>
          <dt>{t('issued.pin')}</dt>
          <dd className="issued__code" data-testid="issued-pin">
            {pin}
          </dd>
        </div>
        <div>
          <dt>{t('issued.amount')}</dt>
          <dd>
            <Money amount={voucher.balance} currency={voucher.currency} />
          </dd>
        </div>
        <div>
          <dt>{t('issued.expireDate')}</dt>
          <dd>{formatDate(voucher.expireDate, lang)}</dd>
        </div>
      </dl>
      <p className="issued__note">{t('issued.keepPin')}</p>
    </div>
  )
}
