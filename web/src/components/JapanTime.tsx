import { useTranslation, useLang } from '@/i18n/translation'
import { formatDateTime } from '@/i18n/format'

/**
 * True when the browser's clock shows Japan time (UTC+9) at that instant:
 * Japan has no daylight saving, so the offset there tells.
 */
export function browserIsInJapanTime(at: Date): boolean {
  return at.getTimezoneOffset() === -540
}

/**
 * An instant as every page, mail and PDF writes it: the language's date and
 * a 24-hour clock in Japan time (formatDateTime), with "Japan time" in the
 * member's language after it when the browser's own clock is elsewhere, so
 * a member abroad does not read it as their own time.
 */
export function formatJapanTime(value: string | Date, lang: Parameters<typeof formatDateTime>[1], label: (time: string) => string): string {
  const at = new Date(value)
  const time = formatDateTime(at, lang)
  if (!time) return ''
  return browserIsInJapanTime(at) ? time : label(time)
}

/** A hook form of formatJapanTime for the page's language. */
export function useJapanTime(): (value: string | Date) => string {
  const { t } = useTranslation('common')
  const lang = useLang()
  return (value) => formatJapanTime(value, lang, (time) => t('time.japan', { time }))
}

/** formatJapanTime in a <time> element (its machine-readable instant in dateTime). */
export function JapanTime({ value }: { value: string }) {
  const format = useJapanTime()
  const at = new Date(value)
  if (Number.isNaN(at.getTime())) return null
  return <time dateTime={at.toISOString()}>{format(at)}</time>
}
