package booking

import (
	"fmt"
	"hash/fnv"
	"net/url"

	"members/internal/i18n"
	"members/internal/masters"
)

// Offer kinds (the widgets of a segment).
const (
	OfferHotel  = "hotel"
	OfferRental = "rental"
)

// Offer is one hotel or rental-car offer at a destination. Price is in the
// currency's minor unit, per night (hotel) or per day (rental car).
type Offer struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Area     string `json:"area"`
	Price    int64  `json:"price"`
	Currency string `json:"currency"`
	Rating   int    `json:"rating,omitempty"` // hotel stars
	URL      string `json:"url"`
}

// OfferList is the answer of a widget.
type OfferList struct {
	Kind        string  `json:"kind"`
	AirportCode string  `json:"airportCode"`
	City        string  `json:"city"`
	CheckIn     string  `json:"checkIn"` // local arrival date at the destination
	Offers      []Offer `json:"offers"`
}

// currencyOf is the local currency of an airport's country.
var currencyOf = map[string]string{"JP": "JPY", "KR": "KRW", "HK": "HKD", "TW": "TWD", "CN": "CNY", "TH": "THB", "SG": "SGD"}

// basePrice is a typical hotel night in each currency's minor unit.
var basePrice = map[string]int64{"JPY": 9000, "KRW": 90000, "HKD": 700, "TWD": 2500, "CNY": 450, "THB": 1800, "SGD": 15000}

// OffersFor builds the partner offers at a segment's destination. Prices
// vary by airport but are stable, so the same page shows the same offers.
func OffersFor(kind string, seg Segment, lang i18n.Lang) OfferList {
	code := seg.DestinationAirportCode
	a, _ := masters.AirportByCode(code)
	city := a.NickName
	if lang == i18n.JP && a.NickNameAlt != "" {
		city = a.NickNameAlt
	}
	cur := currencyOf[a.Country]
	if cur == "" {
		cur = "JPY"
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(code + kind))
	seed := int64(h.Sum32() % 7)
	base := basePrice[cur]
	checkIn := seg.ArrivalAt.In(AirportZone(code)).Format(DateLayout)
	out := OfferList{Kind: kind, AirportCode: code, City: city, CheckIn: checkIn, Offers: []Offer{}}
	type item struct {
		name, area string
		factor     int64
		stars      int
	}
	var items []item
	switch kind {
	case OfferRental:
		items = []item{
			{"Compact car (Toyota Yaris or similar)", a.ShortName + " airport counter", 60, 0},
			{"Mid-size car (Toyota Corolla or similar)", a.ShortName + " airport counter", 85, 0},
			{"Minivan, 7 seats (Toyota Noah or similar)", city + " station office", 130, 0},
		}
	default:
		kind = OfferHotel
		items = []item{
			{city + " Airport Hotel", a.ShortName, 100, 3},
			{"Peach Stay " + city + " Central", city + " city centre", 125, 4},
			{city + " Bay Inn", city + " waterfront", 80, 2},
		}
	}
	for i, it := range items {
		price := base * (it.factor + seed*5) / 100
		q := url.Values{"airport": {code}, "date": {checkIn}, "lang": {string(lang)}}
		out.Offers = append(out.Offers, Offer{
			ID: fmt.Sprintf("%s-%s-%d", kind, code, i+1), Name: it.name, Area: it.area, Price: price, Currency: cur,
			Rating: it.stars, URL: fmt.Sprintf("https://partners.example.com/%s?%s", kind, q.Encode()),
		})
	}
	out.Kind = kind
	return out
}
