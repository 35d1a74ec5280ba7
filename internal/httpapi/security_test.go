package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/auth"
	"members/internal/httpapi"
	"members/internal/i18n"
	"members/internal/store"
)

// nonGET are the foundation's state-changing calls with a valid body.
var nonGET = []struct {
	method, path string
	body         any
}{
	{http.MethodPost, "/api/session", map[string]string{"email": apitest.DemoEmail, "password": apitest.DemoPassword}},
	{http.MethodDelete, "/api/session", nil},
	{http.MethodPost, "/api/session/token", nil},
	{http.MethodPost, "/api/exception_notify", map[string]string{"name": "E", "message": "m"}},
}

func msg(env *apitest.Env, lang i18n.Lang, key string) string { return env.App.Catalog.T(lang, key) }

func TestCSRFRefusals(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		m := env.Member(t)
		other := env.Member2(t)
		otherToken := other.CSRFToken()
		anon := env.Client(t)
		anonToken := anon.CSRFToken()
		for _, call := range nonGET {
			for _, tt := range []struct {
				name  string
				token string
			}{
				{"missing", ""},
				{"wrong", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
				{"another session's", otherToken},
				{"a pre-login token", anonToken},
			} {
				m.NoCSRF = true
				var hdr []string
				if tt.token != "" {
					hdr = []string{"X-Csrf-Token", tt.token}
				}
				r := m.Do(call.method, call.path, call.body, hdr...)
				m.NoCSRF = false
				if r.Status != http.StatusForbidden {
					t.Errorf("%s %s with %s token = %d, want 403", call.method, call.path, tt.name, r.Status)
				}
				if got := r.Map(t)["message"]; got != msg(env, i18n.EN, "error.csrf") {
					t.Errorf("%s %s: message %v", call.method, call.path, got)
				}
				if got := r.Map(t)["errorKey"]; got != httpapi.CSRFRefusedKey {
					t.Errorf("%s %s: errorKey %v, want %q", call.method, call.path, got, httpapi.CSRFRefusedKey)
				}
			}
		}
		// Nothing happened: the member is still logged in, no report stored.
		if r := m.Get("/api/session"); r.Status != http.StatusNoContent {
			t.Fatalf("session ended by a refused call: %d", r.Status)
		}
		if n, _ := store.NewReports(env.App.DB).CountReports(context.Background()); n != 0 {
			t.Errorf("refused reports stored: %d", n)
		}
		// Login without a token also fails for an anonymous visitor.
		anon.NoCSRF = true
		if r := anon.Do(http.MethodPost, "/api/session", nonGET[0].body); r.Status != http.StatusForbidden {
			t.Errorf("anonymous login without token = %d", r.Status)
		}
	})
}

func TestCrossSiteRequestsRefused(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		m := env.Member(t)
		for _, hdr := range [][]string{
			{"Sec-Fetch-Site", "cross-site"},
			{"Origin", "https://evil.example.com"},
		} {
			for _, call := range nonGET {
				r := m.Do(call.method, call.path, call.body, hdr...)
				if r.Status != http.StatusForbidden {
					t.Errorf("%s %s with %s: %s = %d, want 403", call.method, call.path, hdr[0], hdr[1], r.Status)
				}
			}
		}
		// Same-origin requests pass.
		if r := m.Do(http.MethodPost, "/api/session/token", nil, "Sec-Fetch-Site", "same-origin"); r.Status != http.StatusNoContent {
			t.Errorf("same-origin refresh = %d", r.Status)
		}
		if r := m.Get("/api/session"); r.Status != http.StatusNoContent {
			t.Errorf("session ended by a refused cross-site call: %d", r.Status)
		}
	})
}

func TestRoutingErrors(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		for _, c := range []*apitest.Client{env.Client(t), env.Member(t)} {
			for _, p := range []string{"/api/nope", "/api/masters/planets", "/api_ext/nope", "/api/"} {
				r := c.Get(p)
				if r.Status != http.StatusNotFound || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
					t.Errorf("GET %s = %d %q", p, r.Status, r.Header.Get("Content-Type"))
				}
				if r.Map(t)["message"] != msg(env, i18n.EN, "error.not_found") {
					t.Errorf("GET %s body %s", p, r.Body)
				}
			}
			// A wrong method on a known path: 405 with Allow, before any
			// session or CSRF check.
			for _, tt := range []struct{ method, path, allow string }{
				{http.MethodPut, "/api/session", "DELETE"},
				{http.MethodPost, "/api/masters/languages", "GET"},
				{http.MethodDelete, "/api/csrf_token", "GET"},
				{http.MethodGet, "/api/exception_notify", "POST"},
			} {
				c.NoCSRF = true
				r := c.Do(tt.method, tt.path, nil)
				c.NoCSRF = false
				if r.Status != http.StatusMethodNotAllowed || !strings.Contains(r.Header.Get("Allow"), tt.allow) {
					t.Errorf("%s %s = %d, Allow %q", tt.method, tt.path, r.Status, r.Header.Get("Allow"))
				}
				if r.Map(t)["message"] == nil {
					t.Errorf("%s %s: no JSON message: %s", tt.method, tt.path, r.Body)
				}
			}
		}
		// Data calls without a session: 403 with the session message.
		anon := env.Client(t)
		anon.Lang = "jp"
		for _, p := range []string{"/api/masters/airports", "/api/masters/countries"} {
			r := anon.Get(p)
			if r.Status != http.StatusForbidden || r.Map(t)["message"] != msg(env, i18n.JP, "error.session") {
				t.Errorf("GET %s without session = %d %s", p, r.Status, r.Body)
			}
		}
		for _, call := range nonGET[1:3] {
			if r := anon.Do(call.method, call.path, call.body); r.Status != http.StatusForbidden {
				t.Errorf("%s %s without session = %d", call.method, call.path, r.Status)
			}
		}
	})
}

func TestLoginFailures(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		for _, lang := range []i18n.Lang{i18n.EN, i18n.JP, i18n.TH, i18n.KR} {
			c := env.Client(t)
			c.Lang = string(lang)
			unknown := c.Do(http.MethodPost, "/api/session", map[string]string{"email": "nobody@example.com", "password": "Demo1234"})
			wrong := c.Do(http.MethodPost, "/api/session", map[string]string{"email": apitest.Demo2Email, "password": "Wrong1234"})
			if unknown.Status != http.StatusUnauthorized || wrong.Status != http.StatusUnauthorized {
				t.Fatalf("%s: unknown e-mail %d, wrong password %d; want 401", lang, unknown.Status, wrong.Status)
			}
			if !bytes.Equal(unknown.Body, wrong.Body) {
				t.Errorf("%s: failures differ: %s vs %s", lang, unknown.Body, wrong.Body)
			}
			if got := unknown.Map(t)["message"]; got != msg(env, lang, "auth.login_failed") {
				t.Errorf("%s: message %v", lang, got)
			}
			if lang != i18n.EN && unknown.Map(t)["message"] == msg(env, i18n.EN, "auth.login_failed") {
				t.Errorf("%s: message not translated", lang)
			}
			if unknown.SetCookie("members_session") != nil || wrong.SetCookie("members_session") != nil {
				t.Errorf("%s: a failed login set a session cookie", lang)
			}
		}
		c := env.Client(t)
		c.Lang = "jp"
		r := c.Do(http.MethodPost, "/api/session", map[string]string{"email": "", "password": ""})
		if r.Status != http.StatusBadRequest {
			t.Fatalf("blank login = %d %s", r.Status, r.Body)
		}
		var v struct{ ValidationErrors map[string][]string }
		r.JSON(t, &v)
		for _, f := range []string{"email", "password"} {
			if len(v.ValidationErrors[f]) != 1 || v.ValidationErrors[f][0] != msg(env, i18n.JP, "validation.required") {
				t.Errorf("validation error of %s = %v", f, v.ValidationErrors[f])
			}
		}
		// E-mail is matched without regard to case.
		c.Login(strings.ToUpper(apitest.DemoEmail), apitest.DemoPassword)
	})
}

func TestLoginThrottlePerAccount(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Client(t)
		c.Lang = "th"
		bad := map[string]string{"email": apitest.DemoEmail, "password": "Wrong1234"}
		good := map[string]string{"email": apitest.DemoEmail, "password": apitest.DemoPassword}
		for i := 1; i <= auth.MaxFailsPerAccount; i++ {
			if r := c.Do(http.MethodPost, "/api/session", bad); r.Status != http.StatusUnauthorized {
				t.Fatalf("failure %d = %d", i, r.Status)
			}
			env.Clock.Advance(time.Minute)
		}
		r := c.Do(http.MethodPost, "/api/session", good)
		if r.Status != http.StatusTooManyRequests {
			t.Fatalf("right password after %d failures = %d, want 429", auth.MaxFailsPerAccount, r.Status)
		}
		if got := r.Map(t)["message"]; got != msg(env, i18n.TH, "error.too_many_requests") || got == msg(env, i18n.EN, "error.too_many_requests") {
			t.Errorf("429 message = %v, want the Thai text", got)
		}
		if r.Header.Get("Retry-After") == "" {
			t.Errorf("429 without Retry-After")
		}
		// The other member is not locked out by it.
		env.Member2(t)
		// The window is fixed, 15 minutes: past its end, the right password works.
		env.Clock.Advance(auth.ThrottleWindow)
		if r := c.Do(http.MethodPost, "/api/session", good); r.Status != http.StatusNoContent {
			t.Fatalf("after the window = %d %s", r.Status, r.Body)
		}
	})
}

func TestLoginThrottlePerAddress(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Client(t)
		for i := 1; i <= auth.MaxFailsPerAddr; i++ {
			// Distinct unknown accounts: never the per-account limit.
			email := "guess" + strings.Repeat("x", i) + "@example.com"
			if r := c.Do(http.MethodPost, "/api/session", map[string]string{"email": email, "password": "Wrong1234"}); r.Status != http.StatusUnauthorized {
				t.Fatalf("failure %d = %d", i, r.Status)
			}
		}
		r := env.Client(t).Do(http.MethodPost, "/api/session", map[string]string{"email": apitest.DemoEmail, "password": apitest.DemoPassword})
		if r.Status != http.StatusTooManyRequests {
			t.Fatalf("login from the address after %d failures = %d, want 429", auth.MaxFailsPerAddr, r.Status)
		}
		env.Clock.Advance(auth.ThrottleWindow)
		env.Member(t)
	})
}

func TestSessionRotationAndLogout(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		first := c.Cookie("members_session")
		if len(first) < 22 { // 128 bits in base64
			t.Fatalf("session cookie %q too short", first)
		}
		// Logging in again replaces the session id; the old one is dead.
		c.Login(apitest.DemoEmail, apitest.DemoPassword)
		second := c.Cookie("members_session")
		if second == "" || second == first {
			t.Fatalf("session id not renewed at login")
		}
		replay := env.Client(t)
		replay.SetCookie("members_session", first)
		if r := replay.Get("/api/session"); r.Status != http.StatusForbidden {
			t.Errorf("old session id still works: %d", r.Status)
		}
		replay.SetCookie("members_session", second)
		if r := replay.Get("/api/session"); r.Status != http.StatusNoContent {
			t.Fatalf("current session id refused: %d", r.Status)
		}
		// Logout ends the session on the server, not only in the browser.
		if r := c.Do(http.MethodDelete, "/api/session", nil); r.Status != http.StatusNoContent {
			t.Fatalf("logout = %d", r.Status)
		}
		if k := c.Cookie("members_session"); k != "" {
			t.Errorf("logout left the cookie: %q", k)
		}
		if r := replay.Get("/api/session"); r.Status != http.StatusForbidden {
			t.Errorf("replayed cookie after logout = %d, want 403", r.Status)
		}
		if r := replay.Get("/api/masters/airports"); r.Status != http.StatusForbidden {
			t.Errorf("replayed cookie data call after logout = %d", r.Status)
		}
		// A garbage cookie is just no session.
		junk := env.Client(t)
		junk.SetCookie("members_session", "garbage")
		if r := junk.Get("/api/session"); r.Status != http.StatusForbidden {
			t.Errorf("garbage cookie = %d", r.Status)
		}
		if r := junk.Get("/api/masters/languages"); r.Status != http.StatusOK {
			t.Errorf("garbage cookie on an anonymous call = %d", r.Status)
		}
	})
}

func TestSessionExpiry(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		// Idle timeout: just under it is fine, at it the session is gone.
		idle := env.Member(t)
		env.Clock.Advance(auth.IdleTimeout - time.Second)
		if r := idle.Get("/api/session"); r.Status != http.StatusNoContent {
			t.Fatalf("before the idle timeout = %d", r.Status)
		}
		env.Clock.Advance(auth.IdleTimeout)
		if r := idle.Get("/api/masters/airports"); r.Status != http.StatusForbidden {
			t.Fatalf("after the idle timeout = %d", r.Status)
		}
		if r := idle.Get("/api/session"); r.Status != http.StatusForbidden {
			t.Fatalf("expired session came back: %d", r.Status)
		}

		// Absolute lifetime: activity every 20 minutes does not extend it.
		busy := env.Member(t)
		start := env.Clock.Now()
		for env.Clock.Now().Sub(start) < auth.AbsoluteLifetime-20*time.Minute {
			env.Clock.Advance(20 * time.Minute)
			if r := busy.Do(http.MethodPost, "/api/session/token", nil); r.Status != http.StatusNoContent {
				t.Fatalf("refresh after %v = %d", env.Clock.Now().Sub(start), r.Status)
			}
		}
		env.Clock.Set(start.Add(auth.AbsoluteLifetime))
		if r := busy.Get("/api/session"); r.Status != http.StatusForbidden {
			t.Fatalf("after the absolute lifetime = %d", r.Status)
		}
	})
}

func TestExpiredHelper(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name          string
		created, seen time.Duration // before now
		expired       bool
	}{
		{"fresh", time.Minute, 0, false},
		{"idle just under", time.Hour, auth.IdleTimeout - time.Millisecond, false},
		{"idle at limit", time.Hour, auth.IdleTimeout, true},
		{"old but active", auth.AbsoluteLifetime - time.Millisecond, 0, false},
		{"absolute at limit", auth.AbsoluteLifetime, 0, true},
	} {
		s := auth.Session{CreatedAt: now.Add(-tt.created), LastSeenAt: now.Add(-tt.seen)}
		if got := auth.Expired(s, now); got != tt.expired {
			t.Errorf("%s: Expired = %v", tt.name, got)
		}
	}
}

func TestCookieFlags(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		for _, secure := range []bool{false, true} {
			env := apitest.New(t, engine, func(c *app.Config) { c.SecureCookies = secure })
			// Raw requests: a cookie jar does not send Secure cookies over http.
			get := func(path string, cookies ...*http.Cookie) *http.Response {
				req, _ := http.NewRequest(http.MethodGet, env.Server.URL+path, nil)
				for _, k := range cookies {
					req.AddCookie(k)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				return resp
			}
			// Secure cookies carry the __Host- prefix: only this host, Path=/,
			// no Domain, so a sibling subdomain cannot plant or shadow them.
			prefix := ""
			if secure {
				prefix = "__Host-"
			}
			resp := get("/api/csrf_token")
			var anon *http.Cookie
			for _, k := range resp.Cookies() {
				if k.Name == prefix+"members_anon" {
					anon = k
				}
			}
			var tok struct{ CsrfToken string }
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if anon == nil {
				t.Fatalf("no pre-login cookie: %s", body)
			}
			if err := json.Unmarshal(body, &tok); err != nil {
				t.Fatal(err)
			}
			req, _ := http.NewRequest(http.MethodPost, env.Server.URL+"/api/session",
				strings.NewReader(`{"email":"demo@example.com","password":"Demo1234"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Csrf-Token", tok.CsrfToken)
			req.AddCookie(&http.Cookie{Name: anon.Name, Value: anon.Value})
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusNoContent {
				t.Fatalf("login = %d", resp.StatusCode)
			}
			var sess *http.Cookie
			for _, k := range resp.Cookies() {
				if k.Name == prefix+"members_session" {
					sess = k
				}
			}
			for _, k := range []*http.Cookie{anon, sess} {
				if k == nil {
					t.Fatalf("secure=%v: cookie missing", secure)
				}
				if !k.HttpOnly || k.SameSite != http.SameSiteLaxMode || k.Secure != secure || k.Path != "/" {
					t.Errorf("secure=%v: cookie %s: HttpOnly %v SameSite %v Secure %v Path %q",
						secure, k.Name, k.HttpOnly, k.SameSite, k.Secure, k.Path)
				}
			}
			if sess.MaxAge <= 0 || time.Duration(sess.MaxAge)*time.Second > auth.AbsoluteLifetime {
				t.Errorf("session cookie Max-Age %d", sess.MaxAge)
			}
			if hsts := resp.Header.Get("Strict-Transport-Security"); (hsts != "") != secure {
				t.Errorf("secure=%v: HSTS %q", secure, hsts)
			}
			check := get("/api/session", &http.Cookie{Name: sess.Name, Value: sess.Value})
			check.Body.Close()
			if check.StatusCode != http.StatusNoContent {
				t.Errorf("secure=%v: session check = %d", secure, check.StatusCode)
			}
		}
	})
}

func TestRevisionAndSecurityHeaders(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Client(t)
		c.NoContract = true // includes deliberately odd calls
		for _, tt := range []struct {
			method, path string
			status       int
		}{
			{http.MethodGet, "/api/session", http.StatusForbidden},
			{http.MethodGet, "/api/masters/languages", http.StatusOK},
			{http.MethodGet, "/api/masters/airports", http.StatusForbidden},
			{http.MethodGet, "/api/nope", http.StatusNotFound},
			{http.MethodPut, "/api/session", http.StatusMethodNotAllowed},
			{http.MethodPost, "/api/session", http.StatusBadRequest},
			{http.MethodGet, "/", http.StatusOK},
			{http.MethodGet, "/login?lang=jp", http.StatusOK},
			{http.MethodGet, "/bookings/ABC123", http.StatusOK},
			{http.MethodPost, "/", http.StatusMethodNotAllowed},
		} {
			r := c.Do(tt.method, tt.path, []byte("{"))
			if tt.method == http.MethodGet {
				r = c.Get(tt.path)
			}
			if r.Status != tt.status {
				t.Errorf("%s %s = %d, want %d", tt.method, tt.path, r.Status, tt.status)
			}
			if r.Header.Get("X-Revision") != "test-rev" {
				t.Errorf("%s %s: X-Revision %q", tt.method, tt.path, r.Header.Get("X-Revision"))
			}
			for _, h := range []string{"X-Content-Type-Options", "X-Frame-Options", "Content-Security-Policy"} {
				if r.Header.Get(h) == "" {
					t.Errorf("%s %s: no %s", tt.method, tt.path, h)
				}
			}
		}
		// Non-API paths serve the app's HTML, whatever the path.
		if r := c.Get("/account/profile"); !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			t.Errorf("web app path served %q", r.Header.Get("Content-Type"))
		}
		// Logged-in responses carry it too.
		if r := env.Member(t).Get("/api/session"); r.Header.Get("X-Revision") != "test-rev" {
			t.Errorf("204 without X-Revision")
		}
	})
}

func TestBadRequestBodies(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Client(t)
		big := append([]byte(`{"name":"E","message":"`), bytes.Repeat([]byte("x"), 1<<20+10)...)
		big = append(big, `"}`...)
		for _, path := range []string{"/api/session", "/api/exception_notify"} {
			for _, tt := range []struct {
				name string
				body []byte
				ct   string
			}{
				{"malformed", []byte(`{"email":`), ""},
				{"not JSON", []byte(`email=a&password=b`), ""},
				{"unknown field", []byte(`{"email":"a@example.com","password":"x","admin":true}`), ""},
				{"trailing data", []byte(`{"email":"a@example.com","password":"x"} {}`), ""},
				{"array", []byte(`[]`), ""},
				{"wrong types", []byte(`{"email":1,"password":true}`), ""},
				{"empty", []byte(``), ""},
				{"over 1 MiB", big, ""},
				{"form content type", []byte(`{"email":"a","password":"b"}`), "application/x-www-form-urlencoded"},
			} {
				var hdr []string
				if tt.ct != "" {
					hdr = []string{"Content-Type", tt.ct}
				}
				r := c.Do(http.MethodPost, path, tt.body, hdr...)
				if r.Status < 400 || r.Status >= 500 {
					t.Errorf("%s %s = %d %s, want 4xx", path, tt.name, r.Status, r.Body)
					continue
				}
				// A message, or field errors naming the unknown or mistyped field.
				body := r.Map(t)
				m, _ := body["message"].(string)
				fields, _ := body["validationErrors"].(map[string]any)
				if m == "" && len(fields) == 0 {
					t.Errorf("%s %s: no message: %s", path, tt.name, r.Body)
				}
			}
		}
		if n, _ := store.NewReports(env.App.DB).CountReports(context.Background()); n != 0 {
			t.Errorf("bad bodies stored %d reports", n)
		}
	})
}
