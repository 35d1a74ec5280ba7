package demo

import (
	"fmt"
	"time"

	"members/internal/booking"
	"members/internal/store"
)

// Demo booking numbers. AddablePNR1/2 belong to no account yet: the demo
// members can add them with the last names Yamada and Kim.
const (
	DemoPNRFuture     = "HNK7Q2" // member 1: KIX-ICN-KIX in 10 days
	DemoPNRDelayed    = "TPE3XY" // member 1: NRT-TPE in 3 days, delayed
	DemoPNRFlightCanc = "BKK5LM" // member 1: KIX-BKK, the flight is cancelled
	DemoPNRPast       = "SIN8AB" // member 1: KIX-SIN-KIX a month ago, flown
	DemoPNRSegCanc    = "OKA2CD" // member 1: HND-OKA cancelled, OKA-ISG
	DemoPNROutdated   = "OLD9ZZ" // member 1: FUK-ICN 250 days ago
	DemoPNRMember2    = "KIM1AA" // member 2: ICN-KIX in 7 days
	AddablePNR1       = "ADD7YM" // nobody's: passenger Yamada
	AddablePNR2       = "ADD8KM" // nobody's: passenger Kim
)

// seedBookings adds the demo members' reservations, relative to now: future,
// past, older than 180 days, a cancelled segment, a delayed and a cancelled
// flight, over several airports and time zones; plus two bookings that
// belong to nobody yet, to try "add a booking".
func seedBookings(s *store.Seed, now time.Time) error {
	day := 24 * time.Hour
	// at is a departure d days from now at hh:mm Japan time, to the minute.
	at := func(d int, hh, mm int) time.Time {
		t := now.In(booking.JST).Add(time.Duration(d) * day)
		return time.Date(t.Year(), t.Month(), t.Day(), hh, mm, 0, 0, booking.JST).UTC()
	}
	seg := func(key, flight, from, to string, dep time.Time, minutes int) booking.Segment {
		return booking.Segment{
			Key: key, StatusCode: booking.StatusConfirmed, Flight: "MM" + flight, FlightNumber: flight,
			OriginAirportCode: from, DestinationAirportCode: to, OriginTerminal: "1", DestinationTerminal: "1",
			DepartAt: dep, ArrivalAt: dep.Add(time.Duration(minutes) * time.Minute), FlightStatus: booking.FlightOnTime,
		}
	}
	flown := func(s booking.Segment, delay time.Duration) booking.Segment {
		d, a := s.DepartAt.Add(delay), s.ArrivalAt.Add(delay)
		s.ActualDepartAt, s.ActualArrivalAt = &d, &a
		s.FlightStatus = booking.FlightArrived
		if delay > 0 {
			s.FlightStatus = booking.FlightDepartedWithDelay
		}
		return s
	}
	yamada := []booking.Passenger{{Lastname: "YAMADA", Firstname: "HANAKO", PassengerType: "ADULT"}}
	yamada2 := append(append([]booking.Passenger{}, yamada...), booking.Passenger{Lastname: "YAMADA", Firstname: "TARO", PassengerType: "ADULT"})
	kim := []booking.Passenger{{Lastname: "KIM", Firstname: "MINJUN", PassengerType: "ADULT"}}

	future := seg("1", "001", "KIX", "ICN", at(10, 8, 30), 110)
	future.IsShowHotelLink, future.OriginGate = true, "12"
	futureBack := seg("2", "002", "ICN", "KIX", at(14, 13, 45), 105)

	delayed := seg("1", "101", "NRT", "TPE", at(3, 9, 15), 240)
	delayed.FlightStatus, delayed.OriginTerminal, delayed.OriginGate = booking.FlightNotYetDepartedWithDelay, "3", "148"
	ed, ea := delayed.DepartAt.Add(95*time.Minute), delayed.ArrivalAt.Add(95*time.Minute)
	delayed.EstimatedDepartAt, delayed.EstimatedArrivalAt = &ed, &ea
	delayed.IsShowHotelLink = true

	flightCanc := seg("1", "801", "KIX", "BKK", at(20, 0, 20), 385)
	flightCanc.FlightStatus = booking.FlightCancelled

	pastOut := flown(seg("1", "801", "KIX", "SIN", at(-30, 0, 20), 400), 0)
	pastBack := flown(seg("2", "802", "SIN", "KIX", at(-25, 1, 30), 395), 50*time.Minute)

	segCanc := seg("1", "551", "HND", "OKA", at(40, 6, 0), 165)
	segCanc.StatusCode = "Cancelled" // the booking system's casing varies; the rule is case-insensitive
	segCanc2 := seg("2", "561", "OKA", "ISG", at(41, 10, 10), 60)
	segCanc2.IsShowHotelLink = true

	outdated := flown(seg("1", "153", "FUK", "ICN", at(-250, 10, 0), 85), 0)

	hkg := flown(seg("1", "071", "KIX", "HKG", at(-5, 9, 30), 250), 0)
	cts := seg("1", "171", "KIX", "CTS", at(60, 7, 5), 125)
	cts.IsShowHotelLink = true

	list := []booking.Reservation{
		{MemberID: Member1, PNR: DemoPNRFuture, BookedAt: at(-20, 21, 4), Segments: []booking.Segment{future, futureBack}, Passengers: yamada2, Currency: "JPY", TotalAmount: 38760},
		{MemberID: Member1, PNR: DemoPNRDelayed, BookedAt: at(-45, 12, 30), Segments: []booking.Segment{delayed}, Passengers: yamada, Currency: "JPY", TotalAmount: 21990},
		{MemberID: Member1, PNR: DemoPNRFlightCanc, BookedAt: at(-60, 19, 0), Segments: []booking.Segment{flightCanc}, Passengers: yamada, Currency: "JPY", TotalAmount: 27480},
		{MemberID: Member1, PNR: DemoPNRPast, BookedAt: at(-90, 8, 45), Segments: []booking.Segment{pastOut, pastBack}, Passengers: yamada, Currency: "SGD", TotalAmount: 41800},
		{MemberID: Member1, PNR: DemoPNRSegCanc, BookedAt: at(-10, 22, 10), Segments: []booking.Segment{segCanc, segCanc2}, Passengers: yamada2, Currency: "JPY", TotalAmount: 31200},
		{MemberID: Member1, PNR: DemoPNROutdated, BookedAt: at(-300, 11, 0), Segments: []booking.Segment{outdated}, Passengers: yamada, Currency: "JPY", TotalAmount: 9990},
		{MemberID: Member1, PNR: "HKG6GH", BookedAt: at(-40, 10, 20), Segments: []booking.Segment{hkg}, Passengers: yamada, Currency: "HKD", TotalAmount: 128000},
		{MemberID: Member1, PNR: "CTS4EF", BookedAt: now.Add(-2 * time.Hour).Truncate(time.Minute), Segments: []booking.Segment{cts}, Passengers: yamada, Currency: "JPY", TotalAmount: 8490},
		{MemberID: Member2, PNR: DemoPNRMember2, BookedAt: at(-15, 9, 0), Segments: []booking.Segment{seg("1", "002", "ICN", "KIX", at(7, 13, 45), 105)}, Passengers: kim, Currency: "KRW", TotalAmount: 189000},
		{MemberID: Member2, PNR: "KIM2BB", BookedAt: at(-50, 9, 0), Segments: []booking.Segment{flown(seg("1", "172", "PUS", "KIX", at(-15, 11, 30), 90), 20*time.Minute)}, Passengers: kim, Currency: "KRW", TotalAmount: 145000},
		{MemberID: Member2, PNR: "KIM3CC", BookedAt: at(-230, 9, 0), Segments: []booking.Segment{flown(seg("1", "291", "ICN", "OKA", at(-200, 9, 0), 135), 0)}, Passengers: kim, Currency: "KRW", TotalAmount: 210000},
		{PNR: AddablePNR1, BookedAt: at(-3, 15, 0), Segments: []booking.Segment{seg("1", "105", "KIX", "TPE", at(25, 9, 0), 170)}, Passengers: yamada, Currency: "JPY", TotalAmount: 15990, ContactEmail: "demo@example.com"},
		{PNR: AddablePNR2, BookedAt: at(-4, 15, 0), Segments: []booking.Segment{seg("1", "008", "GMP", "HND", at(30, 11, 0), 130)}, Passengers: kim, Currency: "KRW", TotalAmount: 99000, ContactEmail: "demo2@example.com"},
	}
	// A frequent flyer's recent history: enough bookings for more than one
	// page of results.
	routes := [][2]string{{"KIX", "FUK"}, {"FUK", "KIX"}, {"KIX", "OKA"}, {"OKA", "KIX"}, {"KIX", "SDJ"}, {"SDJ", "KIX"}, {"KIX", "NGS"}, {"NGS", "KIX"}}
	for i, r := range routes {
		d := -160 + i*17
		s := flown(seg("1", fmt.Sprintf("%03d", 301+i), r[0], r[1], at(d, 7+i, 10), 80), 0)
		list = append(list, booking.Reservation{
			MemberID: Member1, PNR: fmt.Sprintf("HIS%dT%c", i+1, 'A'+i), BookedAt: at(d-12, 20, 15),
			Segments: []booking.Segment{s}, Passengers: yamada, Currency: "JPY", TotalAmount: 5990 + int64(i)*500,
		})
	}
	for i := range list {
		list[i].StatusCode = booking.StatusConfirmed
	}
	if err := s.Reservations(now, list); err != nil {
		return fmt.Errorf("demo: bookings: %w", err)
	}
	return nil
}
