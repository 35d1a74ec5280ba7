package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"testing/fstest"

	"members/internal/httpapi"
)

// webServer serves a built app with precompressed copies beside the files,
// as web/scripts/compress.mjs writes them.
func webServer(t *testing.T) http.Handler {
	t.Helper()
	js := []byte("console.log('app');")
	index := []byte("<!doctype html><title>members</title>")
	sw := []byte("self.addEventListener('fetch', () => {});")
	manifest := []byte(`{"name":"Peach Members","start_url":"/"}`)
	return httpapi.New(httpapi.Deps{
		Logger: slog.New(slog.DiscardHandler),
		WebApp: fstest.MapFS{
			"index.html":              {Data: index},
			"index.html.br":           {Data: brotliOf(t, index)},
			"index.html.gz":           {Data: gzipOf(t, index)},
			"assets/app-abc123.js":    {Data: js},
			"assets/app-abc123.js.br": {Data: brotliOf(t, js)},
			"assets/app-abc123.js.gz": {Data: gzipOf(t, js)},
			"assets/plain-x1.css":     {Data: []byte("body{}")},
			"sw.js":                   {Data: sw},
			"sw.js.br":                {Data: brotliOf(t, sw)},
			"sw.js.gz":                {Data: gzipOf(t, sw)},
			"manifest-th.webmanifest": {Data: manifest},
			"icons/icon-192.png":      {Data: []byte("\x89PNG")},
		},
	})
}

func get(t *testing.T, h http.Handler, path, acceptEncoding string, hdr ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func decode(t *testing.T, resp *http.Response) string {
	t.Helper()
	var r io.Reader = resp.Body
	switch resp.Header.Get("Content-Encoding") {
	case "br":
		// The server sends the build's copy as it is; the test's copies are
		// marked instead of compressed (no brotli decoder in the standard library).
		b, _ := io.ReadAll(resp.Body)
		s, ok := bytes.CutPrefix(b, []byte("brotli:"))
		if !ok {
			t.Fatalf("not the .br copy: %q", b)
		}
		return string(s)
	case "gzip":
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWebAssetsPrecompressed(t *testing.T) {
	h := webServer(t)
	for _, tc := range []struct{ accept, encoding string }{
		{"gzip, deflate, br, zstd", "br"},
		{"gzip", "gzip"},
		{"br;q=0, gzip;q=0.5", "gzip"},
		{"*", "br"},
		{"identity", ""},
		{"", ""},
		{"br;q=0, gzip;q=0", ""},
	} {
		resp := get(t, h, "/assets/app-abc123.js", tc.accept)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%q: status %d", tc.accept, resp.StatusCode)
		}
		if got := resp.Header.Get("Content-Encoding"); got != tc.encoding {
			t.Errorf("%q: Content-Encoding %q, want %q", tc.accept, got, tc.encoding)
		}
		if got := resp.Header.Get("Content-Type"); got != "text/javascript; charset=utf-8" {
			t.Errorf("%q: Content-Type %q", tc.accept, got)
		}
		if got := resp.Header.Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("%q: Vary %q", tc.accept, got)
		}
		if got := resp.Header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
			t.Errorf("%q: Cache-Control %q", tc.accept, got)
		}
		if body := decode(t, resp); body != "console.log('app');" {
			t.Errorf("%q: body %q", tc.accept, body)
		}
	}
	// A file the build did not compress is served as it is, without Vary.
	resp := get(t, h, "/assets/plain-x1.css", "br, gzip")
	if resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Vary") != "" || decode(t, resp) != "body{}" {
		t.Errorf("plain file: %v", resp.Header)
	}
}

func TestWebIndexRevalidated(t *testing.T) {
	h := webServer(t)
	for _, path := range []string{"/", "/bookings", "/index.html"} {
		resp := get(t, h, path, "br, gzip")
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "br" {
			t.Fatalf("%s: status %d encoding %q", path, resp.StatusCode, resp.Header.Get("Content-Encoding"))
		}
		if got := resp.Header.Get("Cache-Control"); got != "no-cache" {
			t.Errorf("%s: Cache-Control %q", path, got)
		}
		if resp.Header.Get("Vary") != "Accept-Encoding" || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("%s: headers %v", path, resp.Header)
		}
		if body := decode(t, resp); body != "<!doctype html><title>members</title>" {
			t.Errorf("%s: body %q", path, body)
		}
	}
	br := get(t, h, "/", "br").Header.Get("ETag")
	gz := get(t, h, "/", "gzip").Header.Get("ETag")
	plain := get(t, h, "/", "").Header.Get("ETag")
	if br == "" || br == gz || gz == plain || br == plain {
		t.Fatalf("ETags must differ per encoding: br %q gzip %q plain %q", br, gz, plain)
	}
	if resp := get(t, h, "/", "br", "If-None-Match", br); resp.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation with the current ETag: status %d, want 304", resp.StatusCode)
	}
	if resp := get(t, h, "/", "gzip", "If-None-Match", br); resp.StatusCode != http.StatusOK {
		t.Errorf("another encoding's ETag: status %d, want 200", resp.StatusCode)
	}
}

// The installable app's files: the service worker and the manifests are
// revalidated at every check (a new release's worker must be found; never
// immutable, whatever the encoding), the manifest has its media type, the
// icons keep a day.
func TestWebAppWorkerAndManifestCaching(t *testing.T) {
	h := webServer(t)
	for _, tc := range []struct{ path, accept, cache, ctype, body string }{
		{"/sw.js", "br, gzip", "no-cache", "text/javascript; charset=utf-8", "self.addEventListener('fetch', () => {});"},
		{"/sw.js", "gzip", "no-cache", "text/javascript; charset=utf-8", "self.addEventListener('fetch', () => {});"},
		{"/sw.js", "", "no-cache", "text/javascript; charset=utf-8", "self.addEventListener('fetch', () => {});"},
		{"/manifest-th.webmanifest", "br", "no-cache", "application/manifest+json", `{"name":"Peach Members","start_url":"/"}`},
		{"/icons/icon-192.png", "br", "public, max-age=86400", "image/png", "\x89PNG"},
	} {
		resp := get(t, h, tc.path, tc.accept)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s (%q): status %d", tc.path, tc.accept, resp.StatusCode)
		}
		if got := resp.Header.Get("Cache-Control"); got != tc.cache {
			t.Errorf("%s (%q): Cache-Control %q, want %q", tc.path, tc.accept, got, tc.cache)
		}
		if got := resp.Header.Get("Content-Type"); got != tc.ctype {
			t.Errorf("%s (%q): Content-Type %q, want %q", tc.path, tc.accept, got, tc.ctype)
		}
		if body := decode(t, resp); body != tc.body {
			t.Errorf("%s (%q): body %q", tc.path, tc.accept, body)
		}
	}
}

func brotliOf(_ *testing.T, b []byte) []byte {
	return append([]byte("brotli:"), b...)
}

func gzipOf(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
