package pdf

import (
	"strconv"
	"strings"
	"time"

	"members/internal/booking"
	"members/internal/brand"
	"members/internal/i18n"
)

// header draws the brand's mark and name, the issuer block (legal name,
// postal address and registration number from the brand configuration),
// the title and the booking's identification.
func (x *doc) header(d booking.Document) {
	top := x.y
	x.mark(margin, top, 30)
	r, g, b, _ := brand.RGB(x.brand.Colors.Accent) // checked by brand.Load
	x.gp.SetTextColor(r, g, b)
	x.text(margin+38, top+20, 14, x.brand.Airline)
	x.gp.SetTextColor(0, 0, 0)
	iy := x.issuer(top)
	x.y = max(top+62, iy+20)
	x.text(margin, x.y, 20, x.t("booking.pdf.title."+d.Kind))
	x.y += 10
	x.rule()
	x.gap(4)
	x.field(x.t("booking.pdf.pnr"), d.Reservation.PNR)
	x.field(x.t("booking.pdf.booking_date"), i18n.FormatDate(x.lang, d.Reservation.BookedAt.In(booking.JST), false))
	x.field(x.t("booking.pdf.issued"), i18n.FormatDateTime(x.lang, d.IssuedAt.In(booking.JST))+" (UTC+09:00)")
}

// issuerW is the width of the issuer block at the top right.
const issuerW = 230.0

// issuer draws the issuer block right-aligned at the top of the page and
// returns the baseline of its last line.
func (x *doc) issuer(top float64) float64 {
	right := pageW - margin
	line := func(y, size float64, s string) {
		x.text(right-x.width(s, size), y, size, s)
	}
	y := top
	line(y, 7, x.t("booking.pdf.issuer.label"))
	y += 12
	line(y, 10, x.brand.LegalName(x.lang))
	x.gp.SetTextColor(60, 60, 60)
	for _, l := range x.wrap(x.brand.Address(x.lang), 8, issuerW) {
		y += 11
		line(y, 8, l)
	}
	y += 11
	line(y, 8, x.t("booking.pdf.issuer.registration", "number", x.brand.Issuer.RegistrationNumber))
	x.gp.SetTextColor(0, 0, 0)
	return y
}

// mark draws the brand's mark, as the app's header shows it: a disc of
// the accent colour lit from its upper left by the lighter logo colour
// (a radial gradient drawn as concentric discs), size points wide with
// its upper left corner at (px, py).
func (x *doc) mark(px, py, size float64) {
	r0, g0, b0, _ := brand.RGB(x.brand.Colors.LogoLight)
	r1, g1, b1, _ := brand.RGB(x.brand.Colors.Accent)
	// The gradient's centre sits at 35% of the width and height; each
	// step is a smaller disc inside the last, nearer that centre.
	const steps = 12
	cx, cy := px+0.35*size, py+0.35*size
	mix := func(a, b uint8, t float64) uint8 { return uint8(float64(a) + (float64(b)-float64(a))*t + 0.5) }
	for i := range steps {
		t := float64(i) / steps // 0 at the rim, towards 1 at the centre
		rad := size / 2 * (1 - t)
		// centre slides from the disc's centre to the light point
		ox := px + size/2 + (cx-(px+size/2))*t
		oy := py + size/2 + (cy-(py+size/2))*t
		x.gp.SetFillColor(mix(r1, r0, t), mix(g1, g0, t), mix(b1, b0, t))
		if err := x.gp.Rectangle(ox-rad, oy-rad, ox+rad, oy+rad, "F", rad, 12); err != nil && x.err == nil {
			x.err = err
		}
	}
	x.gp.SetFillColor(0, 0, 0)
}

// field draws "label: value" on one line.
func (x *doc) field(label, value string) {
	x.y += 18
	x.text(margin, x.y, 10, label)
	x.text(margin+150, x.y, 11, value)
}

func (x *doc) heading(s string) {
	x.need(40)
	x.y += 28
	x.text(margin, x.y, 13, s)
	x.y += 6
	x.rule()
}

func (x *doc) passengers(d booking.Document) {
	x.heading(x.t("booking.pdf.passengers"))
	for _, p := range d.Reservation.Passengers {
		x.y += 18
		x.text(margin, x.y, 11, i18n.PersonName(x.lang, p.Firstname, p.Lastname))
		x.text(margin+260, x.y, 9, x.t("booking.pdf.passenger_type."+strings.ToLower(p.PassengerType)))
	}
}

// Columns of the flights table.
var cols = []float64{margin, margin + 62, margin + 232, margin + 338, margin + 430}

// flights draws the segments table; segs nil means all of them.
func (x *doc) flights(segs []booking.Segment, now time.Time) {
	x.heading(x.t("booking.pdf.flights"))
	x.y += 16
	for i, k := range []string{"flight", "route", "departure", "arrival", "status"} {
		x.text(cols[i], x.y, 9, x.t("booking.pdf.col."+k))
	}
	x.y += 5
	x.rule()
	for _, s := range segs {
		x.need(56)
		top := x.y
		x.y = top + 15
		x.text(cols[0], x.y, 10, s.Flight)
		x.text(cols[1], x.y, 10, booking.AirportName(s.OriginAirportCode, x.lang)+" ("+s.OriginAirportCode+")")
		// A delay, as on the pages: the new times in red, the schedule struck through below them.
		dep, arr, late := s.ShownTimes()
		x.text(cols[2], x.y, 10, x.localDate(dep, s.OriginAirportCode))
		x.text(cols[3], x.y, 10, x.localDate(arr, s.DestinationAirportCode))
		status, red := x.segmentStatus(s, now)
		if red {
			x.gp.SetTextColor(200, 0, 0)
		}
		for i, l := range x.wrap(status, 9, pageW-margin-cols[4]) {
			x.text(cols[4], x.y+float64(i)*12, 9, l)
		}
		x.gp.SetTextColor(0, 0, 0)
		x.y += 14
		x.text(cols[1], x.y, 10, "→ "+booking.AirportName(s.DestinationAirportCode, x.lang)+" ("+s.DestinationAirportCode+")")
		size := 10.0
		if late {
			x.gp.SetTextColor(200, 0, 0)
			size = 9
		}
		// Each column's time is under its own date (the departure's and the
		// arrival's, local at each airport), so none carries "+1": a delay
		// past midnight is on its new date, and an arrival after midnight
		// on its own.
		x.text(cols[2], x.y, size, localClock(dep, s.OriginAirportCode))
		x.text(cols[3], x.y, size, localClock(arr, s.DestinationAirportCode))
		x.gp.SetTextColor(0, 0, 0)
		if late {
			// The schedule struck through, with its own dates when the
			// delay moved either end to another day.
			if x.localDate(s.DepartAt, s.OriginAirportCode) != x.localDate(dep, s.OriginAirportCode) ||
				x.localDate(s.ArrivalAt, s.DestinationAirportCode) != x.localDate(arr, s.DestinationAirportCode) {
				x.y += 12
				x.struck(cols[2], x.y, 9, x.localDate(s.DepartAt, s.OriginAirportCode))
				x.struck(cols[3], x.y, 9, x.localDate(s.ArrivalAt, s.DestinationAirportCode))
			}
			x.y += 12
			x.struck(cols[2], x.y, 9, localClock(s.DepartAt, s.OriginAirportCode))
			x.struck(cols[3], x.y, 9, localClock(s.ArrivalAt, s.DestinationAirportCode))
		}
		// A cancelled flight departs from no gate; a changed gate has the
		// one before it struck through beside it.
		gate := ""
		if s.ShowsGate() {
			gate = s.OriginGate
		}
		if s.OriginTerminal != "" || gate != "" {
			x.y += 12
			t := x.t("booking.pdf.terminal") + " " + nonEmpty(s.OriginTerminal)
			if gate != "" {
				t += "  " + x.t("booking.pdf.gate") + " " + gate
			}
			x.text(cols[1], x.y, 8, t)
			if was := s.StruckGate(); was != "" {
				x.struck(cols[1]+x.width(t, 8)+8, x.y, 8, x.t("booking.pdf.was_gate", "gate", was))
			}
		}
		x.y += 8
		x.rule()
	}
}

// segmentStatus is the segment's status label and whether it is shown red
// (cancelled segment, delayed or not-departing flight).
func (x *doc) segmentStatus(s booking.Segment, now time.Time) (string, bool) {
	// The same word as the page's (booking.Segment.StatusKey).
	return x.t(s.StatusKey()), s.IsCancelled() || s.IsIrregular()
}

func (x *doc) footer() {
	x.need(50)
	x.y += 30
	x.gp.SetTextColor(90, 90, 90)
	x.para(margin, 8, content, x.t("booking.pdf.footer"))
	x.gp.SetTextColor(0, 0, 0)
}

func (x *doc) itinerary(d booking.Document) {
	x.header(d)
	x.passengers(d)
	x.flights(d.Reservation.Segments, d.IssuedAt)
	x.footer()
}

func (x *doc) receipt(d booking.Document) {
	x.header(d)
	x.heading(x.t("booking.pdf.receipt.addressee_label"))
	x.y += 22
	x.text(margin, x.y, 15, x.t("booking.pdf.receipt.addressee", "name", d.Addressee))
	x.y += 34
	x.text(margin, x.y, 11, x.t("booking.pdf.receipt.amount"))
	x.text(margin+150, x.y, 18, i18n.FormatMoney(x.lang, d.Reservation.TotalAmount, d.Reservation.Currency))
	x.y += 18
	// The consumption-tax line of a Japanese receipt: included on a domestic fare, exempt abroad.
	if tax := d.Reservation.ConsumptionTax(); tax.Domestic {
		x.text(margin+150, x.y, 10, x.t("booking.pdf.receipt.tax_included", "rate", booking.ConsumptionTaxRate,
			"amount", i18n.FormatMoney(x.lang, tax.Included, d.Reservation.Currency)))
	} else {
		x.text(margin+150, x.y, 10, x.t("booking.pdf.receipt.tax_exempt"))
	}
	x.y += 8
	x.para(margin, 10, content, x.t("booking.pdf.receipt.statement", "pnr", d.Reservation.PNR))
	x.passengers(d)
	x.flights(d.Reservation.Segments, d.IssuedAt)
	x.footer()
}

func (x *doc) certificate(d booking.Document) {
	x.header(d)
	s := *d.Segment
	args := []any{
		"flight", s.Flight,
		"origin", booking.AirportName(s.OriginAirportCode, x.lang),
		"destination", booking.AirportName(s.DestinationAirportCode, x.lang),
		"date", x.localDate(s.DepartAt, s.OriginAirportCode),
		"scheduled", x.localDate(s.DepartAt, s.OriginAirportCode) + " " + localClock(s.DepartAt, s.OriginAirportCode),
	}
	key := map[string]string{booking.DocBoarding: "boarding", booking.DocDelay: "delay", booking.DocCancellation: "cancellation"}[d.Kind]
	if d.Kind == booking.DocDelay {
		dep, label := s.EstimatedDepartAt, "booking.pdf.estimated"
		if s.ActualDepartAt != nil {
			dep, label = s.ActualDepartAt, "booking.pdf.actual"
		}
		args = append(args, "delay", x.delay(s.Delay()))
		x.y += 16
		x.para(margin, 11, content, x.t("booking.pdf.cert."+key, args...))
		x.y += 6
		x.field(x.t("booking.pdf.scheduled"), x.localDate(s.DepartAt, s.OriginAirportCode)+" "+localClock(s.DepartAt, s.OriginAirportCode))
		if dep != nil {
			x.field(x.t(label), x.localDate(*dep, s.OriginAirportCode)+" "+localClock(*dep, s.OriginAirportCode))
		}
	} else {
		x.y += 16
		x.para(margin, 11, content, x.t("booking.pdf.cert."+key, args...))
	}
	x.passengers(d)
	x.flights([]booking.Segment{s}, d.IssuedAt)
	x.footer()
}

// delay is a delay in hours and minutes ("15 h 15 min"), as the pages
// write a flight's duration.
func (x *doc) delay(d time.Duration) string {
	m := int(d.Round(time.Minute).Minutes())
	if m < 60 {
		return x.t("booking.pdf.delay_m", "minutes", strconv.Itoa(m))
	}
	return x.t("booking.pdf.delay_hm", "hours", strconv.Itoa(m/60), "minutes", strconv.Itoa(m%60))
}

// localDate is the airport-local calendar date, written as on the pages (i18n.FormatDate).
func (x *doc) localDate(t time.Time, airport string) string {
	return i18n.FormatDate(x.lang, t.In(booking.AirportZone(airport)), false)
}

// struck writes s in grey with a line through it: a time that no longer holds.
func (x *doc) struck(px, py, size float64, s string) {
	x.gp.SetTextColor(110, 110, 110)
	x.text(px, py, size, s)
	x.gp.SetTextColor(0, 0, 0)
	x.gp.SetStrokeColor(110, 110, 110)
	x.gp.SetLineWidth(0.7)
	mid := py - size*0.3
	x.gp.Line(px, mid, px+x.width(s, size), mid)
	x.gp.SetStrokeColor(0, 0, 0)
}

// localClock is the local time with its UTC offset ("08:30 UTC+09:00").
func localClock(t time.Time, airport string) string {
	return t.In(booking.AirportZone(airport)).Format("15:04 (UTC-07:00)")
}

func nonEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
