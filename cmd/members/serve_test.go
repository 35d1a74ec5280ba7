package main

import (
	"context"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
)

// A demo run ends its output with the address and the demo logins, once the
// server answers, and keeps the request log quiet unless asked.
func TestServeDemoBannerAndQuietRequests(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		quiet bool
	}{
		{"demo default", nil, true},
		{"demo asked to log", []string{"--log-requests", "on"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			out, errb := &apitest.LogBuffer{}, &apitest.LogBuffer{}
			dsn := "sqlite:" + filepath.Join(t.TempDir(), "m.db")
			args := append([]string{"serve", "--demo", "--addr", "127.0.0.1:0", "--db", dsn}, tc.args...)
			done := make(chan error, 1)
			go func() { done <- run(ctx, args, out, errb) }()
			defer func() {
				cancel()
				if err := <-done; err != nil {
					t.Error(err)
				}
			}()
			re := regexp.MustCompile(`Open (http://\S+) in your browser`)
			var url string
			for deadline := time.Now().Add(30 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
				if m := re.FindStringSubmatch(out.String()); m != nil && strings.Contains(out.String(), "Demo logins") {
					url = m[1]
				}
			}
			if url == "" {
				t.Fatalf("no banner: %s", out.String())
			}
			text := strings.TrimSpace(out.String())
			if !strings.Contains(text, "demo@example.com / Demo1234") || !strings.HasSuffix(text, "demo2@example.com / Demo1234") {
				t.Errorf("the banner is not last:\n%s", text)
			}
			res, err := http.Get(url + "/api/session")
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			time.Sleep(50 * time.Millisecond)
			logged := strings.Contains(errb.String(), `"msg":"request"`)
			if logged == tc.quiet {
				t.Errorf("request logged = %v, want %v:\n%s", logged, !tc.quiet, errb.String())
			}
		})
	}
	if _, err := quietRequests("maybe", true); err == nil {
		t.Error("--log-requests maybe accepted")
	}
	if q, _ := quietRequests("", false); q {
		t.Error("requests are logged by default without --demo")
	}
}
