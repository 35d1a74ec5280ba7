// Package calendar is "your calendar": an RFC 5545 iCalendar file for each
// booking (one event per flight segment, in the airports' local times and
// time zones) and a private subscription feed of the member's flights,
// opened by a secret token of which only a hash is kept. It imports neither
// SQL nor HTTP: reservations and feed tokens come through interfaces.
package calendar

import (
	"fmt"
	"sort"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"

	"members/internal/booking"
	"members/internal/i18n"
	"members/internal/masters"
)

// zoneByCountry names the IANA time zone of the airports of each country
// the airline flies to. None of them observes daylight saving time, so a
// VTIMEZONE with one STANDARD rule at the masters' UTC offset is exact.
var zoneByCountry = map[string]string{
	"JP": "Asia/Tokyo", "KR": "Asia/Seoul", "HK": "Asia/Hong_Kong", "TW": "Asia/Taipei",
	"CN": "Asia/Shanghai", "TH": "Asia/Bangkok", "SG": "Asia/Singapore",
}

// zone is an airport's time zone: its IANA name and its location.
type zone struct {
	ID     string
	Loc    *time.Location
	Offset string // "+0900", the iCalendar UTC-offset form
}

// airportZone returns the time zone of an airport. An airport of a country
// without a known name gets a name of its own offset ("UTC+09:00").
func airportZone(code string) zone {
	loc := booking.AirportZone(code)
	_, off := time.Date(2026, 1, 1, 0, 0, 0, 0, loc).Zone()
	sign := '+'
	if off < 0 {
		sign, off = '-', -off
	}
	offset := fmt.Sprintf("%c%02d%02d", sign, off/3600, off/60%60)
	a, _ := masters.AirportByCode(code)
	id, ok := zoneByCountry[a.Country]
	if !ok {
		id = fmt.Sprintf("UTC%c%02d:%02d", sign, off/3600, off/60%60)
	}
	return zone{ID: id, Loc: loc, Offset: offset}
}

// localLayout is an iCalendar local date-time (with a TZID parameter).
const localLayout = "20060102T150405"

// Writer turns reservations into iCalendar text in one language.
type Writer struct {
	catalog *i18n.Catalog
	// UIDDomain ends every event's UID ("…@members.example.com"): UIDs
	// must be globally unique and stay the same across changes, so a
	// subscribed calendar updates an event instead of adding a second one.
	UIDDomain string
	// BookingsURL is the bookings page, linked from each event.
	BookingsURL string
}

// NewWriter returns a Writer.
func NewWriter(c *i18n.Catalog, uidDomain, bookingsURL string) *Writer {
	return &Writer{catalog: c, UIDDomain: uidDomain, BookingsURL: bookingsURL}
}

// Calendar is what Write renders: a name and the reservations to list.
type Calendar struct {
	Name         string
	Lang         i18n.Lang
	Reservations []booking.Reservation
	// Feed marks a subscription (the refresh interval is announced).
	Feed bool
	Now  time.Time
}

// RefreshInterval is how often a subscribed calendar app is asked to
// reload the feed (REFRESH-INTERVAL, RFC 7986, and X-PUBLISHED-TTL).
const RefreshInterval = "PT1H"

// Write renders c as RFC 5545 text (CRLF lines, folded at 75 octets).
func (w *Writer) Write(c Calendar) string {
	cal := ics.NewCalendarFor("members")
	cal.SetProductId("-//Peach Aviation//members//" + strings.ToUpper(string(c.Lang)))
	cal.SetMethod(ics.MethodPublish)
	cal.SetName(c.Name)
	if c.Feed {
		cal.SetRefreshInterval(RefreshInterval)
		cal.SetXPublishedTTL(RefreshInterval)
	}
	zones := map[string]zone{}
	var events []*ics.VEvent
	for _, r := range c.Reservations {
		for _, s := range r.Segments {
			from, to := airportZone(s.OriginAirportCode), airportZone(s.DestinationAirportCode)
			zones[from.ID], zones[to.ID] = from, to
			events = append(events, w.event(r, s, from, to, c.Lang, c.Now))
		}
	}
	ids := make([]string, 0, len(zones))
	for id := range zones {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		z := zones[id]
		tz := cal.AddTimezone(z.ID)
		st := tz.AddStandard()
		st.AddProperty(ics.ComponentPropertyDtStart, "19700101T000000")
		st.AddProperty(ics.ComponentProperty(ics.PropertyTzoffsetfrom), z.Offset)
		st.AddProperty(ics.ComponentProperty(ics.PropertyTzoffsetto), z.Offset)
		st.AddProperty(ics.ComponentProperty(ics.PropertyTzname), z.Offset[:3])
	}
	for _, e := range events {
		cal.AddVEvent(e)
	}
	return cal.Serialize(ics.WithNewLine("\r\n"))
}

// event is one flight segment. Times are the estimated ones when the
// airline has announced a delay, else the scheduled ones.
func (w *Writer) event(r booking.Reservation, s booking.Segment, from, to zone, lang i18n.Lang, now time.Time) *ics.VEvent {
	t := func(key string, args ...any) string { return w.catalog.T(lang, "security.calendar."+key, args...) }
	depart, arrive := s.DepartAt, s.ArrivalAt
	if s.EstimatedDepartAt != nil {
		depart = *s.EstimatedDepartAt
	}
	if s.EstimatedArrivalAt != nil {
		arrive = *s.EstimatedArrivalAt
	}
	e := ics.NewEvent(fmt.Sprintf("%s-%s@%s", r.ID, s.Key, w.UIDDomain))
	e.SetDtStampTime(now)
	// Each change the airline's operations feed made to the flight is a new
	// revision of the event: calendar apps take the higher SEQUENCE.
	e.SetSequence(s.ChangeSeq)
	e.SetProperty(ics.ComponentPropertyDtStart, depart.In(from.Loc).Format(localLayout), ics.WithTZID(from.ID))
	e.SetProperty(ics.ComponentPropertyDtEnd, arrive.In(to.Loc).Format(localLayout), ics.WithTZID(to.ID))
	origin, dest := airportName(s.OriginAirportCode, lang), airportName(s.DestinationAirportCode, lang)
	cancelled := s.IsCancelled() || s.WillNotDepart() || strings.EqualFold(r.StatusCode, booking.StatusCancelled)
	summary := t("summary", "flight", s.Flight, "origin", origin, "destination", dest)
	if cancelled {
		summary = t("cancelled_prefix") + " " + summary
	}
	e.SetSummary(summary)
	loc := origin
	if s.OriginTerminal != "" {
		loc += ", " + t("terminal", "terminal", s.OriginTerminal)
	}
	// The gate while the flight is to depart: a cancelled one has none.
	gate := ""
	if !cancelled {
		gate = s.OriginGate
	}
	if gate != "" {
		loc += ", " + t("gate", "gate", gate)
	}
	e.SetLocation(loc)
	lines := []string{
		t("pnr", "pnr", r.PNR),
		t("flight", "flight", s.Flight),
		t("departure", "airport", origin+" ("+s.OriginAirportCode+")", "time", localStamp(depart.In(from.Loc), lang), "zone", from.ID),
	}
	if s.OriginTerminal != "" {
		lines = append(lines, t("departure_terminal", "terminal", s.OriginTerminal))
	}
	if gate != "" {
		lines = append(lines, t("departure_gate", "gate", gate))
	}
	lines = append(lines, t("arrival", "airport", dest+" ("+s.DestinationAirportCode+")", "time", localStamp(arrive.In(to.Loc), lang), "zone", to.ID))
	if s.DestinationTerminal != "" {
		lines = append(lines, t("arrival_terminal", "terminal", s.DestinationTerminal))
	}
	if !depart.Equal(s.DepartAt) {
		lines = append(lines, t("scheduled", "time", localStamp(s.DepartAt.In(from.Loc), lang)))
	}
	if cancelled {
		lines = append(lines, t("cancelled"))
	}
	if s.DivertedTo != "" {
		lines = append(lines, w.catalog.T(lang, "flights.calendar.diverted", "airport", airportName(s.DivertedTo, lang)+" ("+s.DivertedTo+")"))
	}
	e.SetDescription(strings.Join(lines, "\n"))
	if cancelled {
		e.SetStatus(ics.ObjectStatusCancelled)
	} else {
		e.SetStatus(ics.ObjectStatusConfirmed)
	}
	if w.BookingsURL != "" {
		e.SetURL(w.BookingsURL)
	}
	// A flight blocks the traveller's time.
	e.SetTimeTransparency(ics.TransparencyOpaque)
	return e
}

// airportName is the airport's short name in lang (Thai for th, Japanese
// for jp…), or its code.
func airportName(code string, lang i18n.Lang) string {
	return booking.AirportName(code, lang)
}

// localStamp writes a local time the language's way ("20 พ.ย. 2569 08:30",
// "2026年11月20日 08:30"), as the pages and the PDFs do.
func localStamp(t time.Time, lang i18n.Lang) string {
	return i18n.FormatDate(lang, t, false) + " " + t.Format("15:04")
}
