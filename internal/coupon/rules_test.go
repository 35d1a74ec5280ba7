package coupon

import (
	"testing"
	"time"

	"members/internal/validate"
)

func day(t *testing.T, s string) time.Time {
	t.Helper()
	d, ok := parseDay(s)
	if !ok {
		t.Fatalf("bad day %q", s)
	}
	return d
}

func TestAgeOnBoundaryDays(t *testing.T) {
	tests := []struct {
		birth, on string
		age       int
	}{
		{"2024-12-01", "2026-11-30", 1}, // the day before the 2nd birthday
		{"2024-12-01", "2026-12-01", 2}, // the 2nd birthday
		{"2014-12-01", "2026-11-30", 11},
		{"2014-12-01", "2026-12-01", 12},
		{"2024-02-29", "2026-02-28", 1}, // leap-day birthdays come on 1 March
		{"2024-02-29", "2026-03-01", 2},
		{"2024-02-29", "2028-02-29", 4},
		{"2026-12-01", "2026-12-01", 0},
	}
	for _, tt := range tests {
		if got := AgeOn(day(t, tt.birth), day(t, tt.on)); got != tt.age {
			t.Errorf("AgeOn(%s, %s) = %d, want %d", tt.birth, tt.on, got, tt.age)
		}
	}
}

func TestPassengerTypesOnFirstBoardingDay(t *testing.T) {
	first := day(t, "2026-12-01")
	tests := []struct {
		typ, birth string
		fits       bool
	}{
		{TypeInfant, "2024-12-02", true},  // 1 year old the day before turning 2
		{TypeInfant, "2024-12-01", false}, // turns 2 on the first boarding day
		{TypeChild, "2024-12-01", true},
		{TypeChild, "2024-12-02", false},
		{TypeAdult, "2024-12-01", true}, // adult entries: 2 and over
		{TypeAdult, "2025-06-01", false},
	}
	for _, tt := range tests {
		if got := FitsType(tt.typ, day(t, tt.birth), first); got != tt.fits {
			t.Errorf("FitsType(%s, %s) = %v, want %v", tt.typ, tt.birth, got, tt.fits)
		}
	}
	if !IsAdult(day(t, "2014-12-01"), first) || IsAdult(day(t, "2014-12-02"), first) {
		t.Error("the purchaser is an adult from the 12th birthday on the first boarding day")
	}
}

func TestRefundAmounts(t *testing.T) {
	tests := []struct {
		paid        int64
		items       int
		fee, refund int64
	}{
		{32800, 1, 9000, 23800},
		{65600, 2, 18000, 47600},
		{98400, 3, 27000, 71400},
		{9000, 1, 9000, 0},
		{8000, 1, 8000, 0}, // never below zero
		{0, 1, 0, 0},
	}
	for _, tt := range tests {
		fee, refund := Refund(tt.paid, tt.items)
		if fee != tt.fee || refund != tt.refund {
			t.Errorf("Refund(%d, %d) = %d, %d; want %d, %d", tt.paid, tt.items, fee, refund, tt.fee, tt.refund)
		}
	}
}

func TestFareOf(t *testing.T) {
	if FareOf(PlanLite) != "happy" || FareOf(PlanStandard) != "happlus" {
		t.Error("lite is happy, standard is happlus")
	}
}

// A domestic trip asks no arrival or passport details (a saved Japanese
// child was once refused for the Kansai pass); an international one names
// each missing field.
func TestPassengerEntryDetailsOnlyAbroad(t *testing.T) {
	child := Passenger{PassengerType: TypeChild, Lastname: "Yamada", Firstname: "Ken", Gender: "male", DateOfBirth: "2018-05-01", NationalityCode: "JP"}
	today, first := day(t, "2026-11-28"), day(t, "2026-12-04")
	anyCountry := func(string) bool { return true }
	f := validate.Errors{}
	checkPassenger(f, 0, child, anyCountry, today, first, false)
	if !f.Empty() {
		t.Fatalf("domestic: errors %v, want none", f)
	}
	f = validate.Errors{}
	checkPassenger(f, 0, child, anyCountry, today, first, true)
	for _, name := range []string{"inboundTransportMethod", "passportNo", "inboundFlightNo", "dateOfEntry"} {
		if !f.Has(passengerField(0, name)) {
			t.Errorf("international: no error on %s (errors %v)", name, f)
		}
	}
}
