package booking_test

import (
	"testing"
	"time"

	"members/internal/booking"
)

// TestValidUntil: an answer holds until the first instant at which the
// clock alone would change it, and no longer.
func TestValidUntil(t *testing.T) {
	now := time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC) // 15:00 in Japan
	midnight := time.Date(2026, 11, 21, 0, 0, 0, 0, booking.JST)
	at := func(d time.Duration) time.Time { return now.Add(d) }
	ptr := func(t time.Time) *time.Time { return &t }
	seg := func(depart time.Duration) booking.Segment {
		return booking.Segment{DepartAt: at(depart), ArrivalAt: at(depart + time.Hour)}
	}
	active := booking.Query{ActiveAt: &now}
	cases := []struct {
		name string
		q    booking.Query
		page booking.Page
		want time.Time
	}{
		{"nothing: the day in Japan ends", booking.Query{}, booking.Page{}, midnight},
		{"a departure in an hour", booking.Query{}, booking.Page{List: []booking.Reservation{{Segments: []booking.Segment{seg(-48 * time.Hour), seg(time.Hour)}}}}, at(time.Hour)},
		{"an actual departure before the scheduled one", booking.Query{}, booking.Page{List: []booking.Reservation{{Segments: []booking.Segment{
			func() booking.Segment { s := seg(3 * time.Hour); s.ActualDepartAt = ptr(at(2 * time.Hour)); return s }()}}}}, at(2 * time.Hour)},
		{"outdated 180 days after the first departure", booking.Query{}, booking.Page{List: []booking.Reservation{{Segments: []booking.Segment{
			seg(-booking.OutdatedAfter + 30*time.Minute)}}}}, at(30 * time.Minute)},
		{"ACTIVE: the earliest last departure of all matches", active, booking.Page{LastDepartMin: at(20 * time.Minute)}, at(20 * time.Minute)},
		{"not ACTIVE: last departures do not matter", booking.Query{}, booking.Page{LastDepartMin: at(20 * time.Minute)}, midnight},
		{"past instants do not matter", booking.Query{}, booking.Page{List: []booking.Reservation{{Segments: []booking.Segment{seg(-time.Hour)}}}}, midnight},
		{"a departure right now: holds no longer", booking.Query{}, booking.Page{List: []booking.Reservation{{Segments: []booking.Segment{seg(0)}}}}, now},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := booking.ValidUntil(c.q, c.page, now); !got.Equal(c.want) {
				t.Errorf("validUntil = %v, want %v", got, c.want)
			}
			res := booking.SearchResult{Version: 3, ValidUntil: booking.ValidUntil(c.q, c.page, now)}
			if res.Holds(3, c.want) || res.Holds(4, now) {
				t.Errorf("holds at its limit or at another version")
			}
		})
	}
}
