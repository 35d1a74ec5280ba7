package booking

import "members/internal/masters"

// ConsumptionTaxRate is Japan's standard consumption tax rate, in percent.
const ConsumptionTaxRate = 10

// ConsumptionTax is the consumption-tax line a Japanese receipt carries.
// A domestic fare includes the tax (10 %); international air transport is
// exempt (Consumption Tax Act, art. 7), and the receipt says so.
type ConsumptionTax struct {
	Domestic bool
	// Included is the tax inside TotalAmount (domestic only): the total
	// × 10/110, rounded down, in the booking's currency.
	Included int64
}

// ConsumptionTax works out the receipt's tax line: domestic when every
// segment flies between two airports in Japan.
func (r Reservation) ConsumptionTax() ConsumptionTax {
	domestic := len(r.Segments) > 0
	for _, s := range r.Segments {
		if !inJapan(s.OriginAirportCode) || !inJapan(s.DestinationAirportCode) {
			domestic = false
		}
	}
	if !domestic {
		return ConsumptionTax{}
	}
	return ConsumptionTax{Domestic: true, Included: r.TotalAmount * ConsumptionTaxRate / (100 + ConsumptionTaxRate)}
}

func inJapan(code string) bool {
	a, ok := masters.AirportByCode(code)
	return ok && a.Country == "JP"
}
