package push

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"members/internal/booking"
	"members/internal/i18n"
)

func catalog(t *testing.T) *i18n.Catalog {
	t.Helper()
	c, err := i18n.New()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// jst is a local time in Japan (Kansai and Incheon are both UTC+9).
func jst(day, hh, mm int) time.Time { return time.Date(2026, 11, day, hh, mm, 0, 0, booking.JST) }

// MM001 KIX-ICN on 30 Nov 2026, 08:30-10:20, terminal 1, gate 12.
func mm001() Notice {
	return Notice{Flight: "MM001", Date: "2026-11-30", Origin: "KIX", Destination: "ICN", FlightStatus: booking.FlightOnTime,
		OriginalDepartAt: jst(30, 8, 30), OriginalArrivalAt: jst(30, 10, 20), DepartAt: jst(30, 8, 30), ArrivalAt: jst(30, 10, 20),
		Terminal: "1", Gate: "12", Sequence: 1, PNRs: []string{"HNK7Q2"}}
}

// What each change says, in the member's language: the airports' local
// times ("+1" a day later), the terminal and the gate named both, none for
// a cancelled flight.
func TestComposeEachChange(t *testing.T) {
	cat := catalog(t)
	delay := mm001()
	delay.Kind, delay.FlightStatus = "delay", booking.FlightNotYetDepartedWithDelay
	est, estArr := jst(30, 10, 40), jst(30, 12, 30)
	delay.EstimatedDepartAt, delay.EstimatedArrivalAt = &est, &estArr
	late := delay
	midnight, midnightArr := jst(30, 8, 30).Add(16*time.Hour), jst(30, 8, 30).Add(18*time.Hour)
	late.EstimatedDepartAt, late.EstimatedArrivalAt = &midnight, &midnightArr
	cancelled := mm001()
	cancelled.Kind, cancelled.FlightStatus = "cancellation", booking.FlightCancelled
	gate := mm001()
	gate.Kind, gate.Terminal, gate.Gate = "gate", "2", "31"
	retimed := mm001()
	retimed.Kind, retimed.DepartAt, retimed.ArrivalAt = "time_change", jst(30, 9, 15), jst(30, 11, 5)
	diverted := mm001()
	diverted.Kind, diverted.DivertedTo = "diversion", "GMP"
	onTime := mm001()
	onTime.Kind = "on_time"
	// a gate change after the cancellation still says cancelled
	cancelledThenGate := cancelled
	cancelledThenGate.Kind = "gate"

	for _, tc := range []struct {
		name        string
		lang        i18n.Lang
		n           Notice
		title, body string
	}{
		{"delay", i18n.EN, delay, "MM001 delayed", "KIX → ICN: now departs 10:40, scheduled 08:30. Terminal 1, gate 12."},
		{"delay past midnight", i18n.EN, late, "MM001 delayed", "KIX → ICN: now departs 00:30 (+1), scheduled 08:30. Terminal 1, gate 12."},
		{"cancellation", i18n.EN, cancelled, "MM001 cancelled", "KIX → ICN, Nov 30, 2026 08:30: this flight will not depart. Open your booking to change or refund it."},
		{"cancelled, then a gate", i18n.EN, cancelledThenGate, "MM001 cancelled", "KIX → ICN, Nov 30, 2026 08:30: this flight will not depart. Open your booking to change or refund it."},
		{"gate and terminal", i18n.EN, gate, "MM001: gate or terminal changed", "KIX → ICN: departs 08:30. Terminal 2, gate 31."},
		{"time change", i18n.EN, retimed, "MM001: new schedule", "KIX → ICN: departs 09:15 (was 08:30), arrives 11:05. Terminal 1, gate 12."},
		{"diversion", i18n.EN, diverted, "MM001 diverted", "KIX → ICN: diverted to Seoul (Gimpo). Terminal 1, gate 12."},
		{"back on time", i18n.EN, onTime, "MM001 back on time", "KIX → ICN: departs 08:30 as scheduled. Terminal 1, gate 12."},
		{"delay jp", i18n.JP, late, "MM001便 遅延", "KIX → ICN：00:30 (+1)発に変更（定刻08:30）。ターミナル1、搭乗口12。"},
		{"gate jp", i18n.JP, gate, "MM001便 搭乗口・ターミナル変更", "KIX → ICN：08:30発。ターミナル2、搭乗口31。"},
		{"cancellation jp", i18n.JP, cancelled, "MM001便 欠航", "KIX → ICN、2026年11月30日 08:30発：この便は欠航となりました。予約を開いて変更または払い戻しができます。"},
		{"delay th", i18n.TH, delay, "เที่ยวบิน MM001 ล่าช้า", "KIX → ICN: ออกเดินทางเวลา 10:40 (กำหนดเดิม 08:30) อาคารผู้โดยสาร 1 ประตู 12"},
		{"gate th", i18n.TH, gate, "เที่ยวบิน MM001 เปลี่ยนประตูหรืออาคารผู้โดยสาร", "KIX → ICN: ออกเดินทางเวลา 08:30 อาคารผู้โดยสาร 2 ประตู 31"},
		{"cancellation th", i18n.TH, cancelled, "เที่ยวบิน MM001 ยกเลิก", "KIX → ICN วันที่ 30 พ.ย. 2569 เวลา 08:30: เที่ยวบินนี้ยกเลิกแล้ว เปิดการจองเพื่อเปลี่ยนหรือขอคืนเงิน"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := Compose(cat, tc.lang, tc.n, "https://members.example/", jst(20, 15, 0))
			if m.Title != tc.title || m.Body != tc.body {
				t.Errorf("got\n  %q\n  %q\nwant\n  %q\n  %q", m.Title, m.Body, tc.title, tc.body)
			}
			if m.Tag != "flight-MM001-2026-11-30" || m.Lang != string(tc.lang) || m.V != 1 {
				t.Errorf("tag %q lang %q v %d", m.Tag, m.Lang, m.V)
			}
			if want := "https://members.example/bookings?lang=" + string(tc.lang) + "&pnr=HNK7Q2"; m.URL != want {
				t.Errorf("url %q, want the mail's link %q", m.URL, want)
			}
		})
	}
}

// A terminal or a gate alone is named alone; with several bookings the
// link is the bookings page.
func TestComposePlacesAndBookings(t *testing.T) {
	cat := catalog(t)
	n := mm001()
	n.Kind, n.Gate = "gate", ""
	n.PNRs = []string{"AAA111", "BBB222"}
	m := Compose(cat, i18n.EN, n, "https://members.example", jst(20, 15, 0))
	if !strings.HasSuffix(m.Body, ". Terminal 1.") {
		t.Errorf("terminal alone: %q", m.Body)
	}
	if m.URL != "https://members.example/bookings?lang=en" || !slices.Equal(m.PNRs, n.PNRs) {
		t.Errorf("two bookings: %q %v", m.URL, m.PNRs)
	}
	n.Terminal, n.Gate = "", "7"
	if m := Compose(cat, i18n.EN, n, "https://members.example", jst(20, 15, 0)); !strings.HasSuffix(m.Body, ". Gate 7.") {
		t.Errorf("gate alone: %q", m.Body)
	}
}

// The payload's fields are the lock screen's and the kept trips' alone:
// no amount, payment, points, PIN, e-mail or name can be in it, and the
// largest one (Thai, five bookings, every field) fits a push's 4 KB.
func TestPayloadFieldsAndSize(t *testing.T) {
	cat := catalog(t)
	n := mm001()
	n.Kind, n.FlightStatus, n.DivertedTo = "delay", booking.FlightNotYetDepartedWithDelay, "GMP"
	est, estArr := jst(30, 23, 40), jst(31, 1, 30)
	n.EstimatedDepartAt, n.EstimatedArrivalAt = &est, &estArr
	n.Terminal, n.Gate = "TERMINAL", "GATE1234"
	n.PNRs = []string{"ABCDEFGHIJKLMNOPQRST", "BBCDEFGHIJKLMNOPQRST", "CBCDEFGHIJKLMNOPQRST", "DBCDEFGHIJKLMNOPQRST", "EBCDEFGHIJKLMNOPQRST", "FBCDEFGHIJKLMNOPQRST"}
	for _, lang := range i18n.Langs {
		b, err := json.Marshal(Compose(cat, lang, n, "https://members.example.com", jst(20, 15, 0)))
		if err != nil {
			t.Fatal(err)
		}
		// RFC 8291: 4096 bytes a record, less 86 of header, 16 of tag and the delimiter
		if len(b) > 3993 {
			t.Errorf("%s: payload of %d bytes", lang, len(b))
		}
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if want := []string{"body", "date", "flight", "kind", "lang", "pnrs", "segment", "sequence", "tag", "title", "url", "v"}; !slices.Equal(keys, want) {
			t.Errorf("%s: fields %v, want %v", lang, keys, want)
		}
		if p := m["pnrs"].([]any); len(p) != maxPNRs {
			t.Errorf("%s: %d bookings named", lang, len(p))
		}
		seg, _ := json.Marshal(m["segment"])
		for _, word := range []string{"amount", "price", "point", "pin", "card", "mail", "name", "passenger"} {
			if strings.Contains(strings.ToLower(string(seg)), word) {
				t.Errorf("%s: the segment names %q: %s", lang, word, seg)
			}
		}
	}
}

// The kept copy's fields as the bookings API writes them.
func TestPatchIsTheAPIsSegment(t *testing.T) {
	n := mm001()
	n.Kind, n.FlightStatus, n.Sequence = "delay", booking.FlightNotYetDepartedWithDelay, 2
	est, estArr := jst(30, 10, 40), jst(30, 12, 30)
	n.EstimatedDepartAt, n.EstimatedArrivalAt = &est, &estArr
	p := Compose(catalog(t), i18n.EN, n, "https://members.example", jst(20, 15, 0)).Segment
	if p.DepartDateTime != "2026-11-30T08:30:00+09:00" || p.EstimatedDepartDateTime == nil || *p.EstimatedDepartDateTime != "2026-11-30T10:40:00+09:00" ||
		*p.EstimatedArrivalDateTime != "2026-11-30T12:30:00+09:00" || !p.IsIrregular || p.FlightStatus != booking.FlightNotYetDepartedWithDelay ||
		p.FlightStatusLabel == "" || p.OriginTerminal != "1" || p.OriginGate != "12" {
		t.Errorf("patch %+v", p)
	}
	if c := p.FlightChange; c == nil || c.Kind != "delay" || c.Sequence != 2 || c.PreviousDepartDateTime != "2026-11-30T08:30:00+09:00" {
		t.Errorf("flight change %+v", c)
	}
}

func TestOptionsAndBackoff(t *testing.T) {
	n := mm001()
	if o := options(n, jst(30, 2, 30)); o.TTL != 6*time.Hour || o.Urgency != "high" || o.Topic != "MM001-2026-11-30" {
		t.Errorf("six hours before: %+v", o)
	}
	if o := options(n, jst(20, 8, 30)); o.TTL != maxTTL || o.Urgency != "normal" {
		t.Errorf("ten days before: %+v", o)
	}
	if o := options(n, jst(30, 8, 30).Add(-10*time.Second)); o.TTL != minTTL {
		t.Errorf("ten seconds before: %+v", o)
	}
	var waits []time.Duration
	for i := 1; i <= MaxAttempts; i++ {
		waits = append(waits, Backoff(i))
	}
	if want := []time.Duration{15 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 10 * time.Minute, 10 * time.Minute}; !slices.Equal(waits, want) {
		t.Errorf("backoff %v", waits)
	}
}
