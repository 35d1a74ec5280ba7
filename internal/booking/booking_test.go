package booking_test

import (
	"sort"
	"strings"
	"testing"
	"time"

	"members/internal/booking"
	"members/internal/i18n"
	"members/internal/masters"
)

func TestTodayJSTBoundary(t *testing.T) {
	for _, tt := range []struct {
		utc  time.Time
		want string
	}{
		{time.Date(2026, 11, 20, 14, 59, 59, 0, time.UTC), "2026-11-20"},
		{time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC), "2026-11-21"},
		{time.Date(2026, 12, 31, 15, 0, 0, 0, time.UTC), "2027-01-01"},
	} {
		if got := booking.TodayJST(tt.utc).Format(booking.DateLayout); got != tt.want {
			t.Errorf("TodayJST(%s) = %s, want %s", tt.utc, got, tt.want)
		}
	}
	d := booking.SearchDefaults(time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC))
	if d.BookingDateTo != "2026-11-21" || d.BookingDateFrom != "2026-05-25" || d.DepartDateFrom != "2026-05-25" || d.Status != "ACTIVE" || d.Order != "asc" {
		t.Errorf("defaults = %+v", d)
	}
}

func TestParseSearchRules(t *testing.T) {
	now := time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC) // 15:00 JST
	tests := []struct {
		name  string
		in    booking.SearchInput
		field string
		key   string
	}{
		{"required", booking.SearchInput{Form: "search"}, "bookingDateFrom", "validation.required"},
		{"2012", booking.SearchInput{Form: "search", BookingDateFrom: "2011-12-31", BookingDateTo: "2026-11-20"}, "bookingDateFrom", "booking.validation.after_2012"},
		{"future", booking.SearchInput{Form: "search", BookingDateFrom: "2026-01-01", BookingDateTo: "2026-11-21"}, "bookingDateTo", "booking.validation.past_date"},
		{"order", booking.SearchInput{Form: "search", BookingDateFrom: "2026-02-01", BookingDateTo: "2026-01-31"}, "bookingDateTo", "booking.validation.date_order"},
		{"depart order", booking.SearchInput{DepartDateFrom: "2026-02-01", DepartDateTo: "2026-01-31"}, "departDateTo", "booking.validation.date_order"},
		{"pnr", booking.SearchInput{PNR: "ab_1"}, "pnr", "booking.validation.pnr"},
	}
	for _, tt := range tests {
		_, _, errs := booking.ParseSearch("m", tt.in, now)
		if errs[tt.field].Key != tt.key {
			t.Errorf("%s: errors %v, want %s %s", tt.name, errs, tt.field, tt.key)
		}
	}
	// 2012-01-01 and today are allowed; the recent list needs no booking dates.
	q, opts, errs := booking.ParseSearch("m", booking.SearchInput{Form: "search", BookingDateFrom: "2012-01-01", BookingDateTo: "2026-11-20", Order: "desc", Page: 2, PerPage: 5}, now)
	if !errs.Empty() || !q.Desc || q.Offset != 5 || q.Limit != 5 || opts.Page != 2 || q.ActiveAt == nil {
		t.Fatalf("valid search: %v %+v %+v", errs, q, opts)
	}
	// Date ranges are whole days in Japan time: [from 00:00 JST, to+1 00:00 JST).
	if got := q.BookedTo.UTC(); !got.Equal(time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC)) {
		t.Errorf("booked to = %s", got)
	}
	if _, _, errs := booking.ParseSearch("m", booking.SearchInput{LastDepartDateFrom: "2026-11-20", Status: "ACTIVE", PerPage: 5}, now); !errs.Empty() {
		t.Errorf("recent list: %v", errs)
	}
	q, _, _ = booking.ParseSearch("m", booking.SearchInput{DepartDateFrom: "2026-11-20", TimeZone: "+07:00", Status: "all"}, now)
	if !q.DepartFrom.Equal(time.Date(2026, 11, 19, 17, 0, 0, 0, time.UTC)) || q.ActiveAt != nil {
		t.Errorf("time zone +07:00: %s %v", q.DepartFrom, q.ActiveAt)
	}
}

func TestSegmentAndReservationRules(t *testing.T) {
	now := time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC)
	seg := func(status, flight string, dep time.Time) booking.Segment {
		return booking.Segment{StatusCode: status, FlightStatus: flight, DepartAt: dep, ArrivalAt: dep.Add(time.Hour)}
	}
	for _, s := range []string{"CANCELLED", "cancelled", "Cancelled"} {
		if !seg(s, "", now).IsCancelled() {
			t.Errorf("%s not cancelled", s)
		}
	}
	if seg("CONFIRMED", "", now).IsCancelled() {
		t.Error("confirmed is cancelled")
	}
	if !seg("", "", now.Add(-time.Second)).IsPast(now) || seg("", "", now).IsPast(now) {
		t.Error("past rule")
	}
	for _, f := range []string{booking.FlightNotYetDepartedWithDelay, booking.FlightDepartedWithDelay, booking.FlightCancelled, booking.FlightSuspended} {
		if !seg("", f, now).IsIrregular() {
			t.Errorf("%s not shown red", f)
		}
	}
	if seg("", booking.FlightOnTime, now).IsIrregular() {
		t.Error("on time shown red")
	}
	// One status word for the page and the PDF.
	for _, tc := range []struct{ status, flight, want string }{
		{"CONFIRMED", "", "booking.status.confirmed"},
		{"CONFIRMED", booking.FlightOnTime, "booking.status.confirmed"},
		{"Cancelled", booking.FlightOnTime, "booking.status.cancelled"},
		{"CONFIRMED", booking.FlightNotYetDepartedWithDelay, "booking.flight_status." + strings.ToLower(booking.FlightNotYetDepartedWithDelay)},
		{"CONFIRMED", booking.FlightCancelled, "booking.flight_status." + strings.ToLower(booking.FlightCancelled)},
	} {
		if got := seg(tc.status, tc.flight, now).StatusKey(); got != tc.want {
			t.Errorf("%s/%s: %s, want %s", tc.status, tc.flight, got, tc.want)
		}
	}
	r := func(first time.Time) booking.Reservation {
		return booking.Reservation{Segments: []booking.Segment{seg("", "", first), seg("", "", now.Add(time.Hour))}}
	}
	if r(now.Add(-180 * 24 * time.Hour)).IsOutdated(now) {
		t.Error("exactly 180 days is not outdated")
	}
	if !r(now.Add(-180*24*time.Hour - time.Minute)).IsOutdated(now) {
		t.Error("more than 180 days is outdated")
	}
	// Certificates: boarding for flown, delay for delayed, cancellation for cancelled.
	flown := seg("CONFIRMED", booking.FlightArrived, now.Add(-time.Hour))
	// A delayed flight gets its delay certificate once it has left: not
	// while the delay is an estimate of a flight still on the ground.
	delayed := seg("CONFIRMED", booking.FlightNotYetDepartedWithDelay, now.Add(-2*time.Hour))
	late := now.Add(-time.Hour)
	delayed.EstimatedDepartAt = &late
	waiting := seg("CONFIRMED", booking.FlightNotYetDepartedWithDelay, now.Add(-time.Hour))
	later := now.Add(2 * time.Hour)
	waiting.EstimatedDepartAt = &later
	departedLate := seg("CONFIRMED", booking.FlightDepartedWithDelay, now.Add(-3*time.Hour))
	left := now.Add(-time.Hour)
	departedLate.ActualDepartAt = &left
	canc := seg("cancelled", "", now.Add(-time.Hour))
	for _, tt := range []struct {
		s    booking.Segment
		want string
	}{{flown, "boarding"}, {delayed, "boarding,delay"}, {waiting, ""}, {departedLate, "boarding,delay"}, {canc, "cancellation"}, {seg("CONFIRMED", "", now.Add(time.Hour)), ""}} {
		if got := strings.Join(tt.s.Certificates(now), ","); got != tt.want {
			t.Errorf("certificates = %q, want %q", got, tt.want)
		}
	}
	res := booking.Reservation{Passengers: []booking.Passenger{{Lastname: "Van Der Berg"}}}
	if !res.HasLastname("  van der  berg ") || res.HasLastname("berg") || res.HasLastname("") {
		t.Error("last name proof")
	}
}

func TestAirportOrderAndZones(t *testing.T) {
	codes := []string{"SIN", "ICN", "KIX", "BKK", "TPE", "HND"}
	sort.Slice(codes, func(i, j int) bool { return masters.AirportRank(codes[i]) < masters.AirportRank(codes[j]) })
	if got := strings.Join(codes, ","); got != "KIX,HND,ICN,TPE,BKK,SIN" {
		t.Errorf("order = %s", got)
	}
	at := time.Date(2026, 11, 20, 0, 30, 0, 0, time.UTC)
	for code, want := range map[string]string{"KIX": "2026-11-20T09:30:00+09:00", "TPE": "2026-11-20T08:30:00+08:00", "BKK": "2026-11-20T07:30:00+07:00", "SIN": "2026-11-20T08:30:00+08:00",
		"ZZZ": "2026-11-20T09:30:00+09:00"} { // an unknown airport: Japan time
		if got := booking.LocalTime(at, code); got != want {
			t.Errorf("LocalTime %s = %s, want %s", code, got, want)
		}
	}
}

// The booking site's addresses carry the booking and the language, and no
// credential: the booking site signs the member in with OpenID Connect.
func TestBookingSiteURL(t *testing.T) {
	site := booking.NewBookingSite("https://booking.example.com/")
	for _, c := range []struct {
		pnr  string
		lang i18n.Lang
		want string
	}{
		{"ABC123", i18n.JP, "https://booking.example.com/booking/ABC123/edit?lang=jp"},
		{"", i18n.EN, "https://booking.example.com/booking/search?lang=en"},
		{"A/B?C", i18n.TH, "https://booking.example.com/booking/A%2FB%3FC/edit?lang=th"},
	} {
		if got := site.URL(c.pnr, c.lang); got != c.want {
			t.Errorf("URL(%q, %s) = %s, want %s", c.pnr, c.lang, got, c.want)
		}
	}
}

func TestConsumptionTax(t *testing.T) {
	seg := func(from, to string) booking.Segment {
		return booking.Segment{OriginAirportCode: from, DestinationAirportCode: to}
	}
	for _, tc := range []struct {
		name string
		segs []booking.Segment
		want booking.ConsumptionTax
	}{
		{"domestic", []booking.Segment{seg("KIX", "CTS"), seg("CTS", "KIX")}, booking.ConsumptionTax{Domestic: true, Included: 3523}},
		{"international", []booking.Segment{seg("KIX", "BKK")}, booking.ConsumptionTax{}},
		{"one leg abroad", []booking.Segment{seg("KIX", "CTS"), seg("CTS", "TPE")}, booking.ConsumptionTax{}},
		{"no segment", nil, booking.ConsumptionTax{}},
	} {
		r := booking.Reservation{Currency: "JPY", TotalAmount: 38760, Segments: tc.segs}
		if got := r.ConsumptionTax(); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestShownDateAfterMidnight: a delay past midnight is shown on its new
// date (local at the origin), its departure without "+1" and its arrival
// counted from the new date; the schedule keeps its own date's count.
func TestShownDateAfterMidnight(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	ptr := func(v time.Time) *time.Time { return &v }
	// HND 23:30 → CTS 01:00 the next day (both UTC+09:00); KIX → BKK (UTC+07:00).
	late := booking.Segment{OriginAirportCode: "HND", DestinationAirportCode: "CTS", FlightStatus: booking.FlightNotYetDepartedWithDelay,
		DepartAt: at("2026-12-01T23:30:00+09:00"), ArrivalAt: at("2026-12-02T01:00:00+09:00"),
		EstimatedDepartAt: ptr(at("2026-12-02T00:40:00+09:00")), EstimatedArrivalAt: ptr(at("2026-12-02T02:10:00+09:00"))}
	bkk := booking.Segment{OriginAirportCode: "KIX", DestinationAirportCode: "BKK", FlightStatus: booking.FlightNotYetDepartedWithDelay,
		DepartAt: at("2026-12-01T22:00:00+09:00"), ArrivalAt: at("2026-12-02T02:30:00+07:00"),
		EstimatedDepartAt: ptr(at("2026-12-02T01:15:00+09:00"))}
	onTime := late
	onTime.FlightStatus, onTime.EstimatedDepartAt, onTime.EstimatedArrivalAt = booking.FlightOnTime, nil, nil
	cancelled := late
	cancelled.FlightStatus = booking.FlightCancelled
	for _, c := range []struct {
		name               string
		s                  booking.Segment
		date, dep, arr     string
		schedDep, schedArr string
	}{
		{"delayed past midnight", late, "2026-12-02", "00:40", "02:10", "23:30", "01:00 +1"},
		{"delayed past midnight, arrival abroad moved with it", bkk, "2026-12-02", "01:15", "05:45", "22:00", "02:30 +1"},
		{"on time, arriving after midnight", onTime, "2026-12-01", "23:30", "01:00 +1", "23:30", "01:00 +1"},
		{"cancelled: the schedule", cancelled, "2026-12-01", "23:30", "01:00 +1", "23:30", "01:00 +1"},
	} {
		dep, arr, _ := c.s.ShownTimes()
		got := []string{c.s.ShownDate().Format(booking.DateLayout), c.s.ShownClock(dep, c.s.OriginAirportCode), c.s.ShownClock(arr, c.s.DestinationAirportCode),
			c.s.Clock(c.s.DepartAt, c.s.OriginAirportCode), c.s.Clock(c.s.ArrivalAt, c.s.DestinationAirportCode)}
		want := []string{c.date, c.dep, c.arr, c.schedDep, c.schedArr}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: date, shown departure and arrival, schedule = %q, want %q", c.name, got, want)
		}
	}
}

// TestGateShown: a cancelled flight or segment shows no gate; a changed
// gate has the one before it struck through while the gate is shown.
func TestGateShown(t *testing.T) {
	for _, c := range []struct {
		name   string
		s      booking.Segment
		shows  bool
		struck string
	}{
		{"changed", booking.Segment{OriginGate: "31", PreviousGate: "12", FlightStatus: booking.FlightOnTime}, true, "12"},
		{"delayed and changed", booking.Segment{OriginGate: "31", PreviousGate: "12", FlightStatus: booking.FlightNotYetDepartedWithDelay}, true, "12"},
		{"never changed", booking.Segment{OriginGate: "12", FlightStatus: booking.FlightOnTime}, true, ""},
		{"back to the same gate", booking.Segment{OriginGate: "12", PreviousGate: "12"}, true, ""},
		{"flight cancelled", booking.Segment{OriginGate: "31", PreviousGate: "12", FlightStatus: booking.FlightCancelled}, false, ""},
		{"flight suspended", booking.Segment{OriginGate: "31", PreviousGate: "12", FlightStatus: booking.FlightSuspended}, false, ""},
		{"segment cancelled", booking.Segment{OriginGate: "31", PreviousGate: "12", StatusCode: "Cancelled"}, false, ""},
	} {
		if c.s.ShowsGate() != c.shows || c.s.StruckGate() != c.struck {
			t.Errorf("%s: ShowsGate %v, StruckGate %q; want %v, %q", c.name, c.s.ShowsGate(), c.s.StruckGate(), c.shows, c.struck)
		}
	}
}
