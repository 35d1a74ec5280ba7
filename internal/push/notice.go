package push

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"members/internal/booking"
	"members/internal/flightops"
	"members/internal/i18n"
)

// Notice is what one push tells of a flight change, in no language yet:
// the flight's state after the change, the member's segment's terminal and
// gate, and the member's bookings on the flight. The queue keeps it as
// JSON; the sender writes it in the member's language.
type Notice struct {
	Flight             string     `json:"flight"`
	Date               string     `json:"date"`
	Origin             string     `json:"origin"`
	Destination        string     `json:"destination"`
	Kind               string     `json:"kind"`
	FlightStatus       string     `json:"flightStatus"`
	OriginalDepartAt   time.Time  `json:"originalDepartAt"`
	OriginalArrivalAt  time.Time  `json:"originalArrivalAt"`
	DepartAt           time.Time  `json:"departAt"`
	ArrivalAt          time.Time  `json:"arrivalAt"`
	EstimatedDepartAt  *time.Time `json:"estimatedDepartAt,omitempty"`
	EstimatedArrivalAt *time.Time `json:"estimatedArrivalAt,omitempty"`
	Terminal           string     `json:"terminal,omitempty"`
	Gate               string     `json:"gate,omitempty"`
	DivertedTo         string     `json:"divertedTo,omitempty"`
	Sequence           int        `json:"sequence"`
	PNRs               []string   `json:"pnrs"`
}

// NoticeOf is the notice of a flight's state after a change for a member
// whose segment shows terminal and gate (the feed's, or the booking's own
// when the feed named none) and who holds the bookings pnrs.
func NoticeOf(st flightops.State, terminal, gate string, pnrs []string) Notice {
	return Notice{
		Flight: st.Flight, Date: st.Date, Origin: st.Origin, Destination: st.Destination, Kind: string(st.LastKind),
		FlightStatus: st.FlightStatus, OriginalDepartAt: st.OriginalDepartAt, OriginalArrivalAt: st.OriginalArrivalAt,
		DepartAt: st.DepartAt, ArrivalAt: st.ArrivalAt, EstimatedDepartAt: st.EstimatedDepartAt, EstimatedArrivalAt: st.EstimatedArrivalAt,
		Terminal: terminal, Gate: gate, DivertedTo: st.DivertedTo, Sequence: st.Sequence, PNRs: pnrs,
	}
}

func (n Notice) cancelled() bool { return n.FlightStatus == booking.FlightCancelled }

// departure is when the flight leaves now: the estimate of a delay, else
// the schedule.
func (n Notice) departure() time.Time {
	if n.EstimatedDepartAt != nil {
		return *n.EstimatedDepartAt
	}
	return n.DepartAt
}

func (n Notice) arrival() time.Time {
	if n.EstimatedArrivalAt != nil {
		return *n.EstimatedArrivalAt
	}
	return n.ArrivalAt
}

// Tag is the notification's tag: one per flight, so a later change of the
// flight replaces the notification of an earlier one on the device.
func (n Notice) Tag() string { return "flight-" + n.Flight + "-" + n.Date }

// Topic is the push's Topic header (RFC 8030): a push service that still
// holds an undelivered push of the flight for the device replaces it with
// this one. At most 32 characters of the base64url alphabet.
func (n Notice) Topic() string {
	t := n.Flight + "-" + n.Date
	if len(t) > 32 {
		t = t[:32]
	}
	return t
}

// Message is the push's payload: what the service worker shows (title,
// body, tag, the booking's address) and the fields of the changed flight
// that it writes into the trips kept on the device. It carries nothing
// the lock screen may not show: no payment, points, PIN or e-mail.
type Message struct {
	V        int      `json:"v"`
	Title    string   `json:"title"`
	Body     string   `json:"body"`
	Tag      string   `json:"tag"`
	URL      string   `json:"url"`
	Lang     string   `json:"lang"`
	Flight   string   `json:"flight"`
	Date     string   `json:"date"`
	Kind     string   `json:"kind"`
	Sequence int      `json:"sequence"`
	PNRs     []string `json:"pnrs"`
	Segment  Patch    `json:"segment"`
}

// Patch is the flight's fields as the bookings API writes them (local
// times with the airport's offset, the status's label in the language):
// the service worker puts them on the kept copy's segments of the flight.
type Patch struct {
	DepartDateTime           string                    `json:"departDateTime"`
	ArrivalDateTime          string                    `json:"arrivalDateTime"`
	EstimatedDepartDateTime  *string                   `json:"estimatedDepartDateTime,omitempty"`
	EstimatedArrivalDateTime *string                   `json:"estimatedArrivalDateTime,omitempty"`
	OriginTerminal           string                    `json:"originTerminal"`
	OriginGate               string                    `json:"originGate"`
	FlightStatus             string                    `json:"flightStatus"`
	FlightStatusLabel        string                    `json:"flightStatusLabel"`
	IsIrregular              bool                      `json:"isIrregular"`
	FlightChange             *booking.FlightChangeView `json:"flightChange,omitempty"`
}

// maxPNRs bounds the bookings a push names (its payload is at most 4 KB).
const maxPNRs = 5

// Compose writes the notice in lang: a short title and body with the
// airports' local times ("+1" for a day later than the flight's date),
// the terminal and the gate when the flight still departs, and the
// address of the booking (the flight change mail's link).
func Compose(cat *i18n.Catalog, lang i18n.Lang, n Notice, publicURL string, now time.Time) Message {
	t := func(key string, args ...any) string { return cat.T(lang, "push."+key, args...) }
	kind := n.Kind
	if n.cancelled() {
		kind = string(flightops.KindCancellation) // whatever came after it, the flight does not depart
	}
	if !knownKind(kind) {
		kind = string(flightops.KindTimeChange)
	}
	route := n.Origin + " → " + n.Destination
	args := []any{"flight", n.Flight, "route", route, "date", i18n.FormatISODate(lang, n.Date),
		"departure", n.clock(n.departure(), n.Origin), "scheduled", n.clock(n.DepartAt, n.Origin),
		"was", n.clock(n.OriginalDepartAt, n.Origin), "arrival", n.clock(n.arrival(), n.Destination)}
	if n.DivertedTo != "" {
		args = append(args, "airport", booking.AirportName(n.DivertedTo, lang))
	}
	place := ""
	if !n.cancelled() {
		switch {
		case n.Terminal != "" && n.Gate != "":
			place = t("place.both", "terminal", n.Terminal, "gate", n.Gate)
		case n.Terminal != "":
			place = t("place.terminal", "terminal", n.Terminal)
		case n.Gate != "":
			place = t("place.gate", "gate", n.Gate)
		}
	}
	// each language's body ends with {place}, after its own sentence gap
	body := strings.TrimSpace(t("body."+kind, append(args, "place", place)...))
	pnrs := n.PNRs
	if len(pnrs) > maxPNRs {
		pnrs = pnrs[:maxPNRs]
	}
	q := url.Values{"lang": {string(lang)}}
	if len(n.PNRs) == 1 {
		q.Set("pnr", n.PNRs[0])
	}
	return Message{
		V: 1, Title: t("title."+kind, "flight", n.Flight), Body: body, Tag: n.Tag(),
		URL:  strings.TrimRight(publicURL, "/") + "/bookings?" + q.Encode(),
		Lang: string(lang), Flight: n.Flight, Date: n.Date, Kind: kind, Sequence: n.Sequence, PNRs: pnrs,
		Segment: n.patch(cat, lang, now),
	}
}

func knownKind(k string) bool {
	for _, x := range flightops.Kinds {
		if string(x) == k {
			return true
		}
	}
	return false
}

// clock is at's local time at airport, "10:40", with "(+1)" when that is
// a later day than the flight's date.
func (n Notice) clock(at time.Time, airport string) string {
	local := at.In(booking.AirportZone(airport))
	s := local.Format("15:04")
	if d, err := time.ParseInLocation(booking.DateLayout, n.Date, local.Location()); err == nil {
		day := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, local.Location())
		if days := int(day.Sub(d).Hours() / 24); days > 0 {
			s += fmt.Sprintf(" (+%d)", days)
		}
	}
	return s
}

// patch renders the flight's fields through the bookings API's own view
// of a segment, so the kept copy reads as a fresh one would.
func (n Notice) patch(cat *i18n.Catalog, lang i18n.Lang, now time.Time) Patch {
	orig, origArr := n.OriginalDepartAt, n.OriginalArrivalAt
	seg := booking.Segment{
		StatusCode: booking.StatusConfirmed, Flight: n.Flight, OriginAirportCode: n.Origin, DestinationAirportCode: n.Destination,
		OriginTerminal: n.Terminal, OriginGate: n.Gate, DepartAt: n.DepartAt, ArrivalAt: n.ArrivalAt,
		EstimatedDepartAt: n.EstimatedDepartAt, EstimatedArrivalAt: n.EstimatedArrivalAt, FlightStatus: n.FlightStatus,
		ChangeSeq: n.Sequence, ChangeKind: n.Kind, DivertedTo: n.DivertedTo,
	}
	if !orig.IsZero() && !origArr.IsZero() {
		seg.PreviousDepartAt, seg.PreviousArrivalAt = &orig, &origArr
	}
	v := booking.ViewSegment(seg, cat, lang, now, true)
	return Patch{
		DepartDateTime: v.DepartDateTime, ArrivalDateTime: v.ArrivalDateTime,
		EstimatedDepartDateTime: v.EstimatedDepartDateTime, EstimatedArrivalDateTime: v.EstimatedArrivalDateTime,
		OriginTerminal: v.OriginTerminal, OriginGate: v.OriginGate, FlightStatus: v.FlightStatus, FlightStatusLabel: v.FlightStatusLabel,
		IsIrregular: v.IsIrregular, FlightChange: v.FlightChange,
	}
}
