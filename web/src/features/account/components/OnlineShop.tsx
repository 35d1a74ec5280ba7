import { useTranslation, useLang } from '@/i18n/translation'
import { useToast } from '@/app/toast'
import { ONLINE_SHOP_URL, onlineShopUrl } from '@/app/externalLinks'
import { AIRLINE_NAME } from '@/brand'
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
          // The link names the shop and says that it leaves this site
          // (WCAG 3.2.5 advice): both in its visible text, so in its name too.
          <a className="button button--secondary online-shop__link" href={onlineShopUrl(lang)} rel="noopener">
            <span>{t('onlineShop.open', { airline: AIRLINE_NAME })}</span>{' '}
            <span className="online-shop__site">{t('onlineShop.otherSite', { host: new URL(ONLINE_SHOP_URL).host })}</span>
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
