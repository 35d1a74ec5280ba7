package apitest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"sync"
	"time"
)

// Remote is a member's browser reaching a server in another process: the
// real binary, or nginx in front of two of them. It keeps cookies, sends
// X-Lang en and, before a non-GET call, the CSRF token of its cookies
// (fetched once and again when the server refuses it: after a login, a
// logout or a restart). A call that cannot connect answers status 0 rather
// than failing the test, as the crash and failover tests kill servers.
type Remote struct {
	HTTP *http.Client
	// Header is sent with every call (X-Forwarded-For as a proxy would set it).
	Header http.Header

	mu   sync.Mutex // guards csrf: the race tests share a client
	csrf string
}

// NewRemote returns a client with an empty cookie jar and a 30 s timeout.
func NewRemote() *Remote {
	jar, _ := cookiejar.New(nil)
	return &Remote{HTTP: &http.Client{Jar: jar, Timeout: 30 * time.Second}, Header: http.Header{}}
}

// Do sends one call to url with body as JSON (none when nil) and decodes a
// JSON object answer (nil otherwise).
func (r *Remote) Do(method, url string, body any) (int, map[string]any) {
	var raw []byte
	if body != nil {
		raw, _ = json.Marshal(body)
	}
	code, out := r.send(method, url, raw)
	if code == http.StatusForbidden && out["errorKey"] == "csrf_token_mismatch" {
		r.mu.Lock()
		r.csrf = ""
		r.mu.Unlock()
		code, out = r.send(method, url, raw)
	}
	return code, out
}

func (r *Remote) send(method, url string, raw []byte) (int, map[string]any) {
	var rd io.Reader
	if raw != nil {
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return 0, nil
	}
	req.Header = r.Header.Clone()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Lang", "en")
	if method != http.MethodGet {
		req.Header.Set("X-Csrf-Token", r.csrfToken(req.URL.Scheme+"://"+req.URL.Host))
	}
	res, err := r.HTTP.Do(req)
	if err != nil {
		return 0, nil
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

// csrfToken is the token of the client's cookies, fetched from base once.
func (r *Remote) csrfToken(base string) string {
	r.mu.Lock()
	tok := r.csrf
	r.mu.Unlock()
	if tok != "" {
		return tok
	}
	_, out := r.send(http.MethodGet, base+"/api/csrf_token", nil)
	tok, _ = out["csrfToken"].(string)
	r.mu.Lock()
	r.csrf = tok
	r.mu.Unlock()
	return tok
}
