package booking_test

import (
	"encoding/json"
	"testing"
	"time"

	"members/internal/booking"
)

func TestFeedOrder(t *testing.T) {
	for _, c := range []struct {
		held, incoming int64
		want           string
	}{
		{0, 1, booking.FeedApplied}, {3, 4, booking.FeedApplied}, {3, 3, booking.FeedDuplicate}, {3, 2, booking.FeedStale}, {3, 1, booking.FeedStale},
	} {
		if got := booking.FeedOrder(c.held, c.incoming); got != c.want {
			t.Errorf("FeedOrder(%d, %d) = %s, want %s", c.held, c.incoming, got, c.want)
		}
	}
	for _, c := range []struct {
		held     int64
		purged   bool
		incoming int64
		want     string
	}{
		{0, false, 1, booking.FeedApplied}, {3, false, 3, booking.FeedApplied}, {3, false, 4, booking.FeedApplied},
		{3, true, 3, booking.FeedDuplicate}, {3, true, 4, booking.FeedApplied}, {3, false, 2, booking.FeedStale}, {3, true, 2, booking.FeedStale},
	} {
		if got := booking.PurgeOrder(c.held, c.purged, c.incoming); got != c.want {
			t.Errorf("PurgeOrder(%d, %v, %d) = %s, want %s", c.held, c.purged, c.incoming, got, c.want)
		}
	}
}

// A valid snapshot becomes the booking it describes: codes upper-cased,
// instants in UTC, segments in departure order, the flight number split.
func TestSnapshotValidate(t *testing.T) {
	raw := `{"pnr":"ab12cd","version":7,"bookingDate":"2026-11-02T14:05:00+09:00","statusCode":"confirmed","currency":"jpy",
		"totalAmount":12800,"contactEmail":"a@example.com","passengers":[{"lastname":"Kimura","firstname":"Aoi","passengerType":"adult"}],
		"segments":[{"key":"2","flight":"MM206","originAirportCode":"CTS","destinationAirportCode":"KIX","departDateTime":"2026-12-05T18:00:00+09:00","arrivalDateTime":"2026-12-05T20:00:00+09:00","statusCode":"CONFIRMED","originTerminal":"","destinationTerminal":"1"},
		{"key":"1","flight":"mm205","originAirportCode":"KIX","destinationAirportCode":"ICN","departDateTime":"2026-12-01T08:30:00+09:00","arrivalDateTime":"2026-12-01T10:20:00+09:00","statusCode":"CONFIRMED","originTerminal":"1","destinationTerminal":""}]}`
	var s booking.Snapshot
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		t.Fatal(err)
	}
	s.Normalize()
	r, v, err := s.Validate(time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if v != 7 || r.PNR != "AB12CD" || r.StatusCode != "CONFIRMED" || r.Currency != "JPY" || r.Passengers[0].PassengerType != "ADULT" ||
		r.Segments[0].Key != "1" || r.Segments[0].Flight != "MM205" || r.Segments[0].FlightNumber != "205" ||
		!r.Segments[0].DepartAt.Equal(time.Date(2026, 11, 30, 23, 30, 0, 0, time.UTC)) || r.BookedAt.Location() != time.UTC {
		t.Fatalf("booking %+v", r)
	}
}
