package httpapi_test

import (
	"io"
	"net/http"
	"testing"

	"members/internal/apitest"
	"members/internal/store"
)

// BenchmarkSessionCheck measures GET /api/session with a live session on
// SQLite through the whole server (loopback HTTP). `make bench` reports
// the same against a bare handler (cmd/benchreport).
func BenchmarkSessionCheck(b *testing.B) {
	env := apitest.New(b, store.SQLite)
	c := env.Member(b)
	cookie := &http.Cookie{Name: "members_session", Value: c.Cookie("members_session")}
	client := env.Server.Client()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest(http.MethodGet, env.Server.URL+"/api/session", nil)
			req.AddCookie(cookie)
			resp, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusNoContent {
				b.Fatalf("status %d", resp.StatusCode)
			}
		}
	})
}
