package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// webApp serves the built single-page app: files as they are (hashed
// assets cached for a year), and index.html for every other path so the
// app's router decides. The build (web/scripts/compress.mjs) writes a
// brotli (.br) and a gzip (.gz) copy beside each compressible file; the
// copy the browser accepts is sent as it is, so nothing is compressed per
// request. index.html is revalidated on every visit (no-cache + ETag), so a
// new release is picked up at once while its hashed assets stay cached.
func (s *Server) webApp() http.Handler {
	index := loadIndex(s.WebApp)
	files := http.FileServerFS(s.WebApp)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name != "" && name != "index.html" {
			if st, err := fs.Stat(s.WebApp, name); err == nil && !st.IsDir() {
				w.Header().Set("Cache-Control", cacheControl(name))
				if ctype := contentType(name); ctype != "" {
					w.Header().Set("Content-Type", ctype)
				}
				if serveCompressed(w, r, s.WebApp, name) {
					return
				}
				files.ServeHTTP(w, r)
				return
			}
		}
		if name == "assets" || strings.HasPrefix(name, "assets/") {
			// A missing build file is a 404, not the app page: a stale
			// chunk must fail loudly (the app reloads), and no page is
			// served as script.
			w.Header().Set("Cache-Control", "no-cache")
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Add("Vary", "Accept-Encoding")
		v := index.pick(r.Header.Get("Accept-Encoding"))
		if v.encoding != "" {
			w.Header().Set("Content-Encoding", v.encoding)
		}
		w.Header().Set("ETag", v.etag)
		http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(v.body))
	})
}

// cacheControl is the caching of a build file. Hashed assets never change:
// a year, immutable. The service worker (sw.js) is revalidated on every
// check, never immutable: a browser must find a new release's worker at its
// next check (and browsers cap a worker's caching at 24 hours anyway). The
// manifests are revalidated too (a new name or icon reaches installed apps);
// the icons keep a day.
func cacheControl(name string) string {
	switch {
	case strings.HasPrefix(name, "assets/"):
		return "public, max-age=31536000, immutable"
	case strings.HasPrefix(name, "icons/"):
		return "public, max-age=86400"
	default: // sw.js, manifest-<lang>.webmanifest, anything else at the root
		return "no-cache"
	}
}

// contentType is a build file's media type; "" leaves it to the file server.
func contentType(name string) string {
	if path.Ext(name) == ".webmanifest" {
		return "application/manifest+json"
	}
	return mime.TypeByExtension(path.Ext(name))
}

// indexPage is index.html in each encoding the build made, each with its
// own ETag (a 304 must never hand a client the wrong encoding).
type indexPage struct{ plain, br, gz indexVariant }

type indexVariant struct {
	body     []byte
	encoding string
	etag     string
}

func loadIndex(fsys fs.FS) indexPage {
	plain, err := fs.ReadFile(fsys, "index.html")
	if err != nil {
		plain = []byte("<!doctype html><title>members</title><p>The web app is not built: run <code>make build</code>.</p>")
	}
	sum := sha256.Sum256(plain)
	tag := hex.EncodeToString(sum[:12])
	p := indexPage{plain: indexVariant{body: plain, etag: `"` + tag + `"`}}
	if b, err := fs.ReadFile(fsys, "index.html.br"); err == nil {
		p.br = indexVariant{body: b, encoding: "br", etag: `"` + tag + `-br"`}
	}
	if b, err := fs.ReadFile(fsys, "index.html.gz"); err == nil {
		p.gz = indexVariant{body: b, encoding: "gzip", etag: `"` + tag + `-gz"`}
	}
	return p
}

func (p indexPage) pick(acceptEncoding string) indexVariant {
	for _, enc := range acceptedEncodings(acceptEncoding) {
		switch {
		case enc == "br" && p.br.body != nil:
			return p.br
		case enc == "gzip" && p.gz.body != nil:
			return p.gz
		}
	}
	return p.plain
}

// precompressed are the copies the build writes, best first.
var precompressed = []struct{ encoding, suffix string }{{"br", ".br"}, {"gzip", ".gz"}}

// serveCompressed sends the precompressed copy of name that the request
// accepts, with the original's Content-Type and Vary: Accept-Encoding. It
// reports false when there is none (the caller serves the file itself).
func serveCompressed(w http.ResponseWriter, r *http.Request, fsys fs.FS, name string) bool {
	ext := path.Ext(name)
	if ext == ".br" || ext == ".gz" {
		return false
	}
	accepted := acceptedEncodings(r.Header.Get("Accept-Encoding"))
	for _, pc := range precompressed {
		f, err := fsys.Open(name + pc.suffix)
		if err != nil {
			continue
		}
		// The copy exists, so the response depends on Accept-Encoding
		// whichever copy is sent.
		w.Header().Add("Vary", "Accept-Encoding")
		if !slices.Contains(accepted, pc.encoding) {
			_ = f.Close()
			continue
		}
		defer f.Close()
		rs, ok := f.(io.ReadSeeker)
		st, err := f.Stat()
		if !ok || err != nil {
			return false
		}
		ctype := contentType(name)
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Encoding", pc.encoding)
		http.ServeContent(w, r, name, st.ModTime(), rs)
		return true
	}
	return false
}

// acceptedEncodings lists the codings of an Accept-Encoding header that
// br or gzip may be sent for (q > 0), in the server's order of preference.
func acceptedEncodings(header string) []string {
	q := map[string]float64{}
	for _, part := range strings.Split(header, ",") {
		fields := strings.Split(part, ";")
		name := strings.ToLower(strings.TrimSpace(fields[0]))
		if name == "" {
			continue
		}
		weight := 1.0
		for _, p := range fields[1:] {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					weight = f
				} else {
					weight = 0
				}
			}
		}
		q[name] = weight
	}
	var out []string
	for _, enc := range []string{"br", "gzip"} {
		w, listed := q[enc]
		if !listed {
			w, listed = q["*"]
		}
		if listed && w > 0 {
			out = append(out, enc)
		}
	}
	return out
}
