package i18n

import (
	"fmt"
	"time"
)

// Dates have one written form per language, the same on pages, in mails and
// in PDFs; the app implements the same rule (web/src/i18n/format.ts) and
// both are tested against testdata/dates.json. Thai shows the Buddhist-era
// year (2026 is 2569), as Thai readers expect and as browsers write it.
var (
	monthsEN = [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	monthsTH = [12]string{"ม.ค.", "ก.พ.", "มี.ค.", "เม.ย.", "พ.ค.", "มิ.ย.", "ก.ค.", "ส.ค.", "ก.ย.", "ต.ค.", "พ.ย.", "ธ.ค."}
	daysEN   = [7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}
	daysJP   = [7]string{"日", "月", "火", "水", "木", "金", "土"}
	daysKR   = [7]string{"일", "월", "화", "수", "목", "금", "토"}
	daysCN   = [7]string{"周日", "周一", "周二", "周三", "周四", "周五", "周六"}
	daysTW   = [7]string{"週日", "週一", "週二", "週三", "週四", "週五", "週六"}
	daysTH   = [7]string{"อา.", "จ.", "อ.", "พ.", "พฤ.", "ศ.", "ส."}
)

// FormatDate writes the calendar date of d (its own year, month and day) in
// lang: en "Nov 22, 2026", sg "22 Nov 2026", jp/cn/tw/hk "2026年11月22日",
// kr "2026. 11. 22.", th "22 พ.ย. 2569". With weekday the day of the week
// is added in the language's place for it.
func FormatDate(lang Lang, d time.Time, weekday bool) string {
	y, m, day := d.Date()
	wd := int(d.Weekday())
	switch lang {
	case JP, CN, TW, HK:
		s := fmt.Sprintf("%d年%d月%d日", y, int(m), day)
		if weekday {
			switch lang {
			case JP:
				s += "(" + daysJP[wd] + ")"
			case CN:
				s += " " + daysCN[wd]
			default:
				s += " " + daysTW[wd]
			}
		}
		return s
	case KR:
		s := fmt.Sprintf("%d. %d. %d.", y, int(m), day)
		if weekday {
			s += " (" + daysKR[wd] + ")"
		}
		return s
	case TH:
		s := fmt.Sprintf("%d %s %d", day, monthsTH[m-1], y+543)
		if weekday {
			s = daysTH[wd] + " " + s
		}
		return s
	case SG:
		s := fmt.Sprintf("%d %s %d", day, monthsEN[m-1], y)
		if weekday {
			s = daysEN[wd] + ", " + s
		}
		return s
	default:
		s := fmt.Sprintf("%s %d, %d", monthsEN[m-1], day, y)
		if weekday {
			s = daysEN[wd] + ", " + s
		}
		return s
	}
}

// FormatISODate formats a "YYYY-MM-DD" date, or returns it unchanged when
// it is not one.
func FormatISODate(lang Lang, iso string) string {
	d, err := time.Parse("2006-01-02", iso)
	if err != nil {
		return iso
	}
	return FormatDate(lang, d, false)
}

// FormatDateTime writes the date of t (in t's own location) as FormatDate
// does, then the 24-hour time: en "Nov 22, 2026 08:30", th "22 พ.ย. 2569 08:30".
func FormatDateTime(lang Lang, t time.Time) string {
	return FormatDate(lang, t, false) + " " + t.Format("15:04")
}
