package pdf_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/booking"
	"members/internal/brand"
	"members/internal/i18n"
	"members/internal/pdf"
	"members/internal/testtool"
)

// pdftotext returns the text of a PDF (poppler-utils).
func pdftotext(t *testing.T, b []byte) string {
	t.Helper()
	testtool.Path(t, "pdftotext", "apt-get install poppler-utils")
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

func sample(now time.Time) booking.Reservation {
	dep := now.Add(-48 * time.Hour)
	act := dep.Add(70 * time.Minute)
	return booking.Reservation{
		PNR: "QX7PDF", BookedAt: now.Add(-30 * 24 * time.Hour), StatusCode: booking.StatusConfirmed, Currency: "JPY", TotalAmount: 38760,
		Passengers: []booking.Passenger{{Lastname: "YAMADA", Firstname: "HANAKO", PassengerType: "ADULT"}, {Lastname: "SOMCHAI", Firstname: "NARIN", PassengerType: "CHILD"}},
		Segments: []booking.Segment{
			{Key: "1", StatusCode: "CONFIRMED", Flight: "MM801", FlightNumber: "801", OriginAirportCode: "KIX", DestinationAirportCode: "BKK",
				DepartAt: dep, ArrivalAt: dep.Add(6 * time.Hour), ActualDepartAt: &act, FlightStatus: booking.FlightDepartedWithDelay, OriginGate: "12"},
			{Key: "2", StatusCode: "Cancelled", Flight: "MM802", FlightNumber: "802", OriginAirportCode: "BKK", DestinationAirportCode: "KIX",
				DepartAt: now.Add(72 * time.Hour), ArrivalAt: now.Add(78 * time.Hour), FlightStatus: booking.FlightOnTime},
		},
	}
}

func TestDocumentsText(t *testing.T) {
	_, r := renderer(t)
	now := time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC)
	res := sample(now)
	seg0, seg1 := res.Segments[0], res.Segments[1]
	tests := []struct {
		lang i18n.Lang
		doc  booking.Document
		want []string
	}{
		{i18n.EN, booking.Document{Kind: booking.DocItinerary}, []string{"Peach Aviation", "Itinerary", "Osaka (Kansai)", "Bangkok (Suvarnabhumi)", "Cancelled", "Nov 20, 2026"}},
		{i18n.JP, booking.Document{Kind: booking.DocItinerary}, []string{"旅程表", "大阪(関西)", "予約番号", "キャンセル済み", "2026年11月20日"}},
		{i18n.TH, booking.Document{Kind: booking.DocItinerary}, []string{"แผนการเดินทาง", "ผู้โดยสาร", "หมายเลขการจอง", "20 พ.ย. 2569", "กรุงเทพฯ", "โอซาก้า (คันไซ)"}},
		{i18n.KR, booking.Document{Kind: booking.DocItinerary}, []string{"여정표", "탑승객", "오사카(간사이)"}},
		{i18n.CN, booking.Document{Kind: booking.DocItinerary}, []string{"行程单", "乘客"}},
		{i18n.TW, booking.Document{Kind: booking.DocItinerary}, []string{"行程表", "旅客"}},
		{i18n.HK, booking.Document{Kind: booking.DocItinerary}, []string{"行程表", "乘客"}},
		{i18n.EN, booking.Document{Kind: booking.DocReceipt, Addressee: "Yamada Trading Co., Ltd."}, []string{"Receipt", "To: Yamada Trading Co., Ltd.", "JPY 38,760"}},
		{i18n.JP, booking.Document{Kind: booking.DocReceipt, Addressee: "山田商事株式会社"}, []string{"領収書", "山田商事株式会社 様", "38,760円"}},
		{i18n.TH, booking.Document{Kind: booking.DocReceipt, Addressee: "บริษัท ยามาดะ"}, []string{"ใบเสร็จรับเงิน", "บริษัท ยามาดะ", "JPY 38,760"}},
		{i18n.EN, booking.Document{Kind: booking.DocBoarding, Segment: &seg0}, []string{"Boarding certificate", "boarded flight MM801"}},
		// The delay in hours and minutes, not raw minutes.
		{i18n.EN, booking.Document{Kind: booking.DocDelay, Segment: &seg0}, []string{"Delay certificate", "departed 1 h 10 min late"}},
		{i18n.JP, booking.Document{Kind: booking.DocDelay, Segment: &seg0}, []string{"遅延証明書", "1時間10分遅れて出発"}},
		{i18n.TH, booking.Document{Kind: booking.DocDelay, Segment: &seg0}, []string{"หนังสือรับรองเที่ยวบินล่าช้า", "1 ชม. 10 นาที"}},
		{i18n.EN, booking.Document{Kind: booking.DocCancellation, Segment: &seg1}, []string{"Cancellation certificate", "was cancelled"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.lang)+"/"+tt.doc.Kind, func(t *testing.T) {
			d := tt.doc
			d.Lang, d.Reservation, d.IssuedAt = tt.lang, res, now
			b, err := r.Render(d)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(b, []byte("%PDF-")) {
				t.Fatalf("not a PDF: %q", b[:10])
			}
			text := pdftotext(t, b)
			flat := strings.Join(strings.Fields(text), " ")
			want := append([]string{"QX7PDF", i18n.PersonName(tt.lang, "HANAKO", "YAMADA")}, tt.want...)
			if d.Segment == nil {
				want = append(want, "MM801", "MM802")
			} else {
				want = append(want, d.Segment.Flight)
			}
			for _, w := range want {
				if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
					t.Errorf("%q missing from:\n%s", w, text)
				}
			}
		})
	}
}

// A flight running to schedule reads "Confirmed" on the itinerary, as on
// the page (booking.Segment.StatusKey), not "On time".
func TestItineraryStatusWordAsOnThePage(t *testing.T) {
	_, r := renderer(t)
	now := time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC)
	res := sample(now)
	res.Segments = []booking.Segment{{Key: "1", StatusCode: "CONFIRMED", Flight: "MM803", FlightNumber: "803", OriginAirportCode: "KIX", DestinationAirportCode: "ICN",
		DepartAt: now.Add(72 * time.Hour), ArrivalAt: now.Add(74 * time.Hour), FlightStatus: booking.FlightOnTime}}
	for lang, words := range map[i18n.Lang][2]string{i18n.EN: {"Confirmed", "On time"}, i18n.JP: {"予約確定", "定刻"}, i18n.TH: {"ยืนยันแล้ว", "ตรงเวลา"}} {
		b, err := r.Render(booking.Document{Kind: booking.DocItinerary, Lang: lang, Reservation: res, IssuedAt: now})
		if err != nil {
			t.Fatal(err)
		}
		text := pdftotext(t, b)
		if !strings.Contains(text, words[0]) || strings.Contains(text, words[1]) {
			t.Errorf("%s: want %q and not %q in:\n%s", lang, words[0], words[1], text)
		}
	}
}

// The receipt carries the consumption-tax line of a Japanese receipt: 10 %
// included on a domestic fare, exempt on an international one.
func TestReceiptConsumptionTax(t *testing.T) {
	_, r := renderer(t)
	now := time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC)
	domestic := sample(now)
	domestic.Segments = []booking.Segment{{Key: "1", StatusCode: "CONFIRMED", Flight: "MM101", FlightNumber: "101", OriginAirportCode: "KIX", DestinationAirportCode: "CTS",
		DepartAt: now.Add(72 * time.Hour), ArrivalAt: now.Add(74 * time.Hour)}}
	for _, tc := range []struct {
		lang i18n.Lang
		res  booking.Reservation
		want string
	}{
		{i18n.JP, domestic, "うち消費税（10%）：3,523円"},
		{i18n.EN, domestic, "Including consumption tax (10%): JPY 3,523"},
		{i18n.TH, domestic, "รวมภาษีการบริโภค (10%): JPY 3,523"},
		{i18n.JP, sample(now), "消費税：免税（国際輸送）"},
		{i18n.EN, sample(now), "Consumption tax: exempt (international transport)"},
	} {
		b, err := r.Render(booking.Document{Kind: booking.DocReceipt, Lang: tc.lang, Reservation: tc.res, IssuedAt: now, Addressee: "Yamada"})
		if err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(pdftotext(t, b)), " ")
		if !strings.Contains(flat, strings.Join(strings.Fields(tc.want), " ")) {
			t.Errorf("%s: %q missing from:\n%s", tc.lang, tc.want, flat)
		}
	}
}

// Every document, in English, Japanese and Thai: no ISO date, Thai dates
// in the Buddhist era, the amount written the language's way, and the
// issuer block (legal name, address, registration number) from the brand
// configuration.
func TestDocumentsFormatsAndIssuer(t *testing.T) {
	cat, r := renderer(t)
	b, err := brand.Load()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC)
	res := sample(now)
	seg0, seg1 := res.Segments[0], res.Segments[1]
	iso := regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)
	amount := map[i18n.Lang]string{i18n.EN: "JPY 38,760", i18n.JP: "38,760円", i18n.TH: "JPY 38,760"}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, lang := range []i18n.Lang{i18n.EN, i18n.JP, i18n.TH} {
		for _, d := range []booking.Document{
			{Kind: booking.DocItinerary}, {Kind: booking.DocReceipt, Addressee: "Yamada"},
			{Kind: booking.DocBoarding, Segment: &seg0}, {Kind: booking.DocDelay, Segment: &seg0}, {Kind: booking.DocCancellation, Segment: &seg1},
		} {
			t.Run(string(lang)+"/"+d.Kind, func(t *testing.T) {
				d.Lang, d.Reservation, d.IssuedAt = lang, res, now
				pdfb, err := r.Render(d)
				if err != nil {
					t.Fatal(err)
				}
				text := flat(pdftotext(t, pdfb))
				if m := iso.FindString(text); m != "" {
					t.Errorf("ISO date %s in:\n%s", m, text)
				}
				if lang == i18n.TH && (!strings.Contains(text, "2569") || strings.Contains(text, "2026")) {
					t.Errorf("Thai document without the Buddhist-era year only:\n%s", text)
				}
				if d.Kind == booking.DocReceipt && !strings.Contains(text, amount[lang]) {
					t.Errorf("amount %q missing:\n%s", amount[lang], text)
				}
				for _, w := range []string{cat.T(lang, "booking.pdf.issuer.label"), b.LegalName(lang), flat(b.Address(lang)), b.Issuer.RegistrationNumber} {
					if !strings.Contains(text, w) {
						t.Errorf("issuer block: %q missing:\n%s", w, text)
					}
				}
				if strings.Count(text, b.Airline) > 2 {
					t.Errorf("the airline's name is printed %d times", strings.Count(text, b.Airline))
				}
			})
		}
	}
}

// A delayed flight's itinerary, printed after the change: the new times
// first, the scheduled ones beside them, as on the pages, each time under
// its own date (an arrival past midnight on the next day's date, with no
// "+1" that would count the day twice); the flight's own row only, in three
// languages.
func TestItineraryShowsDelay(t *testing.T) {
	_, r := renderer(t)
	now := time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC)
	dep := time.Date(2027, 1, 26, 23, 30, 0, 0, time.UTC)                                    // KIX 08:30 on the 27th
	est, estArr := dep.Add(15*time.Hour+15*time.Minute), dep.Add(17*time.Hour+5*time.Minute) // 23:45, then CTS 01:35 on the 28th
	res := booking.Reservation{PNR: "CTS4EF", BookedAt: now, StatusCode: booking.StatusConfirmed, Currency: "JPY", TotalAmount: 8490,
		Passengers: []booking.Passenger{{Lastname: "YAMADA", Firstname: "HANAKO", PassengerType: "ADULT"}},
		Segments: []booking.Segment{{Key: "1", StatusCode: "CONFIRMED", Flight: "MM171", FlightNumber: "171", OriginAirportCode: "KIX", DestinationAirportCode: "CTS",
			DepartAt: dep, ArrivalAt: dep.Add(110 * time.Minute), EstimatedDepartAt: &est, EstimatedArrivalAt: &estArr, FlightStatus: booking.FlightNotYetDepartedWithDelay}}}
	for lang, date := range map[i18n.Lang][2]string{i18n.EN: {"Jan 27, 2027", "Jan 28, 2027"}, i18n.JP: {"2027年1月27日", "2027年1月28日"}, i18n.TH: {"27 ม.ค. 2570", "28 ม.ค. 2570"}} {
		b, err := r.Render(booking.Document{Kind: booking.DocItinerary, Lang: lang, Reservation: res, IssuedAt: now})
		if err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(pdftotext(t, b)), " ")
		for _, want := range []string{date[0] + " " + date[1], "23:45 (UTC+09:00) 01:35 (UTC+09:00)", "08:30 (UTC+09:00)", "10:20 (UTC+09:00)"} {
			if !strings.Contains(flat, want) {
				t.Errorf("%s itinerary lacks %q:\n%s", lang, want, flat)
			}
		}
		if strings.Contains(flat, "+1") {
			t.Errorf("%s itinerary counts a day with +1 beside a date: %s", lang, flat)
		}
		if i, j := strings.Index(flat, "23:45"), strings.Index(flat, "08:30"); i < 0 || j < i {
			t.Errorf("%s: the new departure does not come before the scheduled one: %s", lang, flat)
		}
	}
}

// A delay past midnight: the itinerary gives the new date, the new
// departure without "+1", and the schedule struck through on its own
// date; a changed gate has the one before it beside it, and a cancelled
// flight has no gate at all.
func TestItineraryAfterAChange(t *testing.T) {
	_, r := renderer(t)
	now := time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC)
	dep := time.Date(2027, 1, 26, 14, 30, 0, 0, time.UTC)                           // KIX 23:30 on the 26th
	est, estArr := dep.Add(70*time.Minute), dep.Add(70*time.Minute+110*time.Minute) // 00:40, CTS 02:30 on the 27th
	res := booking.Reservation{PNR: "CTS4EF", BookedAt: now, StatusCode: booking.StatusConfirmed, Currency: "JPY", TotalAmount: 8490,
		Passengers: []booking.Passenger{{Lastname: "YAMADA", Firstname: "HANAKO", PassengerType: "ADULT"}},
		Segments: []booking.Segment{
			{Key: "1", StatusCode: "CONFIRMED", Flight: "MM171", FlightNumber: "171", OriginAirportCode: "KIX", DestinationAirportCode: "CTS", OriginTerminal: "1",
				OriginGate: "31", PreviousGate: "12", DepartAt: dep, ArrivalAt: dep.Add(110 * time.Minute), EstimatedDepartAt: &est, EstimatedArrivalAt: &estArr,
				FlightStatus: booking.FlightNotYetDepartedWithDelay, ChangeSeq: 2, ChangeKind: "delay"},
			{Key: "2", StatusCode: "CONFIRMED", Flight: "MM172", FlightNumber: "172", OriginAirportCode: "CTS", DestinationAirportCode: "KIX", OriginTerminal: "2",
				OriginGate: "8", PreviousGate: "5", DepartAt: dep.Add(72 * time.Hour), ArrivalAt: dep.Add(74 * time.Hour), FlightStatus: booking.FlightCancelled},
		}}
	for lang, w := range map[i18n.Lang]struct{ newDate, oldDate, gate, was, noGate string }{
		i18n.EN: {"Jan 27, 2027", "Jan 26, 2027", "Gate 31", "was gate 12", "Gate 8"},
		i18n.JP: {"2027年1月27日", "2027年1月26日", "搭乗口 31", "旧搭乗口 12", "搭乗口 8"},
		i18n.TH: {"27 ม.ค. 2570", "26 ม.ค. 2570", "ประตู 31", "ประตูเดิม 12", "ประตู 8"},
	} {
		b, err := r.Render(booking.Document{Kind: booking.DocItinerary, Lang: lang, Reservation: res, IssuedAt: now})
		if err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(pdftotext(t, b)), " ")
		for _, want := range []string{w.newDate, "00:40 (UTC+09:00)", "02:30 (UTC+09:00)", w.oldDate, "23:30 (UTC+09:00)", "01:20 (UTC+09:00)", w.gate, w.was} {
			if !strings.Contains(flat, want) {
				t.Errorf("%s itinerary lacks %q:\n%s", lang, want, flat)
			}
		}
		for _, not := range []string{"+1", w.noGate, strings.Replace(w.was, "12", "5", 1)} {
			if strings.Contains(flat+" ", not+" ") {
				t.Errorf("%s itinerary has %q:\n%s", lang, not, flat)
			}
		}
		if i, j := strings.Index(flat, w.newDate), strings.Index(flat, w.oldDate); i < 0 || j < i {
			t.Errorf("%s: the new date does not come before the old one: %s", lang, flat)
		}
	}
}

// renderer is the PDF renderer on the server's catalogue (returned too).
func renderer(t *testing.T) (*i18n.Catalog, *pdf.Renderer) {
	t.Helper()
	cat := apitest.Catalog(t)
	r, err := pdf.New(cat)
	if err != nil {
		t.Fatal(err)
	}
	return cat, r
}
