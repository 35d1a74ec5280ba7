package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"members/internal/booking"
	"members/internal/masters"
	"members/internal/store"
)

// BenchSeedVersion names the data SeedBench writes. The benchmarks keep
// seeded databases between runs (internal/loadgen, seedcache.go) and reuse
// one only under the same version: change it with the generator, or with
// what the seeding leaves behind (2: PostgreSQL's tables vacuumed).
const BenchSeedVersion = 2

// BenchPNRPrefix starts every benchmark booking number: a later seeding
// counts the bookings with it to go on from where an earlier one ended.
const BenchPNRPrefix = "B"

// BenchMemberID is the id of the i-th benchmark member.
func BenchMemberID(i int) string { return fmt.Sprintf("b%031d", i) }

// BenchEmail is the login of the i-th benchmark member (password Password).
func BenchEmail(i int) string { return fmt.Sprintf("bench%07d@example.com", i) }

// SeedBench adds members [0, members) when missing and reservations
// numbered [from, to), spread evenly over them, with realistic dates
// (booked within two years before now, flying up to a year later, one or
// two segments, one to three passengers). passwordHash is stored for every
// member (hash once, log in as any). Inserts are batched, 500 reservations
// a statement, 5,000 a transaction.
func SeedBench(ctx context.Context, db *store.DB, passwordHash string, members, from, to int, now time.Time, progress func(done int)) error {
	if members < 1 {
		return fmt.Errorf("seed-bench: need at least one member")
	}
	if err := seedBenchMembers(ctx, db, passwordHash, members, now); err != nil {
		return err
	}
	airports := masters.Airports()
	rng := rand.New(rand.NewPCG(uint64(from), uint64(to))) // #nosec G115 G404 -- benchmark data: a reproducible generator seeded with the (non-negative) range
	const perStmt, perTx = 500, 5000
	for start := from; start < to; start += perTx {
		end := min(start+perTx, to)
		err := db.Seed(ctx, func(s *store.Seed) error {
			for b := start; b < end; b += perStmt {
				list := make([]booking.Reservation, 0, perStmt)
				for i := b; i < min(b+perStmt, end); i++ {
					list = append(list, benchReservation(rng, i, members, airports, now))
				}
				if err := s.Reservations(now, list); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("seed-bench: %w", err)
		}
		if progress != nil {
			progress(end)
		}
	}
	return nil
}

func seedBenchMembers(ctx context.Context, db *store.DB, hash string, members int, now time.Time) error {
	have, err := db.CountMembersByIDPrefix(ctx, "b")
	if err != nil {
		return fmt.Errorf("seed-bench: %w", err)
	}
	for start := have; start < members; start += 1000 {
		list := make([]store.BenchMember, 0, 1000)
		for i := start; i < min(start+1000, members); i++ {
			list = append(list, store.BenchMember{ID: BenchMemberID(i), Email: BenchEmail(i), Firstname: "Bench", Lastname: fmt.Sprintf("MEMBER%d", i)})
		}
		if err := db.InsertBenchMembers(ctx, hash, list, now); err != nil {
			return fmt.Errorf("seed-bench: %w", err)
		}
	}
	return nil
}

func benchReservation(rng *rand.Rand, i, members int, airports []masters.Airport, now time.Time) booking.Reservation {
	booked := now.Add(-time.Duration(rng.Int64N(int64(730 * 24 * time.Hour)))).Truncate(time.Minute)
	dep := booked.Add(time.Duration(1+rng.IntN(365)) * 24 * time.Hour).Truncate(5 * time.Minute)
	o := airports[rng.IntN(len(airports))].Code
	d := airports[rng.IntN(len(airports))].Code
	if d == o {
		d = "KIX"
		if o == "KIX" {
			d = "ICN"
		}
	}
	fn := strconv.Itoa(100 + rng.IntN(900))
	dur := time.Duration(60+rng.IntN(360)) * time.Minute
	status := booking.FlightOnTime
	if dep.Before(now) {
		status = booking.FlightArrived
	}
	segs := []booking.Segment{{Key: "1", StatusCode: booking.StatusConfirmed, Flight: "MM" + fn, FlightNumber: fn,
		OriginAirportCode: o, DestinationAirportCode: d, DepartAt: dep, ArrivalAt: dep.Add(dur), FlightStatus: status}}
	if rng.IntN(2) == 0 {
		back := dep.Add(time.Duration(2+rng.IntN(10)) * 24 * time.Hour)
		segs = append(segs, booking.Segment{Key: "2", StatusCode: booking.StatusConfirmed, Flight: "MM" + fn + "1", FlightNumber: fn + "1",
			OriginAirportCode: d, DestinationAirportCode: o, DepartAt: back, ArrivalAt: back.Add(dur), FlightStatus: status})
	}
	pax := []booking.Passenger{{Lastname: fmt.Sprintf("MEMBER%d", i%members), Firstname: "BENCH", PassengerType: "ADULT"}}
	for p := rng.IntN(3); p > 0; p-- {
		pax = append(pax, booking.Passenger{Lastname: "COMPANION", Firstname: "TRAVEL", PassengerType: "ADULT"})
	}
	return booking.Reservation{
		MemberID: BenchMemberID(i % members), PNR: BenchPNRPrefix + strings.ToUpper(strconv.FormatInt(int64(i), 36)),
		BookedAt: booked, StatusCode: booking.StatusConfirmed, Currency: "JPY", TotalAmount: int64(5000 + rng.IntN(60000)),
		Segments: segs, Passengers: pax,
	}
}
