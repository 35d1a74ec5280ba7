package calendar_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	goical "github.com/emersion/go-ical"

	"members/internal/apitest"
	"members/internal/booking"
	"members/internal/calendar"
	"members/internal/i18n"
)

// parse reads the writer's text back with an independent parser.
func parse(t *testing.T, text string) *goical.Calendar {
	t.Helper()
	cal, err := goical.NewDecoder(strings.NewReader(text)).Decode()
	if err != nil {
		t.Fatalf("not RFC 5545: %v\n%s", err, text)
	}
	return cal
}

func prop(c *goical.Component, name string) *goical.Prop {
	p := c.Props.Get(name)
	if p == nil {
		return &goical.Prop{}
	}
	return p
}

func TestWriterEvents(t *testing.T) {
	cat := apitest.Catalog(t)
	w := calendar.NewWriter(cat, "members.example.com", "https://members.example.com/bookings")
	jst := time.FixedZone("JST", 9*3600)
	dep := time.Date(2026, 12, 10, 8, 30, 0, 0, jst)
	onTime := booking.Segment{Key: "1", Flight: "MM001", OriginAirportCode: "KIX", DestinationAirportCode: "ICN", OriginTerminal: "1", OriginGate: "71",
		DepartAt: dep, ArrivalAt: dep.Add(110 * time.Minute)}
	delayed := booking.Segment{Key: "2", Flight: "MM002", OriginAirportCode: "ICN", DestinationAirportCode: "KIX",
		DepartAt: dep.Add(96 * time.Hour), ArrivalAt: dep.Add(96*time.Hour + 105*time.Minute), ChangeSeq: 2}
	est, estArr := delayed.DepartAt.Add(3*time.Hour), delayed.ArrivalAt.Add(3*time.Hour)
	delayed.EstimatedDepartAt, delayed.EstimatedArrivalAt = &est, &estArr
	r := booking.Reservation{ID: "r1", PNR: "HNK7Q2", StatusCode: booking.StatusConfirmed, Segments: []booking.Segment{onTime, delayed}}
	now := time.Date(2026, 11, 28, 3, 0, 0, 0, time.UTC)

	text := w.Write(calendar.Calendar{Name: "Peach booking HNK7Q2", Lang: i18n.EN, Reservations: []booking.Reservation{r}, Now: now})
	if !strings.Contains(text, "\r\n") || strings.Contains(strings.ReplaceAll(text, "\r\n", ""), "\n") {
		t.Error("lines must end with CRLF")
	}
	cal := parse(t, text)
	events := cal.Events()
	if len(events) != 2 {
		t.Fatalf("%d events, want one a segment", len(events))
	}
	var zones []string
	for _, c := range cal.Children {
		if c.Name == goical.CompTimezone {
			zones = append(zones, prop(c, goical.PropTimezoneID).Value)
		}
	}
	if strings.Join(zones, ",") != "Asia/Seoul,Asia/Tokyo" {
		t.Errorf("time zones %v: each airport's, once", zones)
	}

	first := events[0].Component
	for name, want := range map[string]string{
		goical.PropUID:           "r1-1@members.example.com",
		goical.PropDateTimeStart: "20261210T083000", // local time at the departure airport
		goical.PropDateTimeEnd:   "20261210T102000",
		goical.PropSummary:       "MM001 Osaka (Kansai) → Seoul (Incheon)",
		goical.PropStatus:        "CONFIRMED",
		goical.PropURL:           "https://members.example.com/bookings",
	} {
		if got := prop(first, name).Value; got != want {
			t.Errorf("first event %s = %q, want %q", name, got, want)
		}
	}
	if tz := prop(first, goical.PropDateTimeStart).Params.Get(goical.ParamTimezoneID); tz != "Asia/Tokyo" {
		t.Errorf("departure zone %q", tz)
	}
	if tz := prop(first, goical.PropDateTimeEnd).Params.Get(goical.ParamTimezoneID); tz != "Asia/Seoul" {
		t.Errorf("arrival zone %q", tz)
	}
	if d := prop(first, goical.PropDescription).Value; !strings.Contains(d, "HNK7Q2") || !strings.Contains(d, "Departure terminal: 1") || !strings.Contains(d, "Departure gate: 71") {
		t.Errorf("description %q, want the terminal and the gate", d)
	}
	if l := prop(first, goical.PropLocation).Value; l != `Osaka (Kansai)\, Terminal 1\, Gate 71` && l != "Osaka (Kansai), Terminal 1, Gate 71" {
		t.Errorf("location %q, want the airport, terminal and gate", l)
	}

	// a delay: the estimated times, the scheduled one said, a new revision
	second := events[1].Component
	if got := prop(second, goical.PropDateTimeStart).Value; got != est.In(time.FixedZone("KST", 9*3600)).Format("20060102T150405") {
		t.Errorf("delayed start %s, want the estimated time", got)
	}
	if got := prop(second, goical.PropSequence).Value; got != "2" {
		t.Errorf("sequence %q, want the flight's change count", got)
	}
	if d := prop(second, goical.PropDescription).Value; !strings.Contains(d, `Originally scheduled departure: Dec 14\, 2026 08:30`) {
		t.Errorf("delayed description %q", d)
	}

	// a cancelled booking: every event cancelled, and said so
	r.StatusCode = booking.StatusCancelled
	cal = parse(t, w.Write(calendar.Calendar{Lang: i18n.EN, Reservations: []booking.Reservation{r}, Now: now}))
	for _, e := range cal.Events() {
		if prop(e.Component, goical.PropStatus).Value != "CANCELLED" || !strings.HasPrefix(prop(e.Component, goical.PropSummary).Value, "[Cancelled] ") {
			t.Errorf("cancelled: %s %q", prop(e.Component, goical.PropStatus).Value, prop(e.Component, goical.PropSummary).Value)
		}
		if d, l := prop(e.Component, goical.PropDescription).Value, prop(e.Component, goical.PropLocation).Value; strings.Contains(d, "gate") || strings.Contains(l, "Gate") {
			t.Errorf("a cancelled flight has no gate: %q / %q", l, d)
		}
	}

	// Japanese: the airports' Japanese names; a feed announces its refresh
	text = w.Write(calendar.Calendar{Lang: i18n.JP, Reservations: []booking.Reservation{{ID: "r1", PNR: "HNK7Q2", Segments: []booking.Segment{onTime}}}, Feed: true, Now: now})
	cal = parse(t, text)
	if s := prop(cal.Events()[0].Component, goical.PropSummary).Value; !strings.Contains(s, "関西") {
		t.Errorf("jp summary %q", s)
	}
	if !strings.Contains(text, "REFRESH-INTERVAL;VALUE=DURATION:"+calendar.RefreshInterval) {
		t.Error("a feed without its refresh interval")
	}

	// Thai: the airports' Thai names and Thai dates (Buddhist era), no ISO date
	cal = parse(t, w.Write(calendar.Calendar{Lang: i18n.TH, Reservations: []booking.Reservation{{ID: "r1", PNR: "HNK7Q2", Segments: []booking.Segment{onTime}}}, Now: now}))
	ev := cal.Events()[0].Component
	thai := regexp.MustCompile(`[\x{0E00}-\x{0E7F}]`)
	origin := booking.AirportName(onTime.OriginAirportCode, i18n.TH)
	if s := prop(ev, goical.PropSummary).Value; !thai.MatchString(origin) || !strings.Contains(s, origin) {
		t.Errorf("th summary %q, want the Thai name %q", s, origin)
	}
	d := prop(ev, goical.PropDescription).Value
	if !strings.Contains(d, strconv.Itoa(onTime.DepartAt.Year()+543)) || regexp.MustCompile(`\d{4}-\d{2}-\d{2}`).MatchString(d) || !thai.MatchString(d) {
		t.Errorf("th description %q", d)
	}
}
