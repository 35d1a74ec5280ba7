import type { ReactNode } from 'react'
import { useDocumentTitle } from './useDocumentTitle'

/**
 * The one page title of the product (one size everywhere, class page-title)
 * with optional actions beside it, and the browser-tab title
 * "<title> | <brand>" in the member's language.
 */
export function PageHeader({ title, actions, children }: { title: string; actions?: ReactNode; children?: ReactNode }) {
  useDocumentTitle(title)
  return (
    <div className="page-header">
      <h1 className="page-title">{title}</h1>
      {actions && <div className="page-header__actions">{actions}</div>}
      {children}
    </div>
  )
}
