package httpapi_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"members/internal/account"
	"members/internal/apitest"
	"members/internal/app"
	"members/internal/mail"
	"members/internal/mail/mailtest"
	"members/internal/store"
)

// validProfile is a profile body that passes every rule (demo member 1).
func validProfile() map[string]any {
	return map[string]any{
		"firstname": "Hanako", "lastname": "Yamada", "gender": "female", "birth": "1988-04-12",
		"email": apitest.DemoEmail, "tel": "0312345678", "addressCountryCode": "JP", "addressPostalCode": "5490001",
		"addressStateAndCity": "Osaka Izumisano", "address1": "1 Senshu-kuko-kita", "passportNo": "TR1234567",
		"passportNationalityCode": "JP", "passportIssueCountryCode": "JP", "passportExpirationDate": "2031-01-01",
		"optin1": false, "autoLoginNoticeMail": true,
	}
}

func with(m map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

// fieldError returns the message of field in a 400 answer.
func fieldError(t *testing.T, r *apitest.Response, field string) string {
	t.Helper()
	if r.Status != http.StatusBadRequest {
		t.Fatalf("status %d, want 400: %s", r.Status, r.Body)
	}
	var body struct {
		ValidationErrors map[string][]string `json:"validationErrors"`
	}
	r.JSON(t, &body)
	msgs := body.ValidationErrors[field]
	if len(msgs) != 1 {
		t.Fatalf("want one message for %s, got %v", field, body.ValidationErrors)
	}
	return msgs[0]
}

func outbox(env *apitest.Env) *store.MailOutbox { return store.NewMailOutbox(env.App.DB) }

// waitMail polls the outbox for the newest message of kind to addr.
func waitMail(t *testing.T, env *apitest.Env, kind, to string) mail.Stored {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		list, err := outbox(env).List(context.Background(), 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range list {
			if m.Kind == kind && strings.EqualFold(m.To, to) {
				return m
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no %s mail to %s in the outbox", kind, to)
	return mail.Stored{}
}

func countMail(t *testing.T, env *apitest.Env) int {
	list, err := outbox(env).List(context.Background(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

func TestGetUser(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		c.Lang = "jp"
		r := c.Get("/api/user?disableCache=true")
		if r.Status != http.StatusOK {
			t.Fatalf("GET /api/user = %d %s", r.Status, r.Body)
		}
		u := r.Map(t)
		for _, k := range []string{"profileId", "optin1", "autoLoginIsActive", "autoLoginNoticeMail", "memberships",
			"isEmployee", "hasInvalidCharactersInEmail", "hasInvalidBirthDate", "hasInvalidPassportCountryCode",
			"onlineShopAccountStatus", "firstname", "lastname", "gender", "birth", "email", "tel", "addressCountryCode",
			"addressCountry", "addressPostalCode", "addressStateAndCity", "address1", "passportNo",
			"passportNationalityCode", "passportNationality", "passportIssueCountryCode", "passportIssueCountry",
			"passportExpirationDate"} {
			if _, ok := u[k]; !ok {
				t.Errorf("GET /api/user lacks %s", k)
			}
		}
		if u["addressCountry"] != "日本" || u["email"] != apitest.DemoEmail || u["hasInvalidCharactersInEmail"] != false ||
			u["hasInvalidBirthDate"] != false || u["onlineShopAccountStatus"] != "unknown" || u["optin1"] != true {
			t.Errorf("profile %v", u)
		}
		// Derived flags come from the stored data.
		if _, err := env.App.DB.Exec(`UPDATE members SET email = 'ｈａｎａｋｏ@example.com', birth = '2020-01-01',
			passport_nationality_code = 'XX' WHERE id = $1`, u["profileId"]); err != nil {
			t.Fatal(err)
		}
		u = c.Get("/api/user").Map(t)
		if u["hasInvalidCharactersInEmail"] != true || u["hasInvalidBirthDate"] != true || u["hasInvalidPassportCountryCode"] != true {
			t.Errorf("derived flags %v", u)
		}
		if r := env.Client(t).Get("/api/user"); r.Status != http.StatusForbidden {
			t.Errorf("GET /api/user without session = %d", r.Status)
		}
	})
}

func TestUpdateUser(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		body := with(validProfile(), "firstname", "Hana", "address1", "2-3 Rinku Ourai 大阪", "addressCountryCode", "KR")
		r := c.Do(http.MethodPut, "/api/user", body)
		if r.Status != http.StatusOK {
			t.Fatalf("PUT /api/user = %d %s", r.Status, r.Body)
		}
		var saved struct {
			User     map[string]any `json:"user"`
			MailSent bool           `json:"mailSent"`
		}
		r.JSON(t, &saved)
		if !saved.MailSent || saved.User["firstname"] != "Hana" || saved.User["addressCountry"] != "South Korea" ||
			saved.User["optin1"] != false {
			t.Fatalf("saved %+v", saved)
		}
		if got := c.Get("/api/user").Map(t); got["firstname"] != "Hana" || got["address1"] != "2-3 Rinku Ourai 大阪" {
			t.Fatalf("not stored: %v", got)
		}
		m := waitMail(t, env, mail.KindProfileUpdated, apitest.DemoEmail)
		if m.Status != mail.Held || !strings.Contains(m.Text, "Hana Yamada") {
			t.Fatalf("mail %+v", m)
		}

		// Every rule, one field error each, in the request's language.
		long := strings.Repeat("a", 89) + "@example.com" // 101 characters
		for _, tc := range []struct {
			name, field string
			value       any
			want        string
		}{
			{"lastname required", "lastname", "", "This field is required."},
			{"firstname required", "firstname", " ", "This field is required."},
			{"firstname latin", "firstname", "花子", "Enter in English (Latin) letters."},
			{"lastname digits", "lastname", "Yamada2", "Enter in English (Latin) letters."},
			{"gender required", "gender", "", "This field is required."},
			{"gender value", "gender", "other", "Select male or female."},
			{"birth required", "birth", "", "This field is required."},
			{"birth invalid", "birth", "1990-02-30", "Enter a valid date."},
			{"birth format", "birth", "12/04/1988", "Enter a valid date."},
			{"birth future", "birth", "2027-01-01", "Enter a date that is not in the future."},
			{"member under 12", "birth", "2014-11-21", "Members must be 12 years of age or older."},
			{"tel required", "tel", "", "This field is required."},
			{"tel 00", "tel", "0012345678", "Do not begin the phone number with 00 or +."},
			{"tel plus", "tel", "+8112345678", "Do not begin the phone number with 00 or +."},
			{"tel letters", "tel", "03-1234-567a", "Enter the phone number in digits; hyphens and spaces may separate them."},
			{"tel 7 digits", "tel", "0312345", "Enter 8 to 11 digits."},
			{"tel 12 digits", "tel", "031234567890", "Enter 8 to 11 digits."},
			{"email required", "email", "", "This field is required."},
			{"email 101", "email", long, "Enter at most 100 characters."},
			{"email shape", "email", "hanako@", "Enter a valid e-mail address."},
			{"address country required", "addressCountryCode", "", "This field is required."},
			{"address country iso", "addressCountryCode", "XX", "Select a country from the list."},
			{"postal code required", "addressPostalCode", "", "This field is required."},
			{"state and city required", "addressStateAndCity", "", "This field is required."},
			{"address1 emoji", "address1", "1 Senshu 😀", "Characters such as emoji cannot be used."},
			{"address1 rare kanji", "address1", "𠮷野家", "Characters such as emoji cannot be used."},
			{"passport nationality iso", "passportNationalityCode", "ZZ", "Select a country from the list."},
			{"passport issue iso", "passportIssueCountryCode", "jp", "Select a country from the list."},
			{"passport expiry", "passportExpirationDate", "2030-13-01", "Enter a valid date."},
			{"passport number", "passportNo", "TR-12", "Enter single-byte letters and digits only."},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := c.Do(http.MethodPut, "/api/user", with(validProfile(), tc.field, tc.value))
				if got := fieldError(t, r, tc.field); got != tc.want {
					t.Errorf("%s = %q, want %q", tc.field, got, tc.want)
				}
			})
		}
		// Boundaries that pass: exactly 12 today (Japan time), 8 and 11 digits, 100 characters.
		for _, ok := range []map[string]any{
			with(validProfile(), "birth", "2014-11-20"),
			with(validProfile(), "tel", "03123456"),
			with(validProfile(), "tel", "09012345678"),
			with(validProfile(), "email", strings.Repeat("a", 88)+"@example.com", "currentPassword", apitest.DemoPassword),
		} {
			if r := c.Do(http.MethodPut, "/api/user", ok); r.Status != http.StatusOK {
				t.Errorf("%v refused: %s", ok, r.Body)
			}
		}
		// A number typed with hyphens and spaces is accepted and stored cleaned.
		if r := c.Do(http.MethodPut, "/api/user", with(validProfile(), "tel", " 090-1234 5678 ")); r.Status != http.StatusOK {
			t.Fatalf("hyphenated tel refused: %s", r.Body)
		}
		if got := c.Get("/api/user").Map(t)["tel"]; got != "09012345678" {
			t.Errorf("tel stored as %q, want 09012345678", got)
		}
		// Messages follow X-Lang.
		c.Lang = "jp"
		if got := fieldError(t, c.Do(http.MethodPut, "/api/user", with(validProfile(), "tel", "03-1234-abcd")), "tel"); got != "電話番号は数字で入力してください（ハイフンとスペースは使えます）。" {
			t.Errorf("jp tel message %q", got)
		}
		// A refused change changes nothing.
		// (the address itself changes only through its confirmation link)
		if got := c.Get("/api/user").Map(t); got["email"] != apitest.DemoEmail {
			t.Errorf("email after refusals %v", got["email"])
		}
		// Unknown fields and broken JSON are 400 too.
		if r := c.Do(http.MethodPut, "/api/user", with(validProfile(), "shoeSize", 42)); r.Status != http.StatusBadRequest {
			t.Errorf("unknown field = %d", r.Status)
		}

		if r := env.Client(t).Do(http.MethodPut, "/api/user", validProfile()); r.Status != http.StatusForbidden {
			t.Errorf("PUT without session = %d", r.Status)
		}
		c.NoCSRF = true
		if r := c.Do(http.MethodPut, "/api/user", validProfile()); r.Status != http.StatusForbidden {
			t.Errorf("PUT without CSRF = %d", r.Status)
		}
	})
}

func TestChangePassword(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		other := env.Member(t) // the same member on another device
		pw := func(old, nw, again string) map[string]any {
			return map[string]any{"passwordOld": old, "passwordNew": nw, "passwordReenter": again}
		}
		for _, tc := range []struct {
			name, field string
			body        map[string]any
			want        string
		}{
			{"old required", "passwordOld", pw("", "Abcd1234", "Abcd1234"), "This field is required."},
			{"new required", "passwordNew", pw(apitest.DemoPassword, "", ""), "This field is required."},
			{"reenter required", "passwordReenter", pw(apitest.DemoPassword, "Abcd1234", ""), "This field is required."},
			{"new 7 chars", "passwordNew", pw(apitest.DemoPassword, "Abcd123", "Abcd123"), "Enter 8 to 32 characters."},
			{"new 33 chars", "passwordNew", pw(apitest.DemoPassword, strings.Repeat("a1", 16)+"b", strings.Repeat("a1", 16)+"b"), "Enter 8 to 32 characters."},
			{"new no digit", "passwordNew", pw(apitest.DemoPassword, "Abcdefgh", "Abcdefgh"), "Use at least one letter and one digit."},
			{"new no letter", "passwordNew", pw(apitest.DemoPassword, "12345678", "12345678"), "Use at least one letter and one digit."},
			{"mismatch", "passwordReenter", pw(apitest.DemoPassword, "Abcd1234", "Abcd1235"), "The passwords do not match."},
			{"wrong current", "passwordOld", pw("Wrong1234", "Abcd1234", "Abcd1234"), "The current password is incorrect."},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if got := fieldError(t, c.Do(http.MethodPut, "/api/user/password", tc.body), tc.field); got != tc.want {
					t.Errorf("%s = %q, want %q", tc.field, got, tc.want)
				}
			})
		}
		if r := env.Client(t).Do(http.MethodPut, "/api/user/password", pw(apitest.DemoPassword, "Abcd1234", "Abcd1234")); r.Status != http.StatusForbidden {
			t.Errorf("without session = %d", r.Status)
		}
		c.NoCSRF = true
		if r := c.Do(http.MethodPut, "/api/user/password", pw(apitest.DemoPassword, "Abcd1234", "Abcd1234")); r.Status != http.StatusForbidden {
			t.Errorf("without CSRF = %d", r.Status)
		}
		c.NoCSRF = false

		// 8 and 32 characters are allowed.
		r := c.Do(http.MethodPut, "/api/user/password", pw(apitest.DemoPassword, "Abcd1234", "Abcd1234"))
		if r.Status != http.StatusOK || r.Map(t)["mailSent"] != true {
			t.Fatalf("change = %d %s", r.Status, r.Body)
		}
		if r := other.Get("/api/session"); r.Status != http.StatusForbidden {
			t.Errorf("other session still alive: %d", r.Status)
		}
		if r := c.Get("/api/session"); r.Status != http.StatusNoContent {
			t.Errorf("current session ended: %d", r.Status)
		}
		long := strings.Repeat("a1", 16)
		if r := c.Do(http.MethodPut, "/api/user/password", pw("Abcd1234", long, long)); r.Status != http.StatusOK {
			t.Fatalf("32 characters refused: %s", r.Body)
		}
		env.Client(t).Login(apitest.DemoEmail, long)
		waitMail(t, env, mail.KindPasswordChanged, apitest.DemoEmail)
	})
}

func TestPassengers(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		var list struct {
			Passengers []account.Passenger `json:"passengers"`
		}
		c.Get("/api/user/passengers").JSON(t, &list)
		types := map[string]bool{}
		for _, p := range list.Passengers {
			types[p.PassengerType] = true
		}
		if len(list.Passengers) != 3 || !types["ADULT"] || !types["CHILD"] || !types["INFANT"] {
			t.Fatalf("demo passengers %+v", list.Passengers)
		}

		adult := map[string]any{"firstname": "Jiro", "lastname": "Yamada", "gender": "male", "birth": "1990-05-05"}
		r := c.Do(http.MethodPost, "/api/user/passengers", adult)
		if r.Status != http.StatusOK {
			t.Fatalf("add = %d %s", r.Status, r.Body)
		}
		var saved struct {
			Passenger account.Passenger `json:"passenger"`
			MailSent  bool              `json:"mailSent"`
		}
		r.JSON(t, &saved)
		if saved.Passenger.PassengerType != "ADULT" || saved.Passenger.ID == "" || !saved.MailSent {
			t.Fatalf("added %+v", saved)
		}
		id := saved.Passenger.ID
		waitMail(t, env, mail.KindPassengerAdded, apitest.DemoEmail)

		// Types follow the birth date (Japan time today is 2026-11-20).
		for _, tc := range []struct{ birth, typ string }{
			{"2024-11-21", "INFANT"}, {"2024-11-20", "CHILD"}, {"2014-11-21", "CHILD"}, {"2014-11-20", "ADULT"},
		} {
			r := c.Do(http.MethodPut, "/api/user/passengers/"+id, with(adult, "birth", tc.birth))
			r.JSON(t, &saved)
			if r.Status != http.StatusOK || saved.Passenger.PassengerType != tc.typ {
				t.Errorf("birth %s: %d %s, want %s", tc.birth, r.Status, r.Body, tc.typ)
			}
		}
		for _, tc := range []struct {
			name, field string
			body        map[string]any
			want        string
		}{
			{"lastname required", "lastname", with(adult, "lastname", ""), "This field is required."},
			{"firstname latin", "firstname", with(adult, "firstname", "次郎"), "Enter in English (Latin) letters."},
			{"gender required", "gender", with(adult, "gender", ""), "This field is required."},
			{"birth required", "birth", with(adult, "birth", ""), "This field is required."},
			{"birth invalid", "birth", with(adult, "birth", "2020-02-30"), "Enter a valid date."},
			{"birth future", "birth", with(adult, "birth", "2026-11-21"), "Enter a date that is not in the future."},
			{"type unknown", "passengerType", with(adult, "passengerType", "SENIOR"), "Select a passenger type."},
			{"infant as adult", "passengerType", with(adult, "passengerType", "ADULT", "birth", "2025-06-01"), "The passenger type does not match the date of birth (infant: under 2, child: 2 to 11, adult: 12 or older)."},
			{"adult as child", "passengerType", with(adult, "passengerType", "CHILD"), "The passenger type does not match the date of birth (infant: under 2, child: 2 to 11, adult: 12 or older)."},
			{"tel prefix", "tel", with(adult, "tel", "+819012345678"), "Do not begin the phone number with 00 or +."},
			{"tel length", "tel", with(adult, "tel", "0901234"), "Enter 8 to 11 digits."},
			{"email shape", "email", with(adult, "email", "jiro@"), "Enter a valid e-mail address."},
			{"passport country", "passportNationalityCode", with(adult, "passportNationalityCode", "XX"), "Select a country from the list."},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if got := fieldError(t, c.Do(http.MethodPost, "/api/user/passengers", tc.body), tc.field); got != tc.want {
					t.Errorf("%s = %q, want %q", tc.field, got, tc.want)
				}
			})
		}

		// Another member's passenger: 404 for read, edit and delete; nothing changes.
		c2 := env.Member2(t)
		before := c.Get("/api/user/passengers/" + id)
		for _, r := range []*apitest.Response{
			c2.Get("/api/user/passengers/" + id),
			c2.Do(http.MethodPut, "/api/user/passengers/"+id, with(adult, "firstname", "Stolen")),
			c2.Do(http.MethodDelete, "/api/user/passengers/"+id, nil),
			c.Get("/api/user/passengers/nope"),
		} {
			if r.Status != http.StatusNotFound {
				t.Errorf("cross-member call = %d %s", r.Status, r.Body)
			}
		}
		if after := c.Get("/api/user/passengers/" + id); string(after.Body) != string(before.Body) {
			t.Errorf("passenger changed by another member: %s → %s", before.Body, after.Body)
		}
		c2.Get("/api/user/passengers").JSON(t, &list)
		for _, p := range list.Passengers {
			if p.ID == id {
				t.Error("member 2 lists member 1's passenger")
			}
		}

		// 403 without session or CSRF.
		anon := env.Client(t)
		for _, r := range []*apitest.Response{
			anon.Get("/api/user/passengers"), anon.Do(http.MethodPost, "/api/user/passengers", adult),
			anon.Get("/api/user/passengers/" + id), anon.Do(http.MethodDelete, "/api/user/passengers/"+id, nil),
		} {
			if r.Status != http.StatusForbidden {
				t.Errorf("anonymous = %d", r.Status)
			}
		}
		c.NoCSRF = true
		for _, r := range []*apitest.Response{
			c.Do(http.MethodPost, "/api/user/passengers", adult),
			c.Do(http.MethodPut, "/api/user/passengers/"+id, adult),
			c.Do(http.MethodDelete, "/api/user/passengers/"+id, nil),
		} {
			if r.Status != http.StatusForbidden {
				t.Errorf("without CSRF = %d", r.Status)
			}
		}
		c.NoCSRF = false

		// Delete, then the cap.
		if r := c.Do(http.MethodDelete, "/api/user/passengers/"+id, nil); r.Status != http.StatusOK || r.Map(t)["mailSent"] != true {
			t.Fatalf("delete = %d %s", r.Status, r.Body)
		}
		if r := c.Get("/api/user/passengers/" + id); r.Status != http.StatusNotFound {
			t.Errorf("deleted passenger = %d", r.Status)
		}
		waitMail(t, env, mail.KindPassengerDeleted, apitest.DemoEmail)
		for i := 3; i < account.MaxPassengers; i++ {
			if r := c.Do(http.MethodPost, "/api/user/passengers", adult); r.Status != http.StatusOK {
				t.Fatalf("add #%d = %d", i+1, r.Status)
			}
		}
		r = c.Do(http.MethodPost, "/api/user/passengers", adult)
		if r.Status != http.StatusConflict || !strings.Contains(r.Map(t)["message"].(string), "up to 20 passengers") {
			t.Fatalf("21st passenger = %d %s", r.Status, r.Body)
		}
	})
}

var resetLink = regexp.MustCompile(`/reset-password/([A-Za-z0-9_-]+)\?lang=(\w+)`)

func TestPasswordResetJourney(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		loggedIn := env.Member(t)
		anon := env.Client(t)
		anon.Lang = "kr"

		// Unknown and known addresses get the same answer; only the known one gets mail.
		unknown := anon.Do(http.MethodPost, "/api/user/reset_password", map[string]string{"email": "nobody@example.com"})
		known := anon.Do(http.MethodPost, "/api/user/reset_password", map[string]string{"email": apitest.DemoEmail})
		if unknown.Status != http.StatusNoContent || known.Status != unknown.Status || string(known.Body) != string(unknown.Body) {
			t.Fatalf("answers differ: %d %q / %d %q", unknown.Status, unknown.Body, known.Status, known.Body)
		}
		m := waitMail(t, env, mail.KindPasswordReset, apitest.DemoEmail)
		if m.Subject != "비밀번호 재설정" {
			t.Errorf("subject %q", m.Subject)
		}
		got := resetLink.FindStringSubmatch(m.Text)
		if got == nil || !strings.HasPrefix(m.Text[strings.Index(m.Text, "http"):], app.DefaultPublicURL+"/reset-password/") || got[2] != "kr" {
			t.Fatalf("no reset link in %q", m.Text)
		}
		token := got[1]
		list, _ := outbox(env).List(context.Background(), 100)
		for _, s := range list {
			if s.To == "nobody@example.com" {
				t.Error("mail sent to an unknown address")
			}
		}
		// The token is stored only as its hash.
		var n int
		if err := env.App.DB.QueryRow(`SELECT COUNT(*) FROM password_resets WHERE token_hash = $1`, token).Scan(&n); err != nil || n != 0 {
			t.Errorf("raw token stored (%d, %v)", n, err)
		}

		// Validation.
		if r := anon.Do(http.MethodPost, "/api/user/reset_password", map[string]string{"email": ""}); r.Status != http.StatusBadRequest {
			t.Errorf("blank e-mail = %d", r.Status)
		}
		if r := anon.Do(http.MethodPost, "/api/user/reset_password/validate", map[string]string{"token": token}); r.Status != http.StatusNoContent {
			t.Fatalf("validate = %d %s", r.Status, r.Body)
		}
		if r := anon.Do(http.MethodPost, "/api/user/reset_password/validate", map[string]string{"token": "x" + token}); r.Status != http.StatusNotFound {
			t.Errorf("validate bad token = %d", r.Status)
		}
		set := func(tok, pw, again string) *apitest.Response {
			return anon.Do(http.MethodPut, "/api/user/reset_password", map[string]string{"token": tok, "password": pw, "passwordReenter": again})
		}
		anon.Lang = "en"
		if got := fieldError(t, set(token, "short1", "short1"), "password"); got != "Enter 8 to 32 characters." {
			t.Errorf("short password: %q", got)
		}
		if got := fieldError(t, set(token, "Newpass12", "Newpass13"), "passwordReenter"); got != "The passwords do not match." {
			t.Errorf("mismatch: %q", got)
		}
		anon.NoCSRF = true
		if r := set(token, "Newpass12", "Newpass12"); r.Status != http.StatusForbidden {
			t.Errorf("without CSRF = %d", r.Status)
		}
		anon.NoCSRF = false
		if r := set(token, "Newpass12", "Newpass12"); r.Status != http.StatusOK {
			t.Fatalf("reset = %d %s", r.Status, r.Body)
		}
		if r := loggedIn.Get("/api/session"); r.Status != http.StatusForbidden {
			t.Errorf("old session survived the reset: %d", r.Status)
		}
		env.Client(t).Login(apitest.DemoEmail, "Newpass12")
		if r := set(token, "Other1234", "Other1234"); r.Status != http.StatusNotFound {
			t.Errorf("token reused: %d", r.Status)
		}
		if r := anon.Do(http.MethodPost, "/api/user/reset_password/validate", map[string]string{"token": token}); r.Status != http.StatusNotFound {
			t.Errorf("used token validates: %d", r.Status)
		}

		// A link expires after an hour.
		anon.Do(http.MethodPost, "/api/user/reset_password", map[string]string{"email": apitest.Demo2Email})
		m = waitMail(t, env, mail.KindPasswordReset, apitest.Demo2Email)
		token2 := resetLink.FindStringSubmatch(m.Text)[1]
		env.Clock.Advance(account.ResetLinkLifetime - time.Minute)
		if r := anon.Do(http.MethodPost, "/api/user/reset_password/validate", map[string]string{"token": token2}); r.Status != http.StatusNoContent {
			t.Errorf("59 minutes: %d", r.Status)
		}
		env.Clock.Advance(time.Minute)
		if r := anon.Do(http.MethodPost, "/api/user/reset_password/validate", map[string]string{"token": token2}); r.Status != http.StatusNotFound {
			t.Errorf("60 minutes: %d", r.Status)
		}
		if r := set(token2, "Newpass12", "Newpass12"); r.Status != http.StatusNotFound {
			t.Errorf("expired reset: %d", r.Status)
		}
	})
}

func TestPasswordResetThrottle(t *testing.T) {
	env := apitest.New(t, store.SQLite)
	anon := env.Client(t)
	var last *apitest.Response
	for i := 0; i < 6; i++ {
		last = anon.Do(http.MethodPost, "/api/user/reset_password", map[string]string{"email": "nobody@example.com"})
	}
	if last.Status != http.StatusTooManyRequests {
		t.Fatalf("6th request = %d", last.Status)
	}
}

func TestPostalCodeAndMailSuggests(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		c.Lang = "jp"
		r := c.Get("/api/postal_code_address?country=JP&zip=5490001")
		if r.Status != http.StatusOK {
			t.Fatalf("postal = %d %s", r.Status, r.Body)
		}
		if a := r.Map(t); a["prefecture"] != "大阪府" || a["city"] != "泉佐野市" || a["street"] != "泉州空港北" {
			t.Errorf("address %v", a)
		}
		// An English or Thai page gets no kanji: the prefecture in Latin letters, nothing else.
		for _, lang := range []string{"en", "th"} {
			c.Lang = lang
			if a := c.Get("/api/postal_code_address?country=JP&zip=5490001").Map(t); a["prefecture"] != "Osaka" || a["city"] != "" || a["street"] != "" {
				t.Errorf("%s address %v", lang, a)
			}
		}
		for _, q := range []string{"country=JP&zip=0000000", "country=KR&zip=04524", "country=JP&zip=abc"} {
			if r := c.Get("/api/postal_code_address?" + q); r.Status != http.StatusNotFound {
				t.Errorf("%s = %d", q, r.Status)
			}
		}
		if r := c.Get("/api/postal_code_address?country=JP"); r.Status != http.StatusBadRequest {
			t.Errorf("missing zip = %d", r.Status)
		}
		// Asked quietly (the web app's X-Quiet-Errors), the expected refusals
		// come as 200 with the real status beside them, so the browser logs
		// nothing; the body is the same. Other statuses are left alone.
		plain := c.Get("/api/postal_code_address?country=JP&zip=0000000")
		quiet := c.Do(http.MethodGet, "/api/postal_code_address?country=JP&zip=0000000", nil, "X-Quiet-Errors", "1")
		if quiet.Status != http.StatusOK || quiet.Header.Get("X-Status") != "404" || string(quiet.Body) != string(plain.Body) {
			t.Errorf("quiet 404: %d %q %s", quiet.Status, quiet.Header.Get("X-Status"), quiet.Body)
		}
		q400 := c.Do(http.MethodPut, "/api/user", with(validProfile(), "tel", "03-12a4"), "X-Quiet-Errors", "1")
		if q400.Status != http.StatusOK || q400.Header.Get("X-Status") != "400" || !strings.Contains(string(q400.Body), `"validationErrors"`) {
			t.Errorf("quiet 400: %d %q %s", q400.Status, q400.Header.Get("X-Status"), q400.Body)
		}
		if ok := c.Do(http.MethodGet, "/api/postal_code_address?country=JP&zip=5490001", nil, "X-Quiet-Errors", "1"); ok.Status != http.StatusOK || ok.Header.Get("X-Status") != "" {
			t.Errorf("quiet found: %d %q", ok.Status, ok.Header.Get("X-Status"))
		}
		s := c.Get("/api/masters/mailSuggests?email=hanako@gmial.com").Map(t)
		if s["suggestion"] != "hanako@gmail.com" || len(s["domains"].([]any)) == 0 {
			t.Errorf("suggest %v", s)
		}
		if s := c.Get("/api/masters/mailSuggests?email=hanako@gmail.com").Map(t); s["suggestion"] != nil {
			t.Errorf("no suggestion expected: %v", s)
		}
		anon := env.Client(t)
		for _, p := range []string{"/api/postal_code_address?country=JP&zip=5490001", "/api/masters/mailSuggests"} {
			if r := anon.Get(p); r.Status != http.StatusForbidden {
				t.Errorf("%s anonymous = %d", p, r.Status)
			}
			// A 403 is no member's input: never quiet.
			if r := anon.Do(http.MethodGet, p, nil, "X-Quiet-Errors", "1"); r.Status != http.StatusForbidden || r.Header.Get("X-Status") != "" {
				t.Errorf("%s anonymous, quiet = %d", p, r.Status)
			}
		}
	})
}

// TestMailOverSMTP delivers each kind of mail to an in-process SMTP
// server (one language per template), then checks the outbox path while
// the server is down and the worker's delivery when it is back.
func TestMailOverSMTP(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		srv := mailtest.Start(t)
		cfg := app.Config{}
		env := apitest.New(t, engine, func(c *app.Config) { c.SMTPURL = srv.URL(); cfg = *c })
		c := env.Member(t)

		c.Lang = "jp"
		if r := c.Do(http.MethodPut, "/api/user", validProfile()); r.Status != http.StatusOK || r.Map(t)["mailSent"] != true {
			t.Fatalf("PUT /api/user = %d %s", r.Status, r.Body)
		}
		d := srv.WaitFor(apitest.DemoEmail).Decode(t)
		if d.Subject != "会員情報が更新されました" || !strings.Contains(string(d.Parts["text/plain"]), "Yamada Hanako 様") ||
			!strings.Contains(string(d.Parts["text/html"]), "会員情報が更新されました。") {
			t.Errorf("profile mail: %q %q", d.Subject, d.Parts["text/plain"])
		}

		expect := func(lang, subject, body string, call func() *apitest.Response) {
			t.Helper()
			n := len(srv.Messages())
			c.Lang = lang
			if r := call(); r.Status != http.StatusOK || r.Map(t)["mailSent"] != true {
				t.Fatalf("%s call = %d %s", subject, r.Status, r.Body)
			}
			deadline := time.Now().Add(5 * time.Second)
			for len(srv.Messages()) == n && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			msgs := srv.Messages()
			if len(msgs) == n {
				t.Fatalf("no mail for %s", subject)
			}
			d := msgs[len(msgs)-1].Decode(t)
			if d.Subject != subject || !strings.Contains(string(d.Parts["text/plain"]), body) {
				t.Errorf("got %q / %q, want %q / %q", d.Subject, d.Parts["text/plain"], subject, body)
			}
		}
		adult := map[string]any{"firstname": "Jiro", "lastname": "Yamada", "gender": "male", "birth": "1990-05-05"}
		var id string
		expect("kr", "탑승객이 추가되었습니다", "Yamada Jiro 님이 저장된 탑승객에 추가되었습니다.", func() *apitest.Response {
			r := c.Do(http.MethodPost, "/api/user/passengers", adult)
			id = r.Map(t)["passenger"].(map[string]any)["id"].(string)
			return r
		})
		expect("cn", "常用乘客信息已更改", "常用乘客 Tanaka Jiro 的信息已更改。", func() *apitest.Response {
			return c.Do(http.MethodPut, "/api/user/passengers/"+id, with(adult, "lastname", "Tanaka"))
		})
		expect("th", "ลบผู้โดยสารที่บันทึกไว้แล้ว", "ลบ Jiro Tanaka ออกจากรายชื่อผู้โดยสารที่บันทึกไว้แล้ว", func() *apitest.Response {
			return c.Do(http.MethodDelete, "/api/user/passengers/"+id, nil)
		})
		expect("tw", "您的密碼已變更", "您帳戶的密碼已變更。", func() *apitest.Response {
			return c.Do(http.MethodPut, "/api/user/password", map[string]any{"passwordOld": apitest.DemoPassword, "passwordNew": "Abcd1234", "passwordReenter": "Abcd1234"})
		})
		anon := env.Client(t)
		anon.Lang = "hk"
		anon.Do(http.MethodPost, "/api/user/reset_password", map[string]string{"email": apitest.Demo2Email})
		d = srv.WaitFor(apitest.Demo2Email).Decode(t)
		if d.Subject != "重設密碼" || !resetLink.Match(d.Parts["text/plain"]) || !strings.Contains(string(d.Parts["text/html"]), "設定新密碼") {
			t.Errorf("reset mail: %q %q", d.Subject, d.Parts["text/plain"])
		}

		// SMTP down: the change is kept, mailSent is false, the mail waits in the outbox.
		srv.Stop()
		env.Clock.Advance(time.Second) // so the outbox lists this mail first
		c.Lang = "en"
		r := c.Do(http.MethodPut, "/api/user", with(validProfile(), "firstname", "Hanae"))
		if r.Status != http.StatusOK || r.Map(t)["mailSent"] != false {
			t.Fatalf("PUT with SMTP down = %d %s", r.Status, r.Body)
		}
		if got := c.Get("/api/user").Map(t); got["firstname"] != "Hanae" {
			t.Fatal("change lost while SMTP was down")
		}
		pending := waitMail(t, env, mail.KindProfileUpdated, apitest.DemoEmail)
		if pending.Status != mail.Pending || pending.Attempts != 1 || pending.LastError == "" {
			t.Fatalf("pending mail %+v", pending)
		}
		// The worker delivers it once the server is back and the backoff has passed.
		srv.Restart()
		mailer, err := env.App.Mailer(cfg)
		if err != nil {
			t.Fatal(err)
		}
		env.Clock.Advance(mail.Backoff(1))
		if n, err := mailer.DeliverDue(context.Background()); err != nil || n != 1 {
			t.Fatalf("worker delivered %d, %v", n, err)
		}
		if s, _ := outbox(env).Get(context.Background(), pending.ID); s.Status != mail.Sent {
			t.Fatalf("after retry %+v", s)
		}
		if d := srv.WaitFor(apitest.DemoEmail).Decode(t); !strings.Contains(string(d.Parts["text/plain"]), "Hanae Yamada") {
			t.Errorf("retried mail %q", d.Parts["text/plain"])
		}
	})
}
