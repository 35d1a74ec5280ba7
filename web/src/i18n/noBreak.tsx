import type { ReactNode } from 'react'

const MARK = /<nobr>(.*?)<\/nobr>/gs

/**
 * Catalogue text with the terms it marks `<nobr>…</nobr>` kept on one line
 * (span.nowrap). Thai is written without spaces, so the browser breaks a
 * line where its dictionary sees a word end, and a loanword it does not
 * know is cut inside (อินเทอร์เน็ตแบงกิ้ง as อินเทอร์เน็ตแบ | งกิ้ง); the
 * catalogue marks such a term where a page renders its text through this.
 */
export function noBreak(text: string): ReactNode {
  if (!text.includes('<nobr>')) return text
  return text.split(MARK).map((part, i) => (i % 2 === 1 ? <span key={i} className="nowrap">{part}</span> : part))
}
