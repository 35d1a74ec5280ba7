import { useTranslation, useLang } from '@/i18n/translation'
import { useToast } from '@/app/toast'
import { onlineShopUrl } from '@/app/externalLinks'
import { useRegisterOnlineShop, type User } from '../api'

/**
 * The online-shop link of the account (the profile's
 * onlineShopAccountStatus): its status, the button that links the account
 * while it is not linked, and the way to the shop once it is.
 */
export function OnlineShopSection({ user }: { user: User }) {
  const { t } = useTranslation('account')
  const lang = useLang()
  const toast = useToast()
  const link = useRegisterOnlineShop()
  const linked = (link.data?.onlineShopAccountStatus ?? user.onlineShopAccountStatus) === 'registered'
  return (
    <section aria-labelledby="online-shop-heading" className="online-shop">
      <h2 id="online-shop-heading" className="online-shop__title">
        {t('onlineShop.title')}{' '}
        <span className={linked ? 'chip chip--ok' : 'chip chip--muted'} data-testid="online-shop-status">
          {linked ? t('onlineShop.linked') : t('onlineShop.notLinked')}
        </span>
      </h2>
      <p>{linked ? t('onlineShop.linkedText') : t('onlineShop.text')}</p>
      <div className="actions">
        {linked ? (
          <a className="button button--secondary" href={onlineShopUrl(lang)}>
            {t('onlineShop.open')}
          </a>
        ) : (
          <button type="button" className="button button--primary" disabled={link.isPending}
            onClick={() => link.mutate(undefined, { onError: () => toast.showError() })}>
            {t('onlineShop.link')}
          </button>
        )}
      </div>
    </section>
  )
}
