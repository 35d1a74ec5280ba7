package httpapi

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// ParseTrustedProxies parses "CIDR,CIDR,…" (a bare address means one
// host), as given to --trusted-proxies.
func ParseTrustedProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: not an address or CIDR", f)
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

func (s *Server) trusted(a netip.Addr) bool {
	if !a.IsValid() {
		return false
	}
	for _, p := range s.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// peerAddr parses a RemoteAddr ("ip:port", "[v6]:port").
func peerAddr(remote string) netip.Addr {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, _ := netip.ParseAddr(strings.Trim(host, "[]"))
	return a.Unmap()
}

// forwardedFor returns the hop addresses a proxy chain recorded, nearest
// last: X-Forwarded-For when present, else the for= of Forwarded (RFC
// 7239). Unparsable entries (obfuscated ids, "unknown") end the list at
// that point, since nothing before them can be trusted.
func forwardedFor(h http.Header) []netip.Addr {
	var raw []string
	if xff := h.Values("X-Forwarded-For"); len(xff) > 0 {
		for _, line := range xff {
			raw = append(raw, strings.Split(line, ",")...)
		}
	} else {
		for _, line := range h.Values("Forwarded") {
			for _, elem := range strings.Split(line, ",") {
				for _, pair := range strings.Split(elem, ";") {
					k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
					if ok && strings.EqualFold(k, "for") {
						raw = append(raw, v)
					}
				}
			}
		}
	}
	out := make([]netip.Addr, 0, len(raw))
	for _, v := range raw {
		a := parseHop(v)
		if !a.IsValid() {
			out = out[:0] // nothing left of an unreadable hop can be trusted
			continue
		}
		out = append(out, a)
	}
	return out
}

// parseHop reads one hop: 1.2.3.4, 1.2.3.4:5, "[2001:db8::1]:5", 2001:db8::1.
func parseHop(v string) netip.Addr {
	v = strings.Trim(strings.TrimSpace(v), `"`)
	if a, err := netip.ParseAddr(strings.Trim(v, "[]")); err == nil {
		return a.Unmap()
	}
	if ap, err := netip.ParseAddrPort(v); err == nil {
		return ap.Addr().Unmap()
	}
	return netip.Addr{}
}

// ClientAddrFunc is the caller's address as the API's throttles see it
// (the TCP peer, or what trusted proxies forwarded), for handlers mounted
// beside the API with limits of their own (the sandbox gateway's
// tokeniser).
func ClientAddrFunc(trusted []netip.Prefix) func(*http.Request) string {
	s := &Server{Deps: Deps{TrustedProxies: trusted}}
	return s.clientAddr
}
