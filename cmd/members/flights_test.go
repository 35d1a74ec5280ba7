package main

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"members/internal/booking"
	"members/internal/store"
)

func TestFlightsCommands(t *testing.T) {
	t.Parallel()
	dsn := demoDB(t)
	// MM001 KIX-ICN, ten days from now, 08:30 Japan time.
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	var dep int64
	err = db.QueryRow(`SELECT depart_at FROM reservation_segments WHERE flight = 'MM001'`).Scan(&dep)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	date := time.UnixMilli(dep).In(booking.JST).Format(booking.DateLayout)

	out, _, err := call(t, "flights", "event", "--flight", "mm001", "--date", date, "--kind", "delay", "--departure", "10:40", "--gate", "7", "--db", dsn)
	if err != nil || !regexp.MustCompile(`^op-[0-9a-f]{16}\tapplied\t1 bookings\n$`).MatchString(out) {
		t.Fatalf("flights event = %q, %v", out, err)
	}
	out, _, err = call(t, "flights", "show", "--flight", "MM001", "--date", date, "--db", dsn)
	if err != nil || !strings.Contains(out, "NOT_YET_DEPARTED_WITH_DELAY") || !strings.Contains(out, date+" 10:40 +09:00") ||
		!strings.Contains(out, `gate        "7"`) || !strings.Contains(out, "delay operator") {
		t.Fatalf("flights show = %q, %v", out, err)
	}
	if _, _, err := call(t, "flights", "event", "--flight", "MM999", "--date", date, "--kind", "cancellation", "--db", dsn); err == nil ||
		!strings.Contains(err.Error(), "no booking holds this flight") {
		t.Fatalf("unknown flight: %v", err)
	}
	if _, _, err := call(t, "flights", "event", "--flight", "MM001", "--date", date, "--kind", "delay", "--db", dsn); err == nil ||
		!strings.Contains(err.Error(), "--departure") {
		t.Fatalf("delay without a time: %v", err)
	}
	// A delay to before the schedule is refused; past midnight it is written with its date.
	if _, _, err := call(t, "flights", "event", "--flight", "MM001", "--date", date, "--kind", "delay", "--departure", "00:30", "--db", dsn); err == nil ||
		!strings.Contains(err.Error(), "--departure") || !strings.Contains(err.Error(), "after the scheduled") {
		t.Fatalf("delay to before the schedule: %v", err)
	}
	next := time.UnixMilli(dep).In(booking.JST).AddDate(0, 0, 1).Format(booking.DateLayout)
	if out, _, err := call(t, "flights", "event", "--flight", "MM001", "--date", date, "--kind", "delay", "--departure", next+" 00:30", "--db", dsn); err != nil ||
		!strings.Contains(out, "applied") {
		t.Fatalf("delay past midnight = %q, %v", out, err)
	}
	if out, _, err := call(t, "flights", "show", "--flight", "MM001", "--date", date, "--db", dsn); err != nil ||
		!strings.Contains(out, "estimated   "+next+" 00:30 +09:00") {
		t.Fatalf("flights show after a delay past midnight = %q, %v", out, err)
	}
}
