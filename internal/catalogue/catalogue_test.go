package catalogue_test

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"members/internal/apitest"
	"members/internal/catalogue"
	"members/internal/store"
)

func example(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../testdata/catalogue/example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func parse(t *testing.T, text string) *catalogue.File {
	t.Helper()
	f, err := catalogue.Parse("catalogue.yaml", []byte(text))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return f
}

func service(t *testing.T, db *store.DB) *catalogue.Service {
	return catalogue.NewService(store.NewCatalogueStore(db), apitest.Catalog(t).TextsOf)
}

// lineOf is the 1-based line of the first line containing s.
func lineOf(t *testing.T, text, s string) int {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%q not in the file", s)
	return 0
}

// TestRulesNameLineAndField: each rule of a plan, a period and a coupon
// product, broken in the example, is refused with its line and field.
func TestRulesNameLineAndField(t *testing.T) {
	base := example(t)
	cases := []struct {
		name, from, to, at, want string
	}{
		{"price not positive", "price: {happy: 49800,", "price: {happy: 0,", "price: {happy: 0,", "catalogue.yaml:%d: passPlans[0].periods[0].price.happy: must be a positive integer"},
		{"price not an integer", "happlus: 69800}", "happlus: 698.5}", "happlus: 698.5}", "catalogue.yaml:%d: passPlans[0].periods[0].price.happlus: must be an integer"},
		{"price missing", "price: {happy: 49800, happlus: 69800}", "price: {happy: 49800}", "price: {happy: 49800}", "catalogue.yaml:%d: passPlans[0].periods[0].price.happlus: must be a positive integer"},
		{"unknown currency", "currencyCode: JPY\n        price", "currencyCode: XYZ\n        price", "currencyCode: XYZ", "catalogue.yaml:%d: passPlans[0].periods[0].currencyCode: must be one of"},
		{"negative quota", "lotteryQuota: 0", "lotteryQuota: -1", "lotteryQuota: -1", "catalogue.yaml:%d: passPlans[0].periods[0].lotteryQuota: must be zero or a positive integer"},
		{"bad date", `begin: "2027-03-01", end: "2027-05-31"}`, `begin: "2027-02-30", end: "2027-05-31"}`, "2027-02-30", "catalogue.yaml:%d: passPlans[0].periods[0].availablePeriodToBoard.begin: must be a date YYYY-MM-DD"},
		{"end before begin", `availablePeriodToBook: {begin: "2026-12-01", end: "2027-05-15"}`, `availablePeriodToBook: {begin: "2026-12-01", end: "2026-11-15"}`, "2026-11-15", "catalogue.yaml:%d: passPlans[0].periods[0].availablePeriodToBook.end: must not be before begin"},
		{"booking after boarding", `availablePeriodToBook: {begin: "2026-12-01", end: "2027-05-15"}`, `availablePeriodToBook: {begin: "2026-12-01", end: "2027-06-15"}`, "2027-06-15", "catalogue.yaml:%d: passPlans[0].periods[0].availablePeriodToBook.end: must not be after availablePeriodToBoard.end"},
		{"missing language", "      th: GoGo Pass ทุกเส้นทาง\n", "", "    name:", "catalogue.yaml:%d: passPlans[0].name.th: is required"},
		{"blank text", "en: GoGo Pass, all routes", `en: " "`, `en: " "`, "catalogue.yaml:%d: passPlans[0].name.en: must not be blank"},
		{"unknown language", "      th: GoGo Pass ทุกเส้นทาง\n", "      th: GoGo Pass ทุกเส้นทาง\n      fr: Passe\n", "fr: Passe", "catalogue.yaml:%d: passPlans[0].name.fr: unknown language"},
		{"bad id", "- id: gp-all\n", "- id: gp all\n", "id: gp all", "catalogue.yaml:%d: passPlans[0].id: must be 1 to 64 letters"},
		{"unknown field", "lotteryQuota: 0", "lotteryQuota: 0\n        quota: 3", "quota: 3", "catalogue.yaml:%d: passPlans[0].periods[0].quota: unknown field"},
		{"coupon in another currency", "currencyCode: JPY, pricePerPerson: 19800", "currencyCode: KRW, pricePerPerson: 19800", "KRW", "catalogue.yaml:%d: couponProducts[0].periods[0].plan.lite.currencyCode: must be JPY"},
		{"coupon days", "availableDaysAfterFirstUse: 14", "availableDaysAfterFirstUse: 0", "availableDaysAfterFirstUse: 0", "catalogue.yaml:%d: couponProducts[0].periods[0].plan.standard.availableDaysAfterFirstUse: must be a positive integer"},
		{"coupon uses", "availableNumberOfUse: 4", "availableNumberOfUse: -4", "availableNumberOfUse: -4", "catalogue.yaml:%d: couponProducts[0].periods[0].plan.lite.availableNumberOfUse: must be a positive integer"},
		{"coupon price", "pricePerPerson: 32800", "pricePerPerson: 0", "pricePerPerson: 0", "catalogue.yaml:%d: couponProducts[0].periods[0].plan.standard.pricePerPerson: must be a positive integer"},
		{"international not a boolean", "international: true", "international: yes please", "international: yes please", "catalogue.yaml:%d: couponProducts[0].international: must be true or false"},
		{"international missing", "    international: true\n", "", "  - id: cp-kansai", "catalogue.yaml:%d: couponProducts[0].international: is required"},
		{"description missing", "          th: ฤดูใบไม้ผลิ 2027\n", "", "        description:\n          jp: 2027", "catalogue.yaml:%d: couponProducts[0].periods[0].description.th: is required"},
		{"no periods", "    periods:\n      - id: cp-kansai-2027-spring", "    periods: []\n    unused:\n      - id: cp-kansai-2027-spring", "periods: []", "couponProducts[0].periods: must list at least one period"},
		{"duplicate period id", "id: cp-kansai-2027-spring", "id: gp-all-2027-spring", "id: gp-all-2027-spring", ""},
		{"lists required", "couponProducts:", "products:", "products:", "catalogue.yaml:%d: products: unknown field"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(base, tc.from) {
				t.Fatalf("%q not in the example", tc.from)
			}
			text := strings.Replace(base, tc.from, tc.to, 1)
			_, err := catalogue.Parse("catalogue.yaml", []byte(text))
			var errs *catalogue.Errors
			if tc.name == "duplicate period id" {
				// pass and coupon periods are separate tables: the same id in both is allowed
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.As(err, &errs) {
				t.Fatalf("not refused: %v", err)
			}
			at := tc.at
			if strings.Contains(at, "\n") {
				at = strings.SplitN(at, "\n", 2)[0]
			}
			want := tc.want
			if strings.Contains(want, "%d") {
				want = strings.Replace(want, "%d", strconv.Itoa(lineOf(t, text, at)), 1)
			}
			if !strings.Contains(err.Error(), want) {
				t.Fatalf("got\n%s\nwant a line with %q", err, want)
			}
		})
	}
}

func exportText(t *testing.T, svc *catalogue.Service) string {
	t.Helper()
	c, err := svc.Export(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, err := catalogue.Encode(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRoundTrip: the demo's catalogue exported and applied to an empty
// database gives the same catalogue; its export applied again (dry run)
// changes nothing, on the demo database and on the new one.
func TestRoundTrip(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		demoDB, _ := apitest.OpenDemoDB(t, engine)
		demoSvc := service(t, demoDB)
		exported := exportText(t, demoSvc)
		if !strings.Contains(exported, "gp-all-next") || !strings.Contains(exported, "cp-okinawa-summer") {
			t.Fatalf("export lacks the demo's entries:\n%s", exported)
		}
		if ch, err := demoSvc.Apply(ctx, parse(t, exported), true); err != nil || len(ch) != 0 {
			t.Fatalf("export applied to the demo: %v %v", ch, err)
		}
		emptySvc := service(t, apitest.OpenDB(t, engine))
		ch, err := emptySvc.Apply(ctx, parse(t, exported), false)
		if err != nil {
			t.Fatal(err)
		}
		if catalogue.Summary(ch) != "5 added, 0 changed, 0 removed" && catalogue.Summary(ch) != "10 added, 0 changed, 0 removed" {
			t.Logf("applied: %s", catalogue.Summary(ch))
		}
		if again := exportText(t, emptySvc); again != exported {
			t.Fatalf("catalogue differs from the demo's:\n%s\nwant\n%s", again, exported)
		}
		if ch, err := emptySvc.Apply(ctx, parse(t, exported), false); err != nil || len(ch) != 0 {
			t.Fatalf("second apply: %v %v", ch, err)
		}
	})
}

// TestDryRunListsChangesAndWritesNothing: added, changed field old → new
// and removed entries, and the live catalogue left as it was.
func TestDryRunListsChangesAndWritesNothing(t *testing.T) {
	ctx := context.Background()
	db := apitest.OpenDB(t, store.SQLite)
	svc := service(t, db)
	base := example(t)
	if _, err := svc.Apply(ctx, parse(t, base), false); err != nil {
		t.Fatal(err)
	}
	next := strings.Replace(base, "happlus: 69800}", "happlus: 71800}", 1)
	next = strings.Replace(next, "en: GoGo Pass, all routes", "en: GoGo Pass (all routes)", 1)
	next = strings.Replace(next, "couponProducts:\n", "couponProducts: []\nunused:\n", 1)
	next = strings.Replace(next, "unused:\n", "", 1)
	next = next[:strings.Index(next, "couponProducts: []")+len("couponProducts: []")] + "\n"
	next = strings.Replace(next, "    periods:\n      - id: gp-all-2027-spring", `    periods:
      - id: gp-all-2027-summer
        availablePeriodToBoard: {begin: "2027-06-01", end: "2027-08-31"}
        availablePeriodToBook: {begin: "2027-03-01", end: "2027-08-15"}
        currencyCode: JPY
        price: {happy: 52800, happlus: 72800}
      - id: gp-all-2027-spring`, 1)
	ch, err := svc.Apply(ctx, parse(t, next), true)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, c := range ch {
		lines = append(lines, c.String())
	}
	got := strings.Join(lines, "\n")
	want := `changed pass plan gp-all: name.en "GoGo Pass, all routes" → "GoGo Pass (all routes)"
added   pass period gp-all-2027-summer (plan gp-all)
changed pass period gp-all-2027-spring: price.happlus 69800 → 71800
removed coupon product cp-kansai
removed coupon period cp-kansai-2027-spring (product cp-kansai)`
	if got != want {
		t.Fatalf("dry run:\n%s\nwant\n%s", got, want)
	}
	if s := catalogue.Summary(ch); s != "1 added, 2 changed, 2 removed" {
		t.Fatalf("summary %q", s)
	}
	if after := exportText(t, svc); !strings.Contains(after, "cp-kansai") || strings.Contains(after, "71800") {
		t.Fatalf("the dry run wrote:\n%s", after)
	}
	if _, err := svc.Apply(ctx, parse(t, next), false); err != nil {
		t.Fatal(err)
	}
	if after := exportText(t, svc); strings.Contains(after, "cp-kansai") || !strings.Contains(after, "71800") || !strings.Contains(after, "gp-all-2027-summer") {
		t.Fatalf("not applied:\n%s", after)
	}
}

// TestHeldPeriodsAreNotRemovedOrRepriced: the demo's member 1 holds a pass
// of gp-all-current, member 2 entered the lottery of gp-all-next, and a
// payment in progress names cp-kansai-spring: removing or repricing any
// of them is refused with the number of holders, and nothing is applied
// (not even the changes that were allowed).
func TestHeldPeriodsAreNotRemovedOrRepriced(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		db, _ := apitest.OpenDemoDB(t, engine)
		svc := service(t, db)
		live := exportText(t, svc)
		if _, err := db.ExecContext(ctx, `INSERT INTO payment_processes (id, member_id, request_id, request_hash, product_type, status, lang,
			amount, currency, description, details, payment_method, expires_at, created_at, updated_at)
			VALUES ('pp-held', '00000000000000000000000000000002', 'r1', 'h', 'coupon_ticket', 'pending', 'en', 21800, 'JPY', 'x', '{"productId":"cp-kansai","periodId":"cp-kansai-spring"}', 'creditCard', 0, 0, 0)`); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO payment_processes (id, member_id, request_id, request_hash, product_type, status, lang,
			amount, currency, description, details, payment_method, expires_at, created_at, updated_at)
			VALUES ('pp-held2', '00000000000000000000000000000001', 'r2', 'h', 'gogo_pass', 'prepared', 'en', 29800, 'JPY', 'x', '{"planId":"gp-weekday","periodId":"gp-weekday-next","fareType":"happy"}', 'creditCard', 0, 0, 0)`); err != nil {
			t.Fatal(err)
		}
		f := parse(t, live)
		c := f.Catalogue
		c.Plans[1].Periods[0].CurrencyCode = "KRW" // gp-weekday-next: a payment is preparing
		// remove gp-all-current, reprice gp-all-next, reprice cp-kansai-spring, rename a plan (allowed)
		c.Plans[0].Periods = c.Plans[0].Periods[1:]
		c.Plans[0].Periods[0].Price.Happy++
		c.Plans[1].Name["en"] = "Renamed"
		for i, pe := range c.Products[0].Periods {
			if pe.ID == "cp-kansai-spring" {
				c.Products[0].Periods[i].Plan.Lite.PricePerPerson++
			}
		}
		b, err := catalogue.Encode(c)
		if err != nil {
			t.Fatal(err)
		}
		_, err = svc.Apply(ctx, parse(t, string(b)), false)
		var errs *catalogue.Errors
		if !errors.As(err, &errs) {
			t.Fatalf("applied: %v", err)
		}
		got := err.Error()
		for _, want := range []string{
			"pass period gp-all-current of plan gp-all cannot be removed: held by 1 (1 pass)",
			"passPlans[0].periods[0].price: pass period gp-all-next cannot be repriced: held by 1 (1 lottery entry)",
			"cp-kansai-spring cannot be repriced: held by 1 (1 payment in progress)",
			"passPlans[1].periods[0].price: pass period gp-weekday-next cannot be repriced: held by 1 (1 payment in progress)",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("refusal lacks %q:\n%s", want, got)
			}
		}
		if exportText(t, svc) != live {
			t.Fatal("a refused apply changed the catalogue")
		}
	})
}

// TestJSONFileNamesTheLine: a JSON catalogue is read the same way, with
// its lines; two plans with one id are refused at the second.
func TestJSONFileNamesTheLine(t *testing.T) {
	texts := `{"jp": "a", "en": "a", "sg": "a", "kr": "a", "cn": "a", "tw": "a", "hk": "a", "th": "a"}`
	plan := `{
	"id": "gp-x", "name": ` + texts + `, "nameAlt": ` + texts + `,
	"periods": [{"id": "%s", "availablePeriodToBoard": {"begin": "2027-01-01", "end": "2027-02-01"},
		"availablePeriodToBook": {"begin": "2026-12-01", "end": "2027-01-15"}, "currencyCode": "JPY",
		"price": {"happy": 1000, "happlus": %s}}]
}`
	doc := "{\n\"passPlans\": [\n" + strings.Replace(strings.Replace(plan, "%s", "p1", 1), "%s", "2000", 1) + ",\n" +
		strings.Replace(strings.Replace(plan, "%s", "p2", 1), "%s", "\"2000\"", 1) + "\n],\n\"couponProducts\": []\n}\n"
	_, err := catalogue.Parse("catalogue.json", []byte(doc))
	var errs *catalogue.Errors
	if !errors.As(err, &errs) {
		t.Fatalf("not refused: %v", err)
	}
	got := strings.Join(errs.Lines(), "\n")
	for _, want := range []string{
		"catalogue.json:10: passPlans[1].id: duplicate id \"gp-x\" (also passPlans[0].id)",
		"catalogue.json:13: passPlans[1].periods[0].price.happlus: must be an integer, not \"2000\"",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("got\n%s\nwant %q", got, want)
		}
	}
	// the same file, mended, is taken
	mended := strings.Replace(doc, `"happlus": "2000"`, `"happlus": 2000`, 1)
	mended = strings.Replace(mended, `"id": "gp-x"`, `"id": "gp-y"`, 1)
	f, err := catalogue.Parse("catalogue.json", []byte(mended))
	if err != nil || len(f.Catalogue.Plans) != 2 || f.Catalogue.Plans[1].Periods[0].Price.Happlus != 2000 {
		t.Fatalf("mended file: %v %+v", err, f)
	}
}

// TestHeldPeriodKeepsItsPriceNotItsTexts: a held period's windows and its
// plan's names may change; moving it to another plan may not.
func TestHeldPeriodKeepsItsPriceNotItsTexts(t *testing.T) {
	ctx := context.Background()
	db, _ := apitest.OpenDemoDB(t, store.SQLite)
	svc := service(t, db)
	c := parse(t, exportText(t, svc)).Catalogue
	c.Plans[0].Name["jp"] = "新しい名前"
	c.Plans[0].Periods[0].AvailablePeriodToBoard.End = c.Plans[0].Periods[0].AvailablePeriodToBook.End
	b, _ := catalogue.Encode(c)
	ch, err := svc.Apply(ctx, parse(t, string(b)), false)
	if err != nil || catalogue.Summary(ch) != "0 added, 2 changed, 0 removed" {
		t.Fatalf("apply: %v %v", ch, err)
	}
	moved := parse(t, string(b)).Catalogue
	moved.Plans[1].Periods = append(moved.Plans[1].Periods, moved.Plans[0].Periods[0])
	moved.Plans[0].Periods = moved.Plans[0].Periods[1:]
	b, _ = catalogue.Encode(moved)
	_, err = svc.Apply(ctx, parse(t, string(b)), false)
	if err == nil || !strings.Contains(err.Error(), "passPlans[1].periods[1].id: pass period gp-all-current cannot be moved to another plan: held by 1 (1 pass)") {
		t.Fatalf("move: %v", err)
	}
}
