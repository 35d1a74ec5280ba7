// Package httpapi is the HTTP adapter: middleware (request id and logs,
// revision, language, origin checks, CSRF, sessions), the handlers of the
// generated API interfaces, and the embedded web app on every other path.
// Handlers decode, call one domain service method and encode.
package httpapi

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"members/internal/api/platformapi"
	"members/internal/auth"
	"members/internal/i18n"
	"members/internal/masters"
	"members/internal/platform"
)

// Deps are what the server needs; cmd/members wires them.
type Deps struct {
	Logger    *slog.Logger
	Catalog   *i18n.Catalog
	Auth      *auth.Service
	Platform  *platform.Service
	Countries *masters.Countries
	// Revision is the build revision, sent in X-Revision on every response.
	Revision string
	// CSRFSecret keys the CSRF token HMAC; shared by every instance.
	CSRFSecret []byte
	// WebApp is the built single-page app (index.html at its root).
	WebApp fs.FS
	// SecureCookies forces the Secure flag (behind a TLS-terminating proxy).
	SecureCookies bool
	// ConnectOrigins are outside origins the web app calls (an outside
	// payment gateway's tokenisation), added to the CSP's connect-src.
	ConnectOrigins []string
	// ScriptOrigins and FrameOrigins are outside origins of scripts and
	// frames the web app loads (Stripe.js in Stripe mode), added to the
	// CSP's script-src and frame-src.
	ScriptOrigins []string
	FrameOrigins  []string
	// TrustedProxies are the peers whose X-Forwarded-For / Forwarded
	// headers name the client (empty: the TCP peer is the client).
	TrustedProxies []netip.Prefix
	Now            func() time.Time
	// Features mount the API of feature packages on the mux (account,
	// bookings…), each with the shared helpers of Server.
	Features []func(s *Server, mux *http.ServeMux)
	// AnonymousPaths are extra API paths callable without a session
	// ("METHOD /path"), registered by features (password reset).
	AnonymousPaths []string
	// RootMounts mount handlers outside /api, without the session and CSRF
	// chain (the sandbox payment gateway at /gateway/, signed webhooks).
	// They still get the request log, headers and recovery.
	RootMounts []func(root *http.ServeMux)
	// ServerRootMounts mount handlers outside /api that read the caller's
	// cookies and session through the Server (the OpenID Connect
	// provider's endpoints).
	ServerRootMounts []func(s *Server, root *http.ServeMux)
	// Observe, when set, is told of every answered request: the route
	// pattern that served it ("" when none), method, status and duration
	// (the metrics).
	Observe func(route, method string, code int, d time.Duration)
	// Unavailable, when set, names what a handler's error says cannot
	// answer just now ("database": unreachable or out of space; "payment
	// gateway": unreachable), or "" when the error is none of these: such
	// an error is answered 503 with Retry-After (a moment's wait, then the
	// same request again), not 500.
	Unavailable func(err error) string
}

// Server holds the dependencies of the handlers.
type Server struct {
	Deps
	anonymous map[string]bool
	cspCache  cspCache
}

// Cookie names.
const (
	SessionCookie = "members_session"
	AnonCookie    = "members_anon"
)

// AnonymousAPI are the platform calls that work without a session (features
// add theirs through Deps.AnonymousPaths).
var AnonymousAPI = []string{
	"GET /api/session", "POST /api/session", "GET /api/session/info", "GET /api/csrf_token",
	"GET /api/masters/languages", "GET /api/masters/currencies",
	"GET /api/cookie_consent", "GET /api/topic_banner",
	"GET /api/gogo_pass_status", "GET /api/coupon_ticket_status",
	"GET /api_ext/origin_access_request", "POST /api/exception_notify",
}

// New returns the whole HTTP handler.
func New(d Deps) http.Handler {
	s := &Server{Deps: d, anonymous: map[string]bool{}}
	for _, p := range append(append([]string{}, AnonymousAPI...), d.AnonymousPaths...) {
		s.anonymous[p] = true
	}
	api := http.NewServeMux()
	platformapi.HandlerWithOptions(&platformHandlers{s}, platformapi.StdHTTPServerOptions{
		BaseRouter: api, ErrorHandlerFunc: s.paramError,
	})
	for _, mount := range d.Features {
		mount(s, api)
	}
	apiHandler := s.jsonMuxErrors(api, s.withSession(s.withCSRF(api)))

	root := http.NewServeMux()
	root.Handle("/api/", apiHandler)
	root.Handle("/api_ext/", apiHandler)
	root.Handle("/", s.webApp())
	for _, mount := range d.RootMounts {
		mount(root)
	}
	for _, mount := range d.ServerRootMounts {
		mount(s, root)
	}

	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.writeMessage(w, r, http.StatusForbidden, "error.csrf")
	}))
	h := s.withRecover(s.withRequestLog(s.withHeaders(cop.Handler(root))))
	if d.Observe != nil {
		h = s.withObserve(root, api, h)
	}
	return withQuietErrors(h)
}

// withObserve tells Deps.Observe of each answer with the pattern that
// served it: the API's own pattern under /api/, the root's elsewhere. A
// pattern, not the path, keeps the metrics' label values few.
func (s *Server) withObserve(root, api *http.ServeMux, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		_, route := root.Handler(r)
		if route == "/api/" || route == "/api_ext/" {
			_, route = api.Handler(r)
		}
		code := sw.status
		if code == 0 {
			code = http.StatusOK
		}
		s.Observe(route, r.Method, code, time.Since(start))
	})
}

// jsonMuxErrors answers unknown API paths and wrong methods with JSON
// instead of the mux's plain text (before any session check: an unknown
// path is a 404 for everybody), and passes the rest to next.
func (s *Server) jsonMuxErrors(mux *http.ServeMux, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" {
			next.ServeHTTP(w, r)
			return
		}
		probe := &statusProbe{header: http.Header{}}
		h.ServeHTTP(probe, r)
		if allow := probe.header.Get("Allow"); allow != "" {
			w.Header().Set("Allow", allow)
		}
		if probe.status == http.StatusMethodNotAllowed {
			s.writeMessage(w, r, http.StatusMethodNotAllowed, "error.method_not_allowed")
			return
		}
		s.writeMessage(w, r, http.StatusNotFound, "error.not_found")
	})
}

// statusProbe is the ResponseWriter jsonMuxErrors hands the mux's own
// not-found or method-not-allowed handler: it keeps the status and the
// headers (the Allow list) and drops the plain-text body, so the answer can
// be written again as JSON.
type statusProbe struct {
	header http.Header
	status int
}

func (p *statusProbe) Header() http.Header { return p.header }

func (p *statusProbe) WriteHeader(status int) {
	if p.status == 0 {
		p.status = status
	}
}

func (p *statusProbe) Write(b []byte) (int, error) {
	p.WriteHeader(http.StatusOK)
	return len(b), nil
}

// csrfToken is the token bound to a cookie value.
func (s *Server) csrfToken(cookieValue string) string {
	m := hmac.New(sha256.New, s.CSRFSecret)
	m.Write([]byte("csrf:" + cookieValue))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// isAnonymous reports whether the request may run without a session.
func (s *Server) isAnonymous(r *http.Request) bool {
	return s.anonymous[r.Method+" "+r.URL.Path]
}

// secure reports whether cookies get the Secure flag.
func (s *Server) secure(r *http.Request) bool {
	return s.SecureCookies || r.TLS != nil
}

// cookieName is the name of a cookie on the wire: with the __Host- prefix
// when cookies are Secure, so the browser accepts it only from this host,
// with Path=/ and no Domain (a sibling subdomain cannot plant or shadow it).
func (s *Server) cookieName(r *http.Request, name string) string {
	if s.secure(r) {
		return "__Host-" + name
	}
	return name
}

// setCookie sets (or with maxAge < 0 clears) one of the server's cookies.
// An earlier Set-Cookie of the same cookie in this response is replaced,
// so clearing a dead session and opening a new one send one header.
func (s *Server) setCookie(w http.ResponseWriter, r *http.Request, name, value string, maxAge int) {
	// #nosec G124 -- Secure whenever the site is on TLS (direct or --secure-cookies); plain-http development needs it off
	c := &http.Cookie{
		Name: s.cookieName(r, name), Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secure(r),
	}
	h := w.Header()
	kept := h.Values("Set-Cookie")[:0:0]
	for _, v := range h.Values("Set-Cookie") {
		if !strings.HasPrefix(v, c.Name+"=") {
			kept = append(kept, v)
		}
	}
	h.Del("Set-Cookie")
	for _, v := range kept {
		h.Add("Set-Cookie", v)
	}
	http.SetCookie(w, c)
}

// clientAddr is the caller's address: the TCP peer, or, when the peer is a
// trusted proxy (Deps.TrustedProxies), the nearest address in
// X-Forwarded-For (else Forwarded) that is not itself a trusted proxy.
// Headers from any other peer are ignored: a client cannot choose the
// address its throttles count against.
func (s *Server) clientAddr(r *http.Request) string {
	peer := peerAddr(r.RemoteAddr)
	if !s.trusted(peer) {
		return peer.String()
	}
	hops := forwardedFor(r.Header)
	for i := len(hops) - 1; i >= 0; i-- {
		if !s.trusted(hops[i]) {
			return hops[i].String()
		}
	}
	return peer.String()
}
