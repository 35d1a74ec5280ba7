package httpapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"members/internal/apitest"
	"members/internal/apperr"
	"members/internal/httpapi"
	"members/internal/store"
)

// TestInternalErrorsAreGeneric mounts handlers that panic or fail with
// internal errors on the real server and checks that the answer is a
// generic, translated JSON 500 that leaks nothing.
func TestInternalErrorsAreGeneric(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, store.SQLite)
	a := env.App
	secret, err := a.Secret(t.Context(), "csrf")
	if err != nil {
		t.Fatal(err)
	}
	const leak = "pq: password=hunter2 relation secret_table"
	h := httpapi.New(httpapi.Deps{
		Logger: a.Logger, Catalog: a.Catalog, Auth: a.Auth, Platform: a.Platform, Countries: a.Countries,
		Revision: "rev-x", CSRFSecret: secret, WebApp: fstest.MapFS{}, Now: a.DB.Now,
		AnonymousPaths: []string{"GET /api/test/panic", "GET /api/test/error", "GET /api/test/keyed", "GET /api/test/wrapped"},
		Features: []func(*httpapi.Server, *http.ServeMux){func(s *httpapi.Server, mux *http.ServeMux) {
			mux.HandleFunc("GET /api/test/panic", func(http.ResponseWriter, *http.Request) { panic(leak) })
			mux.HandleFunc("GET /api/test/error", func(w http.ResponseWriter, r *http.Request) {
				s.WriteError(w, r, fmt.Errorf("query: %s", leak))
			})
			mux.HandleFunc("GET /api/test/keyed", func(w http.ResponseWriter, r *http.Request) {
				e := apperr.New(apperr.Internal, "error.system")
				e.ErrorKey = "voucher_reissue_error"
				e.Err = fmt.Errorf("%s", leak)
				s.WriteError(w, r, e)
			})
			mux.HandleFunc("GET /api/test/wrapped", func(w http.ResponseWriter, r *http.Request) {
				s.WriteError(w, r, fmt.Errorf("outer: %w", apperr.New(apperr.NotFound, "error.not_found")))
			})
		}},
	})
	srv := httptest.NewServer(h)
	defer srv.Close()

	for _, tt := range []struct {
		path, lang string
		status     int
		message    string
		errorKey   string
	}{
		{"/api/test/panic", "en", 500, "System error occurred.", ""},
		{"/api/test/panic", "jp", 500, a.Catalog.T("jp", "error.system"), ""},
		{"/api/test/error", "th", 500, a.Catalog.T("th", "error.system"), ""},
		{"/api/test/keyed", "en", 500, "System error occurred.", "voucher_reissue_error"},
		{"/api/test/wrapped", "en", 404, a.Catalog.T("en", "error.not_found"), ""},
	} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+tt.path, nil)
		req.Header.Set("X-Lang", tt.lang)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("%s = %d %s", tt.path, resp.StatusCode, body)
			continue
		}
		if strings.Contains(string(body), "hunter2") || strings.Contains(string(body), "secret_table") || strings.Contains(string(body), "goroutine") {
			t.Errorf("%s leaks internals: %s", tt.path, body)
		}
		var v struct{ Message, ErrorKey string }
		if err := json.Unmarshal(body, &v); err != nil {
			t.Errorf("%s: not JSON: %s", tt.path, body)
		}
		if v.Message != tt.message || v.ErrorKey != tt.errorKey {
			t.Errorf("%s (%s) = %+v, want %q %q", tt.path, tt.lang, v, tt.message, tt.errorKey)
		}
		if resp.Header.Get("X-Revision") != "rev-x" {
			t.Errorf("%s: X-Revision %q", tt.path, resp.Header.Get("X-Revision"))
		}
		if err := apitest.CheckContract(req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("%s: %v", tt.path, err)
		}
	}
}
