package httpapi_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/httpapi"
	"members/internal/store"
)

// errorLines are the log lines at ERROR.
func errorLines(log string) []string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, `"level":"ERROR"`) {
			out = append(out, l)
		}
	}
	return out
}

// The catalogued 500 answers with an errorKey (a wrong exchange password,
// a used code) are answers to what the member did: logged at INFO, never
// at ERROR. A real fault behind the same page (the store failing) still
// writes its ERROR line, so alerting on ERROR means something.
func TestKnownAnswersAreNotLoggedAsFaults(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		c := env.Member(t)
		post := func(path string, body map[string]any, key string) {
			t.Helper()
			r := c.Do(http.MethodPost, "/api/peachpoints/exchange/"+path, body)
			if key == "" && r.Status != http.StatusOK {
				t.Fatalf("%s = %d %s", path, r.Status, r.Body)
			}
			if key != "" && (r.Status != http.StatusInternalServerError || r.Map(t)["errorKey"] != key) {
				t.Fatalf("%s = %d %s, want 500 %s", path, r.Status, r.Body, key)
			}
		}
		code := map[string]any{"code": demo.DemoCodeOther, "password": demo.DemoCodePassword}
		post("validate", map[string]any{"code": demo.DemoCodeOther, "password": "wrong"}, "peachpoint_exchange_mismatch_error")
		post("exchange", code, "")
		post("exchange", code, "peachpoint_exchange_error")
		if lines := errorLines(env.Log.String()); len(lines) > 0 {
			t.Errorf("catalogued answers logged at ERROR:\n%s", strings.Join(lines, "\n"))
		}
		if n := strings.Count(env.Log.String(), `"error_key":"peachpoint_exchange_`); n != 2 {
			t.Errorf("%d INFO lines name the answered key, want 2", n)
		}

		if _, err := env.App.DB.ExecContext(context.Background(), `ALTER TABLE point_exchange_codes RENAME TO point_exchange_codes_gone`); err != nil {
			t.Fatal(err)
		}
		post("validate", code, "peachpoint_exchange_unknown_error")
		if lines := errorLines(env.Log.String()); len(lines) != 1 || !strings.Contains(lines[0], "internal error") {
			t.Errorf("a store failure wrote %d ERROR lines, want 1:\n%s", len(lines), strings.Join(lines, "\n"))
		}
	})
}

// A request whose client went away (its context canceled) is no fault of
// the server: logged at INFO as "client gone", no answer (499 in the
// request log), no ERROR line.
func TestClientGoneIsNotAnError(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, store.SQLite)
	a := env.App
	secret, err := a.Secret(t.Context(), "csrf")
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	h := httpapi.New(httpapi.Deps{
		Logger: a.Logger, Catalog: a.Catalog, Auth: a.Auth, Platform: a.Platform, Countries: a.Countries,
		Revision: "rev-x", CSRFSecret: secret, WebApp: fstest.MapFS{}, Now: a.DB.Now,
		AnonymousPaths: []string{"GET /api/test/slow", "GET /api/test/canceled"},
		Features: []func(*httpapi.Server, *http.ServeMux){func(s *httpapi.Server, mux *http.ServeMux) {
			mux.HandleFunc("GET /api/test/slow", func(w http.ResponseWriter, r *http.Request) {
				close(started)
				<-r.Context().Done() // a query waiting until the client leaves
				s.WriteError(w, r, fmt.Errorf("count reservations: %w", r.Context().Err()))
			})
			// a cancellation that is not the client's: a fault
			mux.HandleFunc("GET /api/test/canceled", func(w http.ResponseWriter, r *http.Request) {
				s.WriteError(w, r, fmt.Errorf("job: %w", context.Canceled))
			})
		}},
	})
	srv := httptest.NewServer(h)
	defer srv.Close()

	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/test/slow", nil)
	go func() { <-started; cancel() }()
	if _, err := http.DefaultClient.Do(req); !errors.Is(err, context.Canceled) {
		t.Fatalf("the client's call ended with %v", err)
	}
	// the request's log line comes once the handler returned
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(env.Log.String(), `"status":499`) {
		if time.Now().After(deadline) {
			t.Fatalf("no request line with 499:\n%s", env.Log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(env.Log.String(), `"level":"INFO","msg":"client gone"`) {
		t.Errorf("no INFO line for the client gone:\n%s", env.Log.String())
	}
	if lines := errorLines(env.Log.String()); len(lines) > 0 {
		t.Errorf("a client that left was logged at ERROR:\n%s", strings.Join(lines, "\n"))
	}

	resp, err := http.Get(srv.URL + "/api/test/canceled")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusInternalServerError || len(errorLines(env.Log.String())) != 1 {
		t.Errorf("a cancellation of the server's own = %d with ERROR lines %q", resp.StatusCode, errorLines(env.Log.String()))
	}
}
