package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"members/internal/booking"
)

// decodePage reads SearchPage's JSON page (SearchPageSQL): an array of
// reservations, each an array of the reservation's columns, its segments
// and its passengers, all positional. A small reader of the few JSON
// forms both engines write there, with no reflection: encoding/json into
// []any cost more than the rows it replaces.
func decodePage(doc string) ([]booking.Reservation, error) {
	d := jsonReader{s: doc}
	list := []booking.Reservation{}
	if d.null() {
		return list, d.end()
	}
	for d.array(); d.more(); {
		var r booking.Reservation
		d.array()
		r.ID = d.str()
		r.MemberID = d.str()
		r.PNR = d.str()
		r.BookedAt = d.time()
		r.StatusCode = d.str()
		r.Currency = d.str()
		r.TotalAmount, _ = d.int()
		r.ContactEmail = d.str()
		if !d.null() {
			for d.array(); d.more(); {
				r.Segments = append(r.Segments, d.segment())
			}
		}
		if !d.null() {
			for d.array(); d.more(); {
				var p booking.Passenger
				d.array()
				p.Lastname, p.Firstname, p.PassengerType = d.str(), d.str(), d.str()
				d.close()
				r.Passengers = append(r.Passengers, p)
			}
		}
		d.close()
		if d.err != nil {
			return nil, d.err
		}
		list = append(list, r)
	}
	return list, d.end()
}

// segment reads one segment in segmentCols order.
func (d *jsonReader) segment() booking.Segment {
	var g booking.Segment
	d.array()
	g.Key, g.StatusCode, g.Flight, g.FlightNumber = d.str(), d.str(), d.str(), d.str()
	g.IsShowHotelLink = d.bool()
	g.OriginAirportCode, g.OriginTerminal, g.OriginGate = d.str(), d.str(), d.str()
	g.DestinationAirportCode, g.DestinationTerminal = d.str(), d.str()
	g.DepartAt, g.EstimatedDepartAt, g.ActualDepartAt = d.time(), d.optTime(), d.optTime()
	g.ArrivalAt, g.EstimatedArrivalAt, g.ActualArrivalAt = d.time(), d.optTime(), d.optTime()
	g.FlightStatus = d.str()
	seq, _ := d.int()
	g.ChangeSeq = int(seq)
	g.ChangeKind = d.str()
	g.PreviousDepartAt, g.PreviousArrivalAt = d.optTime(), d.optTime()
	g.DivertedTo = d.str()
	// a view written before migration 00291 has no previous gate
	g.PreviousGate = d.trailingStr()
	d.close()
	return g
}

// trailingStr reads a string that an array written before its column was
// added lacks: at the array's end it reads "" and leaves the end to close.
func (d *jsonReader) trailingStr() string {
	if d.err != nil {
		return ""
	}
	d.ws()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		return ""
	}
	return d.str()
}

// jsonReader reads values in sequence; the first error sticks and every
// later read returns a zero value.
type jsonReader struct {
	s   string
	i   int
	err error
	// first is set after an opening bracket: the next value needs no comma.
	first bool
	// ready is set when a peek (null) left the reader on a value's start.
	ready bool
}

var errJSONSyntax = errors.New("search page: bad JSON")

func (d *jsonReader) fail() {
	if d.err == nil {
		d.err = fmt.Errorf("%w at %d", errJSONSyntax, d.i)
	}
	d.i = len(d.s)
}

func (d *jsonReader) ws() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// value moves to the start of the next value of the current array,
// past its separating comma.
func (d *jsonReader) value() bool {
	if d.ready {
		d.ready = false
		return d.err == nil
	}
	d.ws()
	if d.first {
		d.first = false
	} else if d.i < len(d.s) && d.s[d.i] == ',' {
		d.i++
		d.ws()
	}
	if d.i >= len(d.s) {
		d.fail()
		return false
	}
	return d.err == nil
}

// array enters an array value.
func (d *jsonReader) array() {
	if !d.value() {
		return
	}
	if d.s[d.i] != '[' {
		d.fail()
		return
	}
	d.i++
	d.first = true
}

// more reports whether the current array has another element; at its
// end it steps out of it.
func (d *jsonReader) more() bool {
	if d.err != nil {
		return false
	}
	d.ws()
	if d.i < len(d.s) && d.s[d.i] == ']' {
		d.i++
		d.first = false
		return false
	}
	return d.i < len(d.s)
}

// close leaves an array whose elements have all been read.
func (d *jsonReader) close() {
	if d.more() {
		d.fail()
	}
}

// null consumes a null value if the next one is null.
func (d *jsonReader) null() bool {
	if !d.value() {
		return false
	}
	if strings.HasPrefix(d.s[d.i:], "null") {
		d.i += 4
		return true
	}
	d.ready = true // the value is read next, from here
	return false
}

// token returns the next bare value (a number, true, false or null).
func (d *jsonReader) token() string {
	if !d.value() {
		return ""
	}
	start := d.i
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ',', ']', ' ', '\n', '\r', '\t':
			return d.s[start:d.i]
		}
		d.i++
	}
	return d.s[start:d.i]
}

// str reads a string; null reads as "".
func (d *jsonReader) str() string {
	if !d.value() {
		return ""
	}
	if d.s[d.i] != '"' {
		if t := d.token(); t != "null" {
			d.fail()
		}
		return ""
	}
	start := d.i
	escaped := false
	for d.i++; d.i < len(d.s); d.i++ {
		switch d.s[d.i] {
		case '\\':
			escaped = true
			d.i++
		case '"':
			d.i++
			if !escaped {
				return d.s[start+1 : d.i-1]
			}
			var out string
			if err := json.Unmarshal([]byte(d.s[start:d.i]), &out); err != nil {
				d.fail()
			}
			return out
		}
	}
	d.fail()
	return ""
}

// int reads an integer; valid is false for null.
func (d *jsonReader) int() (v int64, valid bool) {
	t := d.token()
	if t == "null" || d.err != nil {
		return 0, false
	}
	v, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		d.fail()
		return 0, false
	}
	return v, true
}

// bool reads true/false (PostgreSQL) or 1/0 (SQLite).
func (d *jsonReader) bool() bool {
	switch d.token() {
	case "true", "1":
		return true
	case "false", "0":
		return false
	}
	d.fail()
	return false
}

func (d *jsonReader) time() time.Time {
	v, _ := d.int()
	return time.UnixMilli(v).UTC()
}

func (d *jsonReader) optTime() *time.Time {
	v, ok := d.int()
	if !ok {
		return nil
	}
	t := time.UnixMilli(v).UTC()
	return &t
}

// end checks that nothing follows the document.
func (d *jsonReader) end() error {
	d.ws()
	if d.err == nil && d.i != len(d.s) {
		d.fail()
	}
	return d.err
}
