package httpapi

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"time"
)

// cspCache holds the Content-Security-Policy built from the operator's
// settings, rebuilt at most every cspTTL (a settings change reaches every
// instance within that time, without a database read per request).
type cspCache struct {
	mu      sync.Mutex
	policy  string
	builtAt time.Time
}

const cspTTL = 10 * time.Second

// csp returns the policy: scripts and connections from this site, the
// configured cookie-consent script and analytics tag origins, and the
// outside payment gateway (Deps.ConnectOrigins), nothing else. Images may
// come from any https origin (topic banners are hosted elsewhere); they
// cannot run code.
func (s *Server) csp(ctx context.Context) string {
	s.cspCache.mu.Lock()
	defer s.cspCache.mu.Unlock()
	if s.cspCache.policy != "" && time.Since(s.cspCache.builtAt) < cspTTL {
		return s.cspCache.policy
	}
	var scripts []string
	if s.Platform != nil {
		if c, err := s.Platform.CookieConsent(ctx); err == nil {
			for _, u := range []string{c.ConsentScriptURL, c.AnalyticsTagURL} {
				if o := origin(u); o != "" {
					scripts = append(scripts, o)
				}
			}
		} else if s.cspCache.policy != "" {
			return s.cspCache.policy // keep the last good one while the database is away
		}
	}
	connect := append(append([]string{}, scripts...), s.ConnectOrigins...)
	scripts = append(scripts, s.ScriptOrigins...)
	frames := ""
	if len(s.FrameOrigins) > 0 {
		frames = "frame-src " + sources(s.FrameOrigins) + "; "
	}
	s.cspCache.policy = "default-src 'self'; script-src " + sources(scripts) + "; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: https:; connect-src " + sources(connect) + "; " + frames + "object-src 'none'; " +
		"frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
	s.cspCache.builtAt = time.Now()
	return s.cspCache.policy
}

func sources(origins []string) string {
	seen := map[string]bool{}
	out := []string{"'self'"}
	for _, o := range origins {
		if !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	return strings.Join(out, " ")
}

// origin is the scheme://host[:port] of an absolute http(s) URL ("" for
// anything else, so a malformed setting never widens the policy).
func origin(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") ||
		strings.ContainsAny(u.Host, " ;'\"*,") {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// Origin is origin for the wiring (the outside gateway's URL).
func Origin(raw string) string { return origin(raw) }
