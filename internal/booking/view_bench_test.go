package booking_test

import (
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/booking"
	"members/internal/i18n"
)

// BenchmarkView renders a page of ten bookings, as the booking search
// answers one (a share of every uncached search's CPU: docs/speed.md).
func BenchmarkView(b *testing.B) {
	c := apitest.Catalog(b)
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	seg := func(key, from, to string, depart time.Time) booking.Segment {
		return booking.Segment{Key: key, StatusCode: "HK", Flight: "MM101", FlightNumber: "101",
			OriginAirportCode: from, DestinationAirportCode: to, DepartAt: depart, ArrivalAt: depart.Add(2 * time.Hour)}
	}
	r := booking.Reservation{PNR: "HNK7Q2", BookedAt: now.AddDate(0, -1, 0), StatusCode: "CONFIRMED",
		Passengers: []booking.Passenger{{"SATO", "HANAKO", "ADULT"}, {"SATO", "TARO", "CHILD"}},
		Segments:   []booking.Segment{seg("1", "KIX", "ICN", now.AddDate(0, 0, 7)), seg("2", "ICN", "KIX", now.AddDate(0, 0, 14))}}
	b.ReportAllocs()
	for b.Loop() {
		for range 10 {
			_ = booking.View(r, c, i18n.JP, nil, now, true)
		}
	}
}
