package masters

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"members/internal/i18n"
)

// TestWebKeepsTheServersNames: the trips kept on a device are shown in the
// page's language, whichever language saved them, from the web's
// catalogues (web/src/features/bookings/offline/OfflinePage.tsx); their
// airport names and statuses are the server's, every airport and status in
// every language, so a member reads one name online and offline.
func TestWebKeepsTheServersNames(t *testing.T) {
	c, err := i18n.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range i18n.Langs {
		b, err := os.ReadFile(filepath.Join("../../web/src/features/bookings/locales", string(lang)+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var web struct {
			Airports      map[string]string `json:"airports"`
			BookingStatus map[string]string `json:"bookingStatus"`
			FlightStatus  map[string]string `json:"flightStatus"`
		}
		if err := json.Unmarshal(b, &web); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{}
		for _, a := range Airports() {
			want["airports."+a.Code] = AirportShortName(a.Code, lang)
		}
		for _, s := range []string{"CONFIRMED", "CANCELLED"} {
			want["bookingStatus."+s] = c.T(lang, "booking.status."+strings.ToLower(s))
		}
		for _, s := range []string{"ON_TIME", "NOT_YET_DEPARTED_WITH_DELAY", "DEPARTED_WITH_DELAY", "DEPARTED", "ARRIVED", "CANCELLED", "SUSPENDED"} {
			want["flightStatus."+s] = c.T(lang, "booking.flight_status."+strings.ToLower(s))
		}
		got := map[string]string{}
		for prefix, m := range map[string]map[string]string{"airports.": web.Airports, "bookingStatus.": web.BookingStatus, "flightStatus.": web.FlightStatus} {
			for k, v := range m {
				got[prefix+k] = v
			}
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: the web's %s is %q, the server's %q", lang, k, got[k], v)
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("%s: the web has %s, which the server does not name", lang, k)
			}
		}
	}
}
