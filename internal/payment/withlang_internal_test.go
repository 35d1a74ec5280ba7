package payment

import "testing"

// The gateway's pages get the member's language in their address.
func TestWithLang(t *testing.T) {
	for _, tc := range []struct{ page, lang, want string }{
		{"https://pay.example/gateway/pay/p1", "th", "https://pay.example/gateway/pay/p1?lang=th"},
		{"https://pay.example/gateway/challenge/p1?x=1", "jp", "https://pay.example/gateway/challenge/p1?x=1&lang=jp"},
		{"https://pay.example/gateway/pay/p1", "", "https://pay.example/gateway/pay/p1"},
		{"", "en", ""},
	} {
		if got := withLang(tc.page, tc.lang); got != tc.want {
			t.Errorf("withLang(%q, %q) = %q, want %q", tc.page, tc.lang, got, tc.want)
		}
	}
}
