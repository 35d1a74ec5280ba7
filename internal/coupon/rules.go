package coupon

import (
	"time"

	"members/internal/pass"
	"members/internal/validate"
)

// Age classes: infants are under 2 and have no seat, children
// are from 2, adults from 12.
const (
	InfantUnder = 2
	AdultFrom   = 12
)

// MaxAdditionalPassengers is how many passengers a member may add.
const MaxAdditionalPassengers = 8

// AgeOn returns the age in completed years on day (both YYYY-MM-DD); a
// birthday on 29 February is reached on 1 March in other years.
func AgeOn(birth, day time.Time) int {
	age := day.Year() - birth.Year()
	if day.Month() < birth.Month() || (day.Month() == birth.Month() && day.Day() < birth.Day()) {
		age--
	}
	return age
}

// IsAdult reports whether someone born on birth is an adult on day.
func IsAdult(birth, day time.Time) bool { return AgeOn(birth, day) >= AdultFrom }

// FitsType reports whether the age on the first boarding day fits a
// passenger type: child and adult entries are for 2 and over, infant
// entries for under 2.
func FitsType(passengerType string, birth, firstBoardingDay time.Time) bool {
	age := AgeOn(birth, firstBoardingDay)
	if passengerType == TypeInfant {
		return age < InfantUnder
	}
	return age >= InfantUnder
}

// HasSeat reports whether a passenger type pays for a coupon (infants
// travel on an adult's lap, without a seat or a coupon of their own).
func HasSeat(passengerType string) bool { return passengerType != TypeInfant }

func parseDay(s string) (time.Time, bool) {
	t, err := time.Parse(pass.DateLayout, s)
	return t, err == nil
}

// passengerField is the field key of an additional passenger's field; the
// client labels it with the passenger's position number (the member is 1).
func passengerField(i int, name string) string {
	return "additionalPassengers." + itoa(i) + "." + name
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i)) // #nosec G115 -- i < 10 here, so 0 <= i and the rune is a digit
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// checkPassenger checks one additional passenger (index i, position i+2).
// today and firstBoarding are Japan-time calendar days. Nationality,
// passport and entry details are checked only for an international trip.
func checkPassenger(f validate.Errors, i int, p Passenger, validCountry func(string) bool, today, firstBoarding time.Time, international bool) {
	pos := i + 2
	add := func(name, key string) { f.Add(passengerField(i, name), key, "position", pos) }
	req := func(name, v string) bool {
		if v == "" {
			add(name, "coupon.validation.required")
			return false
		}
		return true
	}
	if req("passengerType", p.PassengerType) && p.PassengerType != TypeAdult && p.PassengerType != TypeChild && p.PassengerType != TypeInfant {
		add("passengerType", "coupon.validation.choice")
	}
	for _, n := range []struct{ name, v string }{{"lastname", p.Lastname}, {"firstname", p.Firstname}} {
		if req(n.name, n.v) {
			if !validate.IsLatinName(n.v) {
				add(n.name, "coupon.validation.latin")
			} else if len(n.v) > 50 {
				add(n.name, "coupon.validation.too_long")
			}
		}
	}
	if req("gender", p.Gender) && p.Gender != "male" && p.Gender != "female" {
		add("gender", "coupon.validation.choice")
	}
	if req("dateOfBirth", p.DateOfBirth) {
		birth, ok := parseDay(p.DateOfBirth)
		switch {
		case !ok:
			add("dateOfBirth", "coupon.validation.date")
		case birth.After(today):
			add("dateOfBirth", "coupon.validation.birth_future")
		case p.PassengerType == TypeInfant && !FitsType(TypeInfant, birth, firstBoarding):
			add("dateOfBirth", "coupon.validation.infant_age")
		case p.PassengerType != "" && p.PassengerType != TypeInfant && !FitsType(p.PassengerType, birth, firstBoarding):
			add("dateOfBirth", "coupon.validation.two_and_over")
		}
	}
	if !international {
		return
	}
	if req("inboundTransportMethod", p.InboundTransportMethod) && p.InboundTransportMethod != "air" && p.InboundTransportMethod != "sea" {
		add("inboundTransportMethod", "coupon.validation.choice")
	}
	if req("passportNo", p.PassportNo) && (!validate.IsAlnum(p.PassportNo) || len(p.PassportNo) > 20) {
		add("passportNo", "coupon.validation.alnum")
	}
	if req("inboundFlightNo", p.InboundFlightNo) && (!validate.IsAlnum(p.InboundFlightNo) || len(p.InboundFlightNo) > 10) {
		add("inboundFlightNo", "coupon.validation.alnum")
	}
	if req("dateOfEntry", p.DateOfEntry) {
		if _, ok := parseDay(p.DateOfEntry); !ok {
			add("dateOfEntry", "coupon.validation.date")
		}
	}
	if req("nationalityCode", p.NationalityCode) && !validCountry(p.NationalityCode) {
		add("nationalityCode", "coupon.validation.choice")
	}
}
