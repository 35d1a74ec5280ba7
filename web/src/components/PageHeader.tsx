import type { ReactNode } from 'react'
import { useDocumentTitle } from './useDocumentTitle'

/**
 * The one page title of the product (one size everywhere, class page-title)
 * with optional actions beside it, and the browser-tab title
 * "<title> | <brand>" in the member's language (documentTitle instead of
 * the heading where the heading does not name the page: the home page's
 * greeting).
 */
export function PageHeader({ title, documentTitle, actions, children }: { title: string; documentTitle?: string; actions?: ReactNode; children?: ReactNode }) {
  useDocumentTitle(documentTitle ?? title)
  return (
    <div className="page-header">
      <h1 className="page-title">{title}</h1>
      {actions && <div className="page-header__actions">{actions}</div>}
      {children}
    </div>
  )
}
