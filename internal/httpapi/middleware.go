package httpapi

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"log/slog"
	mrand "math/rand/v2"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"members/internal/apperr"
	"members/internal/auth"
	"members/internal/i18n"
)

type ctxKey int

const (
	keyRequestID ctxKey = iota
	keySession
	// keyEndedElsewhere: the caller's cookie named a session its member
	// signed out from another device
	keyEndedElsewhere
	// keySessionEnded: the caller's cookie named a session that is gone,
	// sessionExpired or sessionRevoked (GET /api/session/info says which)
	keySessionEnded
	keyLogID
)

const (
	sessionExpired = "expired"
	sessionRevoked = "revoked"
)

// Lang returns the language of the request: X-Lang, then the lang query
// parameter, then the browser's Accept-Language.
func Lang(r *http.Request) i18n.Lang {
	if l, ok := i18n.Parse(r.Header.Get("X-Lang")); ok {
		return l
	}
	if l, ok := i18n.Parse(r.URL.Query().Get("lang")); ok {
		return l
	}
	return i18n.FromBrowser(r.Header.Get("Accept-Language"))
}

// RequestID returns the id given to the request in the logs.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(keyRequestID).(string)
	return id
}

type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// withRequestLog gives each request an id and logs one line when it ends.
// Bodies and query strings are never logged (they can hold personal data),
// and the path is redacted (a reset link carries its token in the path).
func (s *Server) withRequestLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The id only has to be unique in the logs, not secret: the runtime's
		// per-thread generator spares a getrandom system call per request.
		id := strconv.FormatUint(mrand.Uint64()|1<<63, 16) // #nosec G404 -- a log correlation id, unique not secret (see above)
		logID := new(string)
		ctx := context.WithValue(context.WithValue(r.Context(), keyRequestID, id), keyLogID, logID)
		sw := &statusWriter{ResponseWriter: w}
		sw.Header().Set("X-Request-Id", id)
		start := time.Now()
		next.ServeHTTP(sw, r.WithContext(ctx))
		s.Logger.LogAttrs(ctx, slog.LevelInfo, "request",
			slog.String("request_id", id), slog.String("method", r.Method), slog.String("path", redactPath(r.URL.Path)),
			slog.Int("status", sw.status), slog.Int("bytes", sw.bytes),
			slog.Duration("duration", time.Since(start)), slog.String("session_log_id", *logID))
	})
}

// withRecover turns a panic into a logged 500 without internals.
func (s *Server) withRecover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.Logger.Error("panic", "request_id", RequestID(r.Context()), "panic", v, "stack", string(debug.Stack()))
				s.writeMessage(w, r, http.StatusInternalServerError, "error.system")
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// withHeaders sets X-Revision and the security headers on every response.
func (s *Server) withHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Revision", s.Revision)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", s.csp(r.Context()))
		if s.secure(r) {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		next.ServeHTTP(w, r)
	})
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// CSRFRefusedKey is the errorKey of a call refused for its CSRF token.
const CSRFRefusedKey = "csrf_token_mismatch"

// withCSRF refuses every non-GET call whose X-Csrf-Token is not the token
// of the caller's live session (or of the pre-login cookie). A session
// cookie that names no live session counts as absent: the token is then
// the pre-login one, the same that GET /api/csrf_token hands out.
func (s *Server) withCSRF(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if safeMethod(r.Method) {
			next.ServeHTTP(w, r)
			return
		}
		got := r.Header.Get("X-Csrf-Token")
		bound := s.csrfBinding(r)
		if bound == "" || got == "" || subtle.ConstantTimeCompare([]byte(got), []byte(s.csrfToken(bound))) != 1 {
			// The errorKey lets the page fetch a token for the cookie it now
			// holds and send the call once more (web/src/api/client.ts).
			s.WriteJSON(w, http.StatusForbidden, errorBody{Message: s.Catalog.T(Lang(r), "error.csrf"), ErrorKey: CSRFRefusedKey})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// csrfBinding is the cookie value the CSRF token of r is bound to: the live
// session's cookie, else the pre-login cookie ("" when neither).
func (s *Server) csrfBinding(r *http.Request) string {
	if _, ok := SessionFrom(r.Context()); ok {
		return s.cookie(r, SessionCookie)
	}
	return s.cookie(r, AnonCookie)
}

// withSession loads the caller's session. Calls other than the anonymous
// ones get 403 without a live session. A session cookie that names no live
// session (expired, logged out, ended by a password change or reset) is
// cleared in the browser and treated as absent from here on.
func (s *Server) withSession(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if token := s.cookie(r, SessionCookie); token != "" {
			sess, err := s.Auth.Authenticate(ctx, token)
			switch {
			case err == nil:
				ctx = context.WithValue(ctx, keySession, sess)
				if p, ok := ctx.Value(keyLogID).(*string); ok {
					*p = sess.LogID
				}
				r = r.WithContext(ctx)
			case errors.Is(err, auth.ErrEndedElsewhere), errors.Is(err, auth.ErrEnded):
				// The cookie stays until a login replaces it: every call of
				// the page load (its data asked beside the session check,
				// in any order) and the session check itself then say so,
				// and a device that keeps trips erases them (docs/offline.md).
				ctx = context.WithValue(ctx, keyEndedElsewhere, errors.Is(err, auth.ErrEndedElsewhere))
				ctx = context.WithValue(ctx, keySessionEnded, sessionRevoked)
				r = r.WithContext(ctx)
			case apperr.CodeOf(err) == apperr.Forbidden:
				// Ran out (or never was): the device keeps its trips.
				ctx = context.WithValue(ctx, keySessionEnded, sessionExpired)
				r = r.WithContext(ctx)
				s.setCookie(w, r, SessionCookie, "", -1)
			default:
				s.writeError(w, r, err)
				return
			}
		}
		if _, ok := SessionFrom(ctx); !ok && !s.isAnonymous(r) {
			s.writeNoSession(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// writeNoSession answers 403 to a call that needs a session and has
// none: with auth.EndedElsewhereKey when the member signed this device
// out from another one, else the plain "error.session".
func (s *Server) writeNoSession(w http.ResponseWriter, r *http.Request) {
	if ended, _ := r.Context().Value(keyEndedElsewhere).(bool); ended {
		s.writeError(w, r, auth.ErrEndedElsewhere)
		return
	}
	if r.Context().Value(keySessionEnded) == sessionRevoked {
		s.writeError(w, r, auth.ErrEnded)
		return
	}
	s.writeMessage(w, r, http.StatusForbidden, "error.session")
}

// cookie returns the value of the cookie name (under its prefixed name when
// cookies are secure), "" when absent.
func (s *Server) cookie(r *http.Request, name string) string {
	c, err := r.Cookie(s.cookieName(r, name))
	if err != nil {
		return ""
	}
	return c.Value
}

// anonLogID is the log id shown to a visitor without a session.
func anonLogID(anon string) string {
	sum := sha256.Sum256([]byte("log:" + anon))
	return hex.EncodeToString(sum[:8])
}

// QuietErrorsHeader is the request header with which the web app asks for
// its expected refusals (400 field errors, 404 not found) as 200 answers
// carrying the real status in StatusHeader: a browser logs every 4xx of a
// fetch in the console ("Failed to load resource"), and a member's typo or
// an unknown postal code is no error of the page. Without the header every
// caller gets the real status.
const (
	QuietErrorsHeader = "X-Quiet-Errors"
	StatusHeader      = "X-Status"
)

// quietStatuses are the answers that are expected outcomes of a member's input.
var quietStatuses = map[int]bool{http.StatusBadRequest: true, http.StatusNotFound: true}

// withQuietErrors answers an API call that sent QuietErrorsHeader and got
// a quiet status with 200 and StatusHeader. It wraps everything else, so
// the request log and the metrics keep the real status.
func withQuietErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(QuietErrorsHeader) != "1" || !strings.HasPrefix(r.URL.Path, "/api/") {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Add("Vary", QuietErrorsHeader)
		next.ServeHTTP(&quietWriter{ResponseWriter: w}, r)
	})
}

type quietWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *quietWriter) WriteHeader(code int) {
	if w.wrote {
		return
	}
	w.wrote = true
	if quietStatuses[code] {
		w.Header().Set(StatusHeader, strconv.Itoa(code))
		code = http.StatusOK
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *quietWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

func (w *quietWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
