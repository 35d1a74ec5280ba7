package httpapi

import (
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

func TestClientAddr(t *testing.T) {
	t.Parallel()
	proxies, err := ParseTrustedProxies(" 10.0.0.0/8, 192.0.2.1 ,2001:db8::/32")
	if err != nil {
		t.Fatal(err)
	}
	trusting := &Server{Deps: Deps{TrustedProxies: proxies}}
	plain := &Server{}
	for _, tt := range []struct {
		name      string
		s         *Server
		peer      string
		xff, fwd  string
		want      string
		wantPlain string
	}{
		{"no proxy", trusting, "198.51.100.7:5555", "", "", "198.51.100.7", "198.51.100.7"},
		{"untrusted peer's header ignored", trusting, "198.51.100.7:5555", "1.2.3.4", "", "198.51.100.7", ""},
		{"trusted peer", trusting, "10.1.2.3:443", "203.0.113.9", "", "203.0.113.9", "10.1.2.3"},
		{"spoofed left entries skipped", trusting, "10.1.2.3:443", "6.6.6.6, 203.0.113.9", "", "203.0.113.9", ""},
		{"chain of trusted proxies", trusting, "192.0.2.1:443", "203.0.113.9, 10.9.9.9", "", "203.0.113.9", ""},
		{"Forwarded when no X-Forwarded-For", trusting, "10.1.2.3:443", "", `for="[2001:db9::1]:4711";proto=https, for=10.2.2.2`, "2001:db9::1", ""},
		{"garbage hop: nearest readable untrusted", trusting, "10.1.2.3:443", "203.0.113.9, unknown", "", "10.1.2.3", ""},
		{"IPv6 peer", trusting, "[2001:db8::5]:443", "203.0.113.10", "", "203.0.113.10", ""},
		{"all hops trusted", trusting, "10.1.2.3:443", "10.4.4.4", "", "10.1.2.3", ""},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tt.peer
		if tt.xff != "" {
			r.Header.Set("X-Forwarded-For", tt.xff)
		}
		if tt.fwd != "" {
			r.Header.Set("Forwarded", tt.fwd)
		}
		if got := tt.s.clientAddr(r); got != tt.want {
			t.Errorf("%s: clientAddr = %q, want %q", tt.name, got, tt.want)
		}
		if got, want := plain.clientAddr(r), peerAddr(tt.peer).String(); got != want {
			t.Errorf("%s: without trusted proxies = %q, want the peer %q", tt.name, got, want)
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "example.com", "1.2.3"} {
		if _, err := ParseTrustedProxies(bad); err == nil {
			t.Errorf("ParseTrustedProxies(%q) accepted", bad)
		}
	}
}

func TestRedactPath(t *testing.T) {
	t.Parallel()
	token := "WbBOv_2g61nvxdCBr33_UGK-x8fQtcYcmHN12bAr28A"
	for in, want := range map[string]string{
		"/reset-password/" + token:                              "/reset-password/[redacted]",
		"/reset-password/invalid":                               "/reset-password/invalid",
		"/email-change/confirm/" + token:                        "/email-change/[redacted]",
		"/api/reservations/HNK7Q2/receipt":                      "/api/reservations/HNK7Q2/receipt",
		"/api/user/passengers/0123456789abcdef0123456789abcdef": "/api/user/passengers/0123456789abcdef0123456789abcdef",
		"/x/" + token + "/y":                                    "/x/[redacted]/y",
	} {
		if got := redactPath(in); got != want {
			t.Errorf("redactPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// Forwarding headers and paths of any shape: no panic, the client address
// is always a parsable address, and no long segment survives redaction.
func FuzzClientAddrAndRedact(f *testing.F) {
	proxies, _ := ParseTrustedProxies("10.0.0.0/8")
	s := &Server{Deps: Deps{TrustedProxies: proxies}}
	f.Add("10.1.2.3:443", "203.0.113.9, 10.9.9.9", `for="[2001:db8::1]:80"`, "/reset-password/abc")
	f.Add("[::1]:1", "unknown", "for=_hidden", "/x/"+strings.Repeat("a", 50))
	f.Fuzz(func(t *testing.T, peer, xff, fwd, path string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = peer
		r.Header.Set("X-Forwarded-For", xff)
		r.Header.Set("Forwarded", fwd)
		if a := s.clientAddr(r); a != "invalid IP" {
			if _, err := netip.ParseAddr(a); err != nil {
				t.Fatalf("clientAddr = %q", a)
			}
		}
		for _, seg := range strings.Split(redactPath(path), "/") {
			if len(seg) >= tokenLike {
				t.Fatalf("redactPath(%q) kept %q", path, seg)
			}
		}
	})
}
