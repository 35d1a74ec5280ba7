import type { Lang } from './languages'
import { formatDate } from './format'

/**
 * Date entry in the member's language (one format per language
 * everywhere). A date field shows its value as the page writes dates
 * (formatDate: en "Nov 22, 2026", sg "22 Nov 2026", jp/cn/tw/hk
 * "2026年11月22日", kr "2026. 11. 22.", th "22 พ.ย. 2569") and accepts
 * that form back, plus what a member of that language types by hand:
 *
 * - every language: ISO "2026-11-22", "2026/11/22", "20261122";
 * - en: month names in either order, numbers month first ("11/22/2026");
 * - sg: month names in either order, numbers day first ("22/11/2026");
 * - jp cn tw hk kr: year first ("2026年11月22日", "2026.11.22", "2026. 11. 22.");
 * - th: day first, Thai month names, Buddhist-era years (2569) or
 *   common-era years (2026), Thai digits.
 *
 * Full-width (IME) and Thai digits count as digits. The form's value stays
 * ISO "YYYY-MM-DD".
 */
export function parseDateInput(text: string, lang: Lang): string | null {
  const s = normalise(text)
  if (s === '') return null
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(s) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(s)
  if (m) return ymd(m[1], m[2], m[3], lang)
  switch (lang) {
    case 'jp':
    case 'cn':
    case 'tw':
    case 'hk':
      m = /^(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日?$/.exec(s) ?? /^(\d{4})\s+(\d{1,2})\s+(\d{1,2})$/.exec(s)
      return m ? ymd(m[1], m[2], m[3], lang) : null
    case 'kr':
      m = /^(\d{4})\s*[.년]\s*(\d{1,2})\s*[.월]\s*(\d{1,2})\s*[.일]?$/.exec(s)
      return m ? ymd(m[1], m[2], m[3], lang) : null
    case 'en':
    case 'sg': {
      m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s)
      if (m) return lang === 'en' ? ymd(m[3], m[1], m[2], lang) : ymd(m[3], m[2], m[1], lang)
      return byMonthName(s, lang)
    }
    case 'th': {
      m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s)
      if (m) return ymd(m[3], m[2], m[1], lang)
      return byMonthName(s, lang)
    }
    default:
      return null
  }
}

/** The field's text for a form value: the page's way of writing an ISO date, anything else as it is. */
export function dateInputText(value: string | undefined | null, lang: Lang): string {
  if (!value) return ''
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDate(value, lang) || value : value
}

/** An example of the language's written form, for the field's hint. */
/**
 * What an empty date field shows: the language's date format spelled with
 * letters ("MMM D, YYYY", "YYYY年M月D日", "ว ดดด ปปปป"), never a date a
 * member could take for a value already filled in.
 */
export function dateInputPattern(lang: Lang): string {
  switch (lang) {
    case 'en':
      return 'MMM D, YYYY'
    case 'sg':
      return 'D MMM YYYY'
    case 'kr':
      return 'YYYY. M. D.'
    case 'th':
      return 'ว ดดด ปปปป'
    default:
      return 'YYYY年M月D日'
  }
}

export function dateInputExample(lang: Lang): string {
  return formatDate('2026-11-22', lang)
}

const MONTHS_EN = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const MONTHS_TH_SHORT = ['ม.ค.', 'ก.พ.', 'มี.ค.', 'เม.ย.', 'พ.ค.', 'มิ.ย.', 'ก.ค.', 'ส.ค.', 'ก.ย.', 'ต.ค.', 'พ.ย.', 'ธ.ค.']
const MONTHS_TH_LONG = ['มกราคม', 'กุมภาพันธ์', 'มีนาคม', 'เมษายน', 'พฤษภาคม', 'มิถุนายน', 'กรกฎาคม', 'สิงหาคม', 'กันยายน', 'ตุลาคม', 'พฤศจิกายน', 'ธันวาคม']

function monthByName(word: string, lang: Lang): number {
  const w = word.toLowerCase().replace(/\.$/, '')
  if (lang === 'th') {
    const short = MONTHS_TH_SHORT.findIndex((n) => n.replace(/\./g, '') === w.replace(/\./g, ''))
    return short >= 0 ? short + 1 : MONTHS_TH_LONG.indexOf(w) + 1
  }
  if (w.length < 3) return 0
  const i = MONTHS_EN.findIndex((n) => w.startsWith(n))
  // "sept" and full names ("november") start with the three letters.
  return i + 1
}

function byMonthName(s: string, lang: Lang): string | null {
  const t = s.replace(/,/g, ' ').replace(/\s+/g, ' ').trim()
  // "22 Nov 2026" (sg, th, also accepted in en)
  let m = /^(\d{1,2}) (\S+) (\d{4})$/.exec(t)
  if (m) {
    const mo = monthByName(m[2], lang)
    return mo ? ymd(m[3], String(mo), m[1], lang) : null
  }
  // "Nov 22 2026" (en, also accepted in sg)
  m = /^(\S+) (\d{1,2}) (\d{4})$/.exec(t)
  if (m && lang !== 'th') {
    const mo = monthByName(m[1], lang)
    return mo ? ymd(m[3], String(mo), m[2], lang) : null
  }
  return null
}

/** A real calendar date as ISO, or null. Thai years from 2400 are Buddhist era. */
function ymd(y: string, m: string, d: string, lang: Lang): string | null {
  let year = Number(y)
  if (lang === 'th' && year >= 2400) year -= 543
  const month = Number(m)
  const day = Number(d)
  if (year < 1000 || year > 9999 || month < 1 || month > 12 || day < 1 || day > 31) return null
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** Full-width (IME) and Thai digits to ASCII, full-width punctuation to ASCII, spaces collapsed. */
function normalise(text: string): string {
  return text
    .replace(/[０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xff10 + 48))
    .replace(/[๐-๙]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x0e50 + 48))
    .replace(/[／]/g, '/')
    .replace(/[－‐]/g, '-')
    .replace(/[．]/g, '.')
    .replace(/[，]/g, ',')
    .replace(/\u3000/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

/** A real calendar date written YYYY-MM-DD (not 2026-02-30): the forms' one date rule. */
export function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false
  const d = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s)
}
