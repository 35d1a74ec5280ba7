package push

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// The browsers' push services: an endpoint is taken only at one of these
// hosts, over https on the default port, so that no member can make the
// server call another address (SSRF). Google's (Chrome, Edge on Android,
// Samsung Internet), Mozilla's (Firefox), Apple's (Safari, iOS home-screen
// apps) and Microsoft's Windows Push Notification Services (Edge on
// Windows).
var (
	pushHosts = []string{
		"fcm.googleapis.com",
		"android.googleapis.com",
		"updates.push.services.mozilla.com",
	}
	// a host one label below these (web.push.apple.com,
	// wns2-par02p.notify.windows.com)
	pushHostSuffixes = []string{
		".push.apple.com",
		".notify.windows.com",
	}
)

// ErrEndpointRefused: not an address of a browser's push service.
var ErrEndpointRefused = errors.New("push: endpoint is not a browser's push service")

// Endpoints decides which endpoints the server calls: the browsers' push
// services, and in tests a stand-in on loopback.
type Endpoints struct {
	// test is the stand-in's base URL (scheme, host and port, and a path
	// prefix), nil in production.
	test *url.URL
}

// NewEndpoints admits the browsers' push services and, when testService
// is not empty, a stand-in push service at that URL, which must be on a
// loopback address (serve --test-push-service).
func NewEndpoints(testService string) (*Endpoints, error) {
	e := &Endpoints{}
	if testService == "" {
		return e, nil
	}
	u, err := url.Parse(testService)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return nil, fmt.Errorf("test push service %q: not an http(s) URL", testService)
	}
	if !IsLoopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("test push service %q: not a loopback address", testService)
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/"
	u.RawQuery, u.Fragment = "", ""
	e.test = u
	return e, nil
}

// IsLoopbackHost reports localhost or a loopback IP address.
func IsLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// Allowed returns nil for an endpoint the server may call.
func (e *Endpoints) Allowed(endpoint string) error {
	u, err := url.Parse(endpoint)
	if err != nil || u.User != nil || u.Fragment != "" || u.Host == "" || u.Opaque != "" {
		return ErrEndpointRefused
	}
	if e.test != nil && u.Scheme == e.test.Scheme && u.Host == e.test.Host && strings.HasPrefix(u.Path, e.test.Path) {
		return nil
	}
	if u.Scheme != "https" || u.Port() != "" && u.Port() != "443" {
		return ErrEndpointRefused
	}
	host := strings.ToLower(u.Hostname())
	if host != u.Hostname() {
		return ErrEndpointRefused // the browsers write hosts in lower case
	}
	for _, h := range pushHosts {
		if host == h {
			return nil
		}
	}
	for _, s := range pushHostSuffixes {
		if label, ok := strings.CutSuffix(host, s); ok && label != "" && !strings.Contains(label, ".") && validLabel(label) {
			return nil
		}
	}
	return ErrEndpointRefused
}

func validLabel(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return len(s) <= 63
}

// Client is the HTTP client of the pushes: no redirect is followed (a
// push service answers, it does not send elsewhere), each call bounded by
// timeout, and the connection refused unless it goes to a public address
// (or the test stand-in's loopback address): a push service's name that
// resolved to a private network would not be called either.
func (e *Endpoints) Client(timeout time.Duration) *http.Client {
	var testAddr string
	if e.test != nil {
		testAddr = e.test.Host
		if e.test.Port() == "" {
			testAddr = net.JoinHostPort(e.test.Hostname(), map[string]string{"http": "80", "https": "443"}[e.test.Scheme])
		}
	}
	dialer := &net.Dialer{Timeout: 10 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
		return dialAllowed(address, testAddr)
	}}
	tr := &http.Transport{
		DialContext:         dialer.DialContext,
		ForceAttemptHTTP2:   true,
		MaxIdleConns:        20,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
		Proxy:               nil, // never through a proxy of the environment: the push services are called directly
	}
	return &http.Client{Timeout: timeout, Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
}

// dialAllowed refuses an address that is not public, unless it is the
// test stand-in's (whose name, localhost, resolves to a loopback address).
func dialAllowed(address, testAddr string) error {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("push: dial %s: not an IP address", address)
	}
	if testAddr != "" {
		th, tp, _ := net.SplitHostPort(testAddr)
		if tp == port && (th == host || th == "localhost" && ip.IsLoopback()) {
			return nil
		}
	}
	ip = ip.Unmap()
	if !ip.IsGlobalUnicast() || ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() || cgnat.Contains(ip) {
		return fmt.Errorf("push: dial %s: not a public address", address)
	}
	return nil
}

// cgnat is the shared address space of carrier-grade NAT (RFC 6598),
// which netip does not count as private.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// contextDone reports an error that came from ctx ending.
func contextDone(ctx context.Context, err error) bool {
	return ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded))
}
