import { forwardRef, type AnchorHTMLAttributes, type ReactNode } from 'react'
import { Link, useLocation } from 'react-router'
import { useLang } from '@/i18n/translation'
import { isCurrentPage, withLang } from './paths'

export interface AppLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** An app path such as "/account" or "/bookings?pnr=X"; lang is added. */
  to: string
  replace?: boolean
  children?: ReactNode
}

/**
 * The app's internal link: carries the lang query parameter, and renders inert
 * (no href, aria-current="page") when it points at the page being shown.
 */
export const AppLink = forwardRef<HTMLAnchorElement, AppLinkProps>(function AppLink({ to, replace, children, className, ...rest }, ref) {
  const location = useLocation()
  const lang = useLang()
  if (isCurrentPage(to, location)) {
    return (
      <a ref={ref} aria-current="page" className={`${className ?? ''} is-current`.trim()} {...rest}>
        {children}
      </a>
    )
  }
  return (
    <Link ref={ref} to={withLang(to, lang)} replace={replace} className={className} {...rest}>
      {children}
    </Link>
  )
})
