package booking

import (
	"strings"
	"time"

	"members/internal/masters"
	"members/internal/validate"
)

// Search statuses and orders.
const (
	SearchActive = "ACTIVE" // bookings with a flight still to depart
	SearchAll    = "all"
	OrderAsc     = "asc"
	OrderDesc    = "desc"
)

// Paging limits.
const (
	DefaultPerPage = 10
	MaxPerPage     = 50
)

// FormSearch is the value of the form parameter sent by the booking
// management page. With it, or with any booking date given, the booking
// dates are required and checked; the home page's recent list
// (lastDepartDateFrom = today, ACTIVE, 5 a page) sends neither and is not
// limited by booking date.
const FormSearch = "search"

// earliestDate is the first selectable date: "Select a date after 2012."
var earliestDate = time.Date(2012, 1, 1, 0, 0, 0, 0, time.UTC)

// SearchInput is the search condition as the caller sent it.
type SearchInput struct {
	PNR                string
	AirportCode        string
	DepartDateFrom     string
	DepartDateTo       string
	LastDepartDateFrom string
	LastDepartDateTo   string
	BookingDateFrom    string
	BookingDateTo      string
	Status             string // ACTIVE (default) or all, case-insensitive
	Order              string // asc (default) or desc
	Page               int    // 1-based; 0 means 1
	PerPage            int    // 0 means DefaultPerPage
	WithFlightStatus   bool
	// Changed keeps the bookings with a flight changed by the airline that
	// has not left yet (the home page's list of disrupted trips).
	Changed  bool
	TimeZone string // zone of the date parameters; empty: Japan time
	Form     string // "search" from the booking management page
}

// Query is a validated search for the store. Instant bounds are half-open
// [From, To); nil means unbounded.
type Query struct {
	MemberID       string
	PNR            string
	AirportCode    string
	DepartFrom     *time.Time
	DepartTo       *time.Time
	LastDepartFrom *time.Time
	LastDepartTo   *time.Time
	BookedFrom     *time.Time
	BookedTo       *time.Time
	// ActiveAt, when set, keeps bookings that are not cancelled and whose
	// last flight departs after it (status ACTIVE: future flights only).
	ActiveAt *time.Time
	// ChangedAt, when set, keeps bookings with a segment (not cancelled)
	// whose flight the airline changed and whose departure, estimated or
	// scheduled, is after it.
	ChangedAt *time.Time
	// ComingFirstAt, when set (every booking, ascending), puts the bookings
	// with a flight still to leave after it first, nearest first, and the
	// others after them, latest first: "All bookings" opens on the trips to come.
	ComingFirstAt *time.Time
	Desc          bool
	Limit         int
	Offset        int
}

// ParseSearch validates in and builds the store query for memberID.
// Field errors use the input's field names; today is Japan time.
func ParseSearch(memberID string, in SearchInput, now time.Time) (Query, SearchOptions, validate.Errors) {
	errs := validate.Errors{}
	q := Query{MemberID: memberID}
	opts := SearchOptions{WithFlightStatus: in.WithFlightStatus}

	loc, err := ParseZone(in.TimeZone)
	if err != nil {
		errs.Add("timeZone", "booking.validation.choice")
		loc = JST
	}
	opts.Zone = loc

	if p := strings.TrimSpace(in.PNR); p != "" {
		if errs.Check("pnr", validate.IsAlnum(p), "booking.validation.pnr"); !errs.Has("pnr") {
			errs.MaxLen("pnr", p, MaxPNRLength)
		}
		q.PNR = strings.ToUpper(p)
	}
	if a := strings.ToUpper(strings.TrimSpace(in.AirportCode)); a != "" {
		_, ok := masters.AirportByCode(a)
		errs.Check("airportCode", ok, "booking.validation.choice")
		q.AirportCode = a
	}
	switch strings.ToLower(strings.TrimSpace(in.Status)) {
	case "", "active":
		t := now
		q.ActiveAt = &t
	case "all":
		t := now
		q.ComingFirstAt = &t
	default:
		errs.Add("status", "booking.validation.choice")
	}
	if in.Changed {
		t := now
		q.ChangedAt = &t
	}
	switch strings.ToLower(strings.TrimSpace(in.Order)) {
	case "", OrderAsc:
	case OrderDesc:
		q.Desc = true
		q.ComingFirstAt = nil
	default:
		errs.Add("order", "booking.validation.choice")
	}
	page, perPage := in.Page, in.PerPage
	if page == 0 {
		page = 1
	}
	if perPage == 0 {
		perPage = DefaultPerPage
	}
	errs.Check("page", page >= 1 && page <= 100000, "booking.validation.choice")
	errs.Check("perPage", perPage >= 1 && perPage <= MaxPerPage, "booking.validation.choice")
	q.Limit, q.Offset = perPage, (page-1)*perPage
	opts.Page, opts.PerPage = page, perPage

	today := TodayJST(now)
	bookingRequired := strings.EqualFold(in.Form, FormSearch) || in.BookingDateFrom != "" || in.BookingDateTo != ""
	if bookingRequired {
		from := bookingDate(errs, "bookingDateFrom", in.BookingDateFrom, today)
		to := bookingDate(errs, "bookingDateTo", in.BookingDateTo, today)
		if from != nil && to != nil {
			errs.Check("bookingDateTo", !to.Before(*from), "booking.validation.date_order")
		}
		q.BookedFrom, q.BookedTo = bounds(from, to, loc)
	}
	df := optionalDate(errs, "departDateFrom", in.DepartDateFrom)
	dt := optionalDate(errs, "departDateTo", in.DepartDateTo)
	if df != nil && dt != nil {
		errs.Check("departDateTo", !dt.Before(*df), "booking.validation.date_order")
	}
	q.DepartFrom, q.DepartTo = bounds(df, dt, loc)
	lf := optionalDate(errs, "lastDepartDateFrom", in.LastDepartDateFrom)
	lt := optionalDate(errs, "lastDepartDateTo", in.LastDepartDateTo)
	if lf != nil && lt != nil {
		errs.Check("lastDepartDateTo", !lt.Before(*lf), "booking.validation.date_order")
	}
	q.LastDepartFrom, q.LastDepartTo = bounds(lf, lt, loc)
	return q, opts, errs
}

// SearchOptions shape the answer rather than the query.
type SearchOptions struct {
	Page, PerPage    int
	WithFlightStatus bool
	Zone             *time.Location // zone of bookingDate in the answer
}

// bookingDate checks a booking date: required, a date, not before 2012,
// not after today (Japan time).
func bookingDate(errs validate.Errors, field, s string, today time.Time) *time.Time {
	if !errs.Required(field, s) {
		return nil
	}
	d, ok := validate.ParseDate(strings.TrimSpace(s))
	if !ok {
		errs.Add(field, "booking.validation.date")
		return nil
	}
	if d.Before(earliestDate) {
		errs.Add(field, "booking.validation.after_2012")
		return nil
	}
	if d.After(today) {
		errs.Add(field, "booking.validation.past_date")
		return nil
	}
	return &d
}

// optionalDate checks a date that may be empty.
func optionalDate(errs validate.Errors, field, s string) *time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	d, ok := validate.ParseDate(s)
	if !ok {
		errs.Add(field, "booking.validation.date")
		return nil
	}
	return &d
}

// bounds turns an inclusive date range into instants [from 00:00, the day
// after to 00:00) in loc.
func bounds(from, to *time.Time, loc *time.Location) (*time.Time, *time.Time) {
	var f, t *time.Time
	if from != nil {
		v := startOfDay(*from, loc)
		f = &v
	}
	if to != nil {
		v := startOfDay(to.AddDate(0, 0, 1), loc)
		t = &v
	}
	return f, t
}
