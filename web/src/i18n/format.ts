import type { Lang } from './languages'

/** Minor-unit decimals per currency: SGD has two, the others none. */
export function currencyDecimals(currency: string): number {
  return currency.toUpperCase() === 'SGD' ? 2 : 0
}

/**
 * An integer amount in minor units as a number: a comma between thousands
 * and, for SGD, two decimals after a point, in every language (1234 JPY →
 * "1,234", 1234 SGD → "12.34"); the server's i18n.FormatAmount, the same
 * table (testdata/amounts.json).
 */
export function formatAmount(minor: number, currency: string, _lang?: Lang): string {
  if (!Number.isFinite(minor)) return '-'
  const decimals = currencyDecimals(currency)
  const neg = minor < 0
  const abs = Math.round(Math.abs(minor))
  const unit = 10 ** decimals
  const whole = String(Math.floor(abs / unit)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const frac = decimals > 0 ? '.' + String(abs % unit).padStart(decimals, '0') : ''
  return (neg ? '-' : '') + whole + frac
}

/**
 * An amount with its currency, the one way of the language on pages, in
 * mails and PDFs (server i18n.FormatMoney, testdata/amounts.json): the code
 * in front ("JPY 1,234", "SGD 12.34"), except the language's own currency
 * in its own form: yen in Japanese "1,234円", won in Korean "1,234원".
 */
export function formatMoney(minor: number, currency: string, lang: Lang): string {
  const cur = currency.toUpperCase()
  const n = formatAmount(minor, cur)
  if (n === '-') return n
  if (lang === 'jp' && cur === 'JPY') return `${n}円`
  if (lang === 'kr' && cur === 'KRW') return `${n}원`
  return `${cur} ${n}`
}

/** The plural category of n in lang (testdata/plurals.json): "one" for 1 in en and sg, else "other". */
export function pluralCategory(count: number, lang: Lang): 'one' | 'other' {
  return (lang === 'en' || lang === 'sg') && count === 1 ? 'one' : 'other'
}

/**
 * A person's name in running text (testdata/names.json, server
 * i18n.PersonName): family name first in jp, kr, cn, tw and hk, given
 * name first in en, sg and th.
 */
export function formatPersonName(given: string | undefined, family: string | undefined, lang: Lang): string {
  const g = (given ?? '').trim()
  const f = (family ?? '').trim()
  const parts = ['jp', 'kr', 'cn', 'tw', 'hk'].includes(lang) ? [f, g] : [g, f]
  return parts.filter(Boolean).join(' ')
}

const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const MONTHS_TH = ['ม.ค.', 'ก.พ.', 'มี.ค.', 'เม.ย.', 'พ.ค.', 'มิ.ย.', 'ก.ค.', 'ส.ค.', 'ก.ย.', 'ต.ค.', 'พ.ย.', 'ธ.ค.']
const DAYS: Partial<Record<Lang, string[]>> & { en: string[] } = {
  en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
  jp: ['日', '月', '火', '水', '木', '金', '土'],
  kr: ['일', '월', '화', '수', '목', '금', '토'],
  cn: ['周日', '周一', '周二', '周三', '周四', '周五', '周六'],
  tw: ['週日', '週一', '週二', '週三', '週四', '週五', '週六'],
  hk: ['週日', '週一', '週二', '週三', '週四', '週五', '週六'],
  th: ['อา.', 'จ.', 'อ.', 'พ.', 'พฤ.', 'ศ.', 'ส.'],
}

/**
 * A calendar date ("YYYY-MM-DD", or a Date read in Japan time) written the
 * one way of its language, the same as the server's mails and PDFs
 * (internal/i18n/dates.go, testdata/dates.json): en "Nov 22, 2026",
 * sg "22 Nov 2026", jp/cn/tw/hk "2026年11月22日", kr "2026. 11. 22.",
 * th "22 พ.ย. 2569" (Buddhist-era year).
 */
export function formatDate(value: string | Date, lang: Lang, opts: { weekday?: boolean } = {}): string {
  let iso: string
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) iso = value
  else {
    const d = new Date(value)
    if (Number.isNaN(d.getTime())) return ''
    iso = new Date(d.getTime() + 9 * 3_600_000).toISOString().slice(0, 10)
  }
  const [y, m, day] = iso.split('-').map(Number)
  const date = new Date(Date.UTC(y, m - 1, day))
  if (Number.isNaN(date.getTime())) return ''
  const wd = date.getUTCDay()
  const w = opts.weekday
  switch (lang) {
    case 'jp':
    case 'cn':
    case 'tw':
    case 'hk': {
      const s = `${y}年${m}月${day}日`
      if (!w) return s
      return lang === 'jp' ? `${s}(${DAYS.jp![wd]})` : `${s} ${DAYS[lang]![wd]}`
    }
    case 'kr':
      return `${y}. ${m}. ${day}.` + (w ? ` (${DAYS.kr![wd]})` : '')
    case 'th':
      return (w ? `${DAYS.th![wd]} ` : '') + `${day} ${MONTHS_TH[m - 1]} ${y + 543}`
    case 'sg':
      return (w ? `${DAYS.en[wd]}, ` : '') + `${day} ${MONTHS_EN[m - 1]} ${y}`
    default:
      return (w ? `${DAYS.en[wd]}, ` : '') + `${MONTHS_EN[m - 1]} ${day}, ${y}`
  }
}

/** A month ("YYYY-MM" or "YYYY-MM-DD") the same way: en/sg "Nov 2026", jp/cn/tw/hk "2026年11月", kr "2026. 11.", th "พ.ย. 2569". */
export function formatMonth(value: string, lang: Lang): string {
  const m = /^(\d{4})-(\d{2})/.exec(value)
  if (!m) return ''
  const y = Number(m[1])
  const mo = Number(m[2])
  if (mo < 1 || mo > 12) return ''
  switch (lang) {
    case 'jp':
    case 'cn':
    case 'tw':
    case 'hk':
      return `${y}年${mo}月`
    case 'kr':
      return `${y}. ${mo}.`
    case 'th':
      return `${MONTHS_TH[mo - 1]} ${y + 543}`
    default:
      return `${MONTHS_EN[mo - 1]} ${y}`
  }
}

/** A time of day, 24-hour "HH:mm" in every language (testdata/dates.json). */
export function formatClock(hours: number, minutes: number): string {
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`
}

/** Date and time of an instant in Japan time: the language's date and a 24-hour clock. */
export function formatDateTime(value: string | Date, lang: Lang): string {
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) return ''
  const jst = new Date(date.getTime() + 9 * 3_600_000)
  return `${formatDate(date, lang)} ${formatClock(jst.getUTCHours(), jst.getUTCMinutes())}`
}

/**
 * The catalogue key of a counted text: `${base}_one` or `${base}_other` by
 * the language's plural rule (pluralCategory, the table shared with the
 * server's Catalog.TN). Every catalogue carries both
 * forms; languages without a singular use "_other" for 1 too. Pass the
 * number to t() as `n`, not `count` (i18next would pluralise again).
 */
export function pluralKey(base: string, count: number, lang: Lang): string {
  return `${base}_${pluralCategory(count, lang)}`
}
