package httpapi_test

import (
	"bytes"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/store"
)

type searchResult struct {
	Reservations []struct {
		PNR        string `json:"pnr"`
		IsOutdated bool   `json:"isOutdated"`
		Segments   []struct {
			Key             string `json:"key"`
			DepartDateTime  string `json:"departDateTime"`
			ArrivalDateTime string `json:"arrivalDateTime"`
			IsCancelled     bool   `json:"isCancelled"`
			IsIrregular     bool   `json:"isIrregular"`
			FlightStatus    string `json:"flightStatus"`
		} `json:"segments"`
	} `json:"reservations"`
	PerPage, CurrentPage, Total, TotalPages int
}

func (r searchResult) pnrs() []string {
	var out []string
	for _, x := range r.Reservations {
		out = append(out, x.PNR)
	}
	return out
}

// jstDay is a calendar date d days from the test clock's Japan-time today.
func jstDay(env *apitest.Env, d int) string {
	return booking.TodayJST(env.Clock.Now()).AddDate(0, 0, d).Format(booking.DateLayout)
}

func search(t *testing.T, c *apitest.Client, q url.Values) (searchResult, *apitest.Response) {
	t.Helper()
	r := c.Get("/api/reservations?" + q.Encode())
	var res searchResult
	if r.Status == http.StatusOK {
		r.JSON(t, &res)
	}
	return res, r
}

func TestBookingSearch(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)

		// The booking management page's defaults.
		form := url.Values{"form": {"search"}, "bookingDateFrom": {jstDay(env, -180)}, "bookingDateTo": {jstDay(env, 0)},
			"departDateFrom": {jstDay(env, -180)}, "status": {"ACTIVE"}, "order": {"asc"}}
		res, r := search(t, c, form)
		if r.Status != http.StatusOK {
			t.Fatalf("search = %d %s", r.Status, r.Body)
		}
		want := []string{demo.DemoPNRDelayed, demo.DemoPNRFuture, demo.DemoPNRFlightCanc, demo.DemoPNRSegCanc, "CTS4EF"}
		if strings.Join(res.pnrs(), ",") != strings.Join(want, ",") || res.Total != 5 || res.CurrentPage != 1 || res.TotalPages != 1 {
			t.Fatalf("ACTIVE asc = %v total %d page %d/%d, want %v", res.pnrs(), res.Total, res.CurrentPage, res.TotalPages, want)
		}
		// Local times: NRT departs in +09:00, TPE arrives in +08:00.
		tpe := res.Reservations[0].Segments[0]
		if !strings.HasSuffix(tpe.DepartDateTime, "+09:00") || !strings.HasSuffix(tpe.ArrivalDateTime, "+08:00") || !tpe.IsIrregular {
			t.Errorf("TPE segment = %+v", tpe)
		}
		if tpe.FlightStatus != "" {
			t.Errorf("flight status without withFlightStatus: %q", tpe.FlightStatus)
		}
		if !res.Reservations[3].Segments[0].IsCancelled || res.Reservations[3].Segments[1].IsCancelled {
			t.Errorf("OKA2CD cancelled flags = %+v", res.Reservations[3].Segments)
		}

		// All statuses, descending, over every booking date.
		all := url.Values{"form": {"search"}, "bookingDateFrom": {"2012-01-01"}, "bookingDateTo": {jstDay(env, 0)}, "status": {"all"}, "order": {"desc"}}
		res, r = search(t, c, all)
		if res.Total != 16 || len(res.Reservations) != 10 || res.TotalPages != 2 || res.Reservations[0].PNR != "CTS4EF" {
			t.Fatalf("all desc = %v total %d", res.pnrs(), res.Total)
		}
		// A page is sent with its length, not chunked (fewer writes).
		if got := r.Header.Get("Content-Length"); len(r.Body) < 4096 || got != strconv.Itoa(len(r.Body)) {
			t.Errorf("page of %d bytes sent with Content-Length %q", len(r.Body), got)
		}
		all.Set("page", "2")
		res, _ = search(t, c, all)
		if len(res.Reservations) != 6 || res.Reservations[5].PNR != demo.DemoPNROutdated || !res.Reservations[5].IsOutdated {
			t.Fatalf("all desc = %v total %d", res.pnrs(), res.Total)
		}
		// Paging.
		all.Set("perPage", "5")
		all.Set("page", "4")
		res, _ = search(t, c, all)
		if res.Total != 16 || res.TotalPages != 4 || res.CurrentPage != 4 || len(res.Reservations) != 1 || res.PerPage != 5 {
			t.Fatalf("page 3 = %v %+v", res.pnrs(), res)
		}
		// Filters: PNR, airport (either end of any segment), departure range.
		res, _ = search(t, c, url.Values{"form": {"search"}, "bookingDateFrom": {"2012-01-01"}, "bookingDateTo": {jstDay(env, 0)}, "status": {"all"}, "pnr": {"sin8ab"}})
		if strings.Join(res.pnrs(), ",") != demo.DemoPNRPast {
			t.Errorf("pnr filter = %v", res.pnrs())
		}
		res, _ = search(t, c, url.Values{"form": {"search"}, "bookingDateFrom": {"2012-01-01"}, "bookingDateTo": {jstDay(env, 0)}, "status": {"all"}, "airportCode": {"ICN"}})
		if strings.Join(res.pnrs(), ",") != demo.DemoPNRFuture+","+demo.DemoPNROutdated {
			t.Errorf("airport filter = %v", res.pnrs())
		}
		// "All bookings" ascending opens on the trips to come, nearest
		// first, then the flown ones, latest first.
		res, _ = search(t, c, url.Values{"form": {"search"}, "bookingDateFrom": {"2012-01-01"}, "bookingDateTo": {jstDay(env, 0)}, "status": {"all"}, "order": {"asc"}, "perPage": {"7"}})
		if want := []string{demo.DemoPNRDelayed, demo.DemoPNRFuture, demo.DemoPNRFlightCanc, demo.DemoPNRSegCanc, "CTS4EF", "HKG6GH", demo.DemoPNRPast}; strings.Join(res.pnrs(), ",") != strings.Join(want, ",") {
			t.Errorf("all asc = %v, want %v", res.pnrs(), want)
		}
		res, _ = search(t, c, url.Values{"form": {"search"}, "bookingDateFrom": {"2012-01-01"}, "bookingDateTo": {jstDay(env, 0)}, "status": {"all"},
			"departDateFrom": {jstDay(env, 3)}, "departDateTo": {jstDay(env, 10)}})
		if strings.Join(res.pnrs(), ",") != demo.DemoPNRDelayed+","+demo.DemoPNRFuture {
			t.Errorf("depart range = %v", res.pnrs())
		}

		// The home page's recent list: no booking dates.
		recent := url.Values{"lastDepartDateFrom": {jstDay(env, 0)}, "status": {"ACTIVE"}, "perPage": {"5"}, "page": {"1"},
			"order": {"asc"}, "withFlightStatus": {"true"}, "timeZone": {"+09:00"}}
		res, r = search(t, c, recent)
		if r.Status != http.StatusOK || len(res.Reservations) != 5 || res.Reservations[0].PNR != demo.DemoPNRDelayed {
			t.Fatalf("recent = %d %v", r.Status, res.pnrs())
		}
		if res.Reservations[0].Segments[0].FlightStatus != booking.FlightNotYetDepartedWithDelay {
			t.Errorf("recent flight status = %q", res.Reservations[0].Segments[0].FlightStatus)
		}

		// The other member sees only their own.
		res, _ = search(t, env.Member2(t), all)
		if res.Total != 3 {
			t.Errorf("member 2 total = %d (%v)", res.Total, res.pnrs())
		}
	})
}

func TestBookingSearchValidation(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		base := func(kv ...string) url.Values {
			q := url.Values{"form": {"search"}, "bookingDateFrom": {jstDay(env, -180)}, "bookingDateTo": {jstDay(env, 0)}}
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i+1] == "" {
					q.Del(kv[i])
				} else {
					q.Set(kv[i], kv[i+1])
				}
			}
			return q
		}
		tests := []struct {
			name  string
			q     url.Values
			field string
			msg   string
		}{
			{"booking from required", base("bookingDateFrom", ""), "bookingDateFrom", "This field is required."},
			{"booking to required", base("bookingDateTo", ""), "bookingDateTo", "This field is required."},
			{"before 2012", base("bookingDateFrom", "2011-12-31"), "bookingDateFrom", "Select a date after 2012."},
			{"future", base("bookingDateTo", jstDay(env, 1)), "bookingDateTo", "Select a past date."},
			{"booking to before from", base("bookingDateFrom", jstDay(env, -10), "bookingDateTo", jstDay(env, -11)), "bookingDateTo", "The end date must not be before the start date."},
			{"depart to before from", base("departDateFrom", "2026-05-02", "departDateTo", "2026-05-01"), "departDateTo", "The end date must not be before the start date."},
			{"not a date", base("bookingDateFrom", "2026-13-01"), "bookingDateFrom", "Enter a date as YYYY-MM-DD."},
			{"pnr symbols", base("pnr", "AB-12"), "pnr", "Use single-byte letters and digits only."},
			{"pnr too long", base("pnr", strings.Repeat("A", 21)), "pnr", "Enter at most 20 characters."},
			{"status", base("status", "open"), "status", "Select a valid value."},
			{"airport", base("airportCode", "XXX"), "airportCode", "Select a valid value."},
			{"per page", base("perPage", "500"), "perPage", "Select a valid value."},
			{"time zone", base("timeZone", "Mars/Olympus"), "timeZone", "Select a valid value."},
			{"booking date alone", url.Values{"bookingDateFrom": {"2020-01-01"}}, "bookingDateTo", "This field is required."},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := c.Get("/api/reservations?" + tt.q.Encode())
				if r.Status != http.StatusBadRequest {
					t.Fatalf("status = %d %s", r.Status, r.Body)
				}
				var body struct{ ValidationErrors map[string][]string }
				r.JSON(t, &body)
				if got := body.ValidationErrors[tt.field]; len(got) != 1 || got[0] != tt.msg {
					t.Fatalf("errors = %v, want %s: %q", body.ValidationErrors, tt.field, tt.msg)
				}
			})
		}
		// Messages follow X-Lang.
		c.Lang = "jp"
		r := c.Get("/api/reservations?" + base("bookingDateFrom", "2011-01-01").Encode())
		if !bytes.Contains(r.Body, []byte("2012年以降の日付を選択してください。")) {
			t.Errorf("jp message: %s", r.Body)
		}
	})
}

// The Japan-time "today" moves at 15:00 UTC: a booking date that is
// "tomorrow" in UTC terms is already allowed.
func TestBookingSearchJSTToday(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	env.Clock.Set(time.Date(2026, 11, 20, 14, 59, 0, 0, time.UTC))
	c := env.Member(t)
	q := url.Values{"form": {"search"}, "bookingDateFrom": {"2026-11-01"}, "bookingDateTo": {"2026-11-21"}}
	if r := c.Get("/api/reservations?" + q.Encode()); r.Status != http.StatusBadRequest {
		t.Fatalf("before 15:00 UTC: %d", r.Status)
	}
	env.Clock.Set(time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC))
	c = env.Member(t)
	if r := c.Get("/api/reservations?" + q.Encode()); r.Status != http.StatusOK {
		t.Fatalf("at 15:00 UTC: %d %s", r.Status, r.Body)
	}
	r := c.Get("/api/reservations/defaults")
	var d booking.Defaults
	r.JSON(t, &d)
	if d.BookingDateTo != "2026-11-21" || d.BookingDateFrom != "2026-05-25" || d.DepartDateFrom != d.BookingDateFrom || d.Status != "ACTIVE" || d.Order != "asc" {
		t.Errorf("defaults = %+v", d)
	}
}

func TestBookingAccessControl(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		anon := env.Client(t)
		if r := anon.Get("/api/reservations"); r.Status != http.StatusForbidden {
			t.Errorf("anonymous search = %d", r.Status)
		}
		if r := anon.Get("/api/reservations/" + demo.DemoPNRFuture + "/itinerary"); r.Status != http.StatusForbidden {
			t.Errorf("anonymous itinerary = %d", r.Status)
		}
		m1 := env.Member(t)
		m1.NoCSRF = true
		for _, p := range []string{"/api/reservations", "/api/reservations/" + demo.DemoPNRFuture + "/sendmail", "/api/reservations/" + demo.DemoPNRFuture + "/edit", "/api/sso/booking"} {
			if r := m1.Do(http.MethodPost, p, map[string]string{"pnr": demo.AddablePNR1, "lastname": "Yamada"}); r.Status != http.StatusForbidden {
				t.Errorf("POST %s without CSRF = %d", p, r.Status)
			}
		}

		// Another member's booking: 404 for every action, same body as a
		// booking that does not exist.
		m2 := env.Member2(t)
		pnr := demo.DemoPNRPast // flown: every certificate route exists for its owner
		gets := []string{
			"", "/itinerary", "/receipt?addressee=X", "/1", "/1/boarding_certificate", "/1/delay_certificate",
			"/1/cancellation_certificate", "/1/widgets/hotel", "/1/widgets/rental",
		}
		for _, g := range gets {
			r := m2.Get("/api/reservations/" + pnr + g)
			if r.Status != http.StatusNotFound {
				t.Errorf("member 2 GET %s = %d", g, r.Status)
			}
			missing := m2.Get("/api/reservations/NOSUCH1" + g)
			if missing.Status != http.StatusNotFound || !bytes.Equal(missing.Body, r.Body) {
				t.Errorf("GET %s: other's %s vs missing %d %s", g, r.Body, missing.Status, missing.Body)
			}
		}
		for _, p := range []string{"/sendmail", "/edit"} {
			if r := m2.Do(http.MethodPost, "/api/reservations/"+pnr+p, nil); r.Status != http.StatusNotFound {
				t.Errorf("member 2 POST %s = %d", p, r.Status)
			}
		}
		if r := m2.Do(http.MethodPost, "/api/sso/booking", map[string]string{"pnr": pnr}); r.Status != http.StatusNotFound {
			t.Errorf("member 2 sso = %d", r.Status)
		}
		// The owner gets them.
		owner := env.Member(t)
		for _, g := range []string{"", "/itinerary", "/1", "/1/boarding_certificate", "/2/delay_certificate", "/1/widgets/hotel", "/1/widgets/rental"} {
			if r := owner.Get("/api/reservations/" + pnr + g); r.Status != http.StatusOK {
				t.Errorf("owner GET %s = %d %s", g, r.Status, r.Body)
			}
		}
	})
}

func TestAddBooking(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		m1, m2 := env.Member(t), env.Member2(t)
		notFound := m1.Do(http.MethodPost, "/api/reservations", map[string]string{"pnr": "ZZZ999", "lastname": "Yamada"})
		if notFound.Status != http.StatusNotFound {
			t.Fatalf("unknown pnr = %d %s", notFound.Status, notFound.Body)
		}
		wrongName := m1.Do(http.MethodPost, "/api/reservations", map[string]string{"pnr": demo.AddablePNR1, "lastname": "Suzuki"})
		if wrongName.Status != http.StatusNotFound || !bytes.Equal(wrongName.Body, notFound.Body) {
			t.Fatalf("wrong name = %d %s", wrongName.Status, wrongName.Body)
		}
		// Someone else's booking: same answer, even with the right name.
		other := m1.Do(http.MethodPost, "/api/reservations", map[string]string{"pnr": demo.DemoPNRMember2, "lastname": "Kim"})
		if other.Status != http.StatusNotFound || !bytes.Equal(other.Body, notFound.Body) {
			t.Fatalf("other's booking = %d %s", other.Status, other.Body)
		}
		for _, bad := range []map[string]string{{"pnr": "", "lastname": "Yamada"}, {"pnr": "ＡＢＣ１", "lastname": "Yamada"}, {"pnr": strings.Repeat("A", 21), "lastname": "Yamada"}} {
			if r := m1.Do(http.MethodPost, "/api/reservations", bad); r.Status != http.StatusBadRequest || !bytes.Contains(r.Body, []byte(`"pnr"`)) {
				t.Errorf("pnr %q = %d %s", bad["pnr"], r.Status, r.Body)
			}
		}
		ok := m1.Do(http.MethodPost, "/api/reservations", map[string]string{"pnr": strings.ToLower(demo.AddablePNR1), "lastname": " yamada "})
		if ok.Status != http.StatusOK || !bytes.Contains(ok.Body, []byte(demo.AddablePNR1)) {
			t.Fatalf("add = %d %s", ok.Status, ok.Body)
		}
		if r := m1.Do(http.MethodPost, "/api/reservations", map[string]string{"pnr": demo.AddablePNR1, "lastname": "Yamada"}); r.Status != http.StatusConflict {
			t.Errorf("add twice = %d", r.Status)
		}
		if r := m2.Do(http.MethodPost, "/api/reservations", map[string]string{"pnr": demo.AddablePNR1, "lastname": "Yamada"}); r.Status != http.StatusNotFound {
			t.Errorf("member 2 adds member 1's = %d", r.Status)
		}
		if r := m1.Get("/api/reservations/" + demo.AddablePNR1); r.Status != http.StatusOK {
			t.Errorf("added booking = %d", r.Status)
		}
	})
}

func TestBookingDocumentsAndActions(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		pdfs := []struct {
			path   string
			status int
		}{
			{"/api/reservations/" + demo.DemoPNRFuture + "/itinerary", 200},
			{"/api/reservations/" + demo.DemoPNRFuture + "/receipt?addressee=" + url.QueryEscape("Yamada Trading Co., Ltd."), 200},
			{"/api/reservations/" + demo.DemoPNRPast + "/1/boarding_certificate", 200},
			{"/api/reservations/" + demo.DemoPNRPast + "/2/delay_certificate", 200}, // left 50 minutes late
			{"/api/reservations/" + demo.DemoPNRSegCanc + "/1/cancellation_certificate", 200},
			{"/api/reservations/" + demo.DemoPNRFlightCanc + "/1/cancellation_certificate", 200},
			// Certificates that do not apply.
			{"/api/reservations/" + demo.DemoPNRFuture + "/1/boarding_certificate", 404},
			{"/api/reservations/" + demo.DemoPNRFuture + "/1/delay_certificate", 404},
			{"/api/reservations/" + demo.DemoPNRDelayed + "/1/delay_certificate", 404}, // delayed, not yet departed
			{"/api/reservations/" + demo.DemoPNRFuture + "/1/cancellation_certificate", 404},
			{"/api/reservations/" + demo.DemoPNRSegCanc + "/1/boarding_certificate", 404},
			{"/api/reservations/" + demo.DemoPNRFuture + "/9/widgets/hotel", 404},
		}
		for _, p := range pdfs {
			r := c.Get(p.path)
			if r.Status != p.status {
				t.Errorf("GET %s = %d %s", p.path, r.Status, r.Body)
				continue
			}
			if p.status == 200 && (r.Header.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(r.Body, []byte("%PDF-"))) {
				t.Errorf("GET %s: %s, %q", p.path, r.Header.Get("Content-Type"), r.Body[:min(10, len(r.Body))])
			}
		}
		for _, bad := range []string{"A&B", "A#B", "<b>", "O'Neil", `say "hi"`, "[x]"} {
			r := c.Get("/api/reservations/" + demo.DemoPNRFuture + "/receipt?addressee=" + url.QueryEscape(bad))
			if r.Status != http.StatusBadRequest || !bytes.Contains(r.Body, []byte("addressee")) {
				t.Errorf("addressee %q = %d %s", bad, r.Status, r.Body)
			}
		}

		// Itinerary mail: stored in the outbox with the PDF.
		r := c.Do(http.MethodPost, "/api/reservations/"+demo.DemoPNRFuture+"/sendmail", nil)
		if r.Status != http.StatusOK || !bytes.Contains(r.Body, []byte(`"mailSent":true`)) {
			t.Fatalf("sendmail = %d %s", r.Status, r.Body)
		}
		var n int
		if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM mail_outbox WHERE to_addr = $1 AND kind = 'itinerary' AND attachments LIKE '%application/pdf%'`, apitest.DemoEmail).Scan(&n); err != nil || n != 1 {
			t.Errorf("outbox = %d %v", n, err)
		}

		// To the booking site: its page for this PNR, with no credential in
		// it (the booking site signs the member in with OpenID Connect).
		r = c.Do(http.MethodPost, "/api/reservations/"+demo.DemoPNRFuture+"/edit", nil)
		var h booking.HandoverResult
		r.JSON(t, &h)
		if r.Status != http.StatusOK || h.URL != "https://booking.example.com/booking/"+demo.DemoPNRFuture+"/edit?lang=en" {
			t.Fatalf("edit = %d %s", r.Status, r.Body)
		}
		if bytes.Contains(r.Body, []byte("token")) {
			t.Errorf("a token in %s", r.Body)
		}
		if r := env.Member2(t).Do(http.MethodPost, "/api/reservations/"+demo.DemoPNRFuture+"/edit", nil); r.Status != http.StatusNotFound {
			t.Errorf("another member's booking = %d", r.Status)
		}
		// The retired inbound sign-on is gone: no way in without a password or the provider.
		if r := env.Client(t).Do(http.MethodPost, "/api/session/complete", map[string]string{"token": "x"}); r.Status != http.StatusNotFound {
			t.Errorf("retired /api/session/complete = %d", r.Status)
		}
		if r := c.Do(http.MethodPost, "/api/reservations/"+demo.DemoPNROutdated+"/edit", nil); r.Status != http.StatusConflict {
			t.Errorf("edit outdated = %d", r.Status)
		}
		if r := c.Do(http.MethodPost, "/api/sso/booking", nil); r.Status != http.StatusOK || !bytes.Contains(r.Body, []byte("/booking/search?")) {
			t.Errorf("sso = %d %s", r.Status, r.Body)
		}

		// Offers at the destination.
		r = c.Get("/api/reservations/" + demo.DemoPNRFuture + "/1/widgets/hotel")
		var offers booking.OfferList
		r.JSON(t, &offers)
		if offers.AirportCode != "ICN" || len(offers.Offers) != 3 || offers.Offers[0].Currency != "KRW" {
			t.Errorf("hotel offers = %+v", offers)
		}
	})
}
