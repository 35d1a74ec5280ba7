package booking

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // IANA names in the timeZone parameter work on any host

	"members/internal/masters"
)

// JST is Japan time (UTC+9, no daylight saving): "today" and the search
// defaults are computed in it.
var JST = time.FixedZone("JST", 9*60*60)

// DateLayout is the wire form of calendar dates.
const DateLayout = "2006-01-02"

// TodayJST is the calendar date of now in Japan time.
func TodayJST(now time.Time) time.Time {
	y, m, d := now.In(JST).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Defaults are the booking search form's initial values: booking
// and departure from 180 days before today, booking to today, ascending,
// ACTIVE; today in Japan time.
type Defaults struct {
	BookingDateFrom string `json:"bookingDateFrom"`
	BookingDateTo   string `json:"bookingDateTo"`
	DepartDateFrom  string `json:"departDateFrom"`
	Status          string `json:"status"`
	Order           string `json:"order"`
}

// SearchDefaults returns the form defaults for now.
func SearchDefaults(now time.Time) Defaults {
	today := TodayJST(now)
	from := today.AddDate(0, 0, -180).Format(DateLayout)
	return Defaults{
		BookingDateFrom: from, BookingDateTo: today.Format(DateLayout), DepartDateFrom: from,
		Status: SearchActive, Order: OrderAsc,
	}
}

// ParseZone reads a time zone: "+09:00", "-0530", "Z", "UTC" or an IANA
// name such as "Asia/Tokyo". Empty means Japan time.
func ParseZone(s string) (*time.Location, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "":
		return JST, nil
	case "Z", "UTC", "utc":
		return time.UTC, nil
	}
	if s[0] == '+' || s[0] == '-' {
		off, err := parseOffset(s)
		if err != nil {
			return nil, err
		}
		return time.FixedZone(s, off), nil
	}
	return time.LoadLocation(s)
}

// parseOffset reads ±HH:MM or ±HHMM into seconds east of UTC.
func parseOffset(s string) (int, error) {
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	body := strings.ReplaceAll(s[1:], ":", "")
	if len(body) != 4 {
		return 0, fmt.Errorf("bad offset %q", s)
	}
	h, err1 := strconv.Atoi(body[:2])
	m, err2 := strconv.Atoi(body[2:])
	if err1 != nil || err2 != nil || h > 14 || m > 59 {
		return 0, fmt.Errorf("bad offset %q", s)
	}
	return sign * (h*3600 + m*60), nil
}

// AirportZone is the local time zone of an airport (its UTC offset in the
// masters); unknown airports get Japan time.
func AirportZone(code string) *time.Location {
	if loc, ok := airportZones[code]; ok {
		return loc
	}
	return JST
}

// airportZones is each airport's zone, parsed once from the masters
// (which do not change while the process runs): the booking search asks
// for two a segment, and parsing made a new zone each time.
var airportZones = func() map[string]*time.Location {
	zones := map[string]*time.Location{}
	for _, a := range masters.Airports() {
		if loc, err := ParseZone(a.TimeZone); err == nil {
			zones[a.Code] = loc
		}
	}
	return zones
}()

// LocalTime formats an instant in an airport's local time, with its offset
// (RFC 3339: "2026-11-21T08:30:00+09:00").
func LocalTime(t time.Time, airport string) string {
	return t.In(AirportZone(airport)).Format(time.RFC3339)
}

// startOfDay is midnight of a calendar date in loc.
func startOfDay(d time.Time, loc *time.Location) time.Time {
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, loc)
}
