package urlquery

import "testing"

func TestWith(t *testing.T) {
	for _, c := range []struct{ raw, want string }{
		{"https://shop.example/back", "https://shop.example/back?k=v+1"},
		{"https://shop.example/back?a=1&k=old", "https://shop.example/back?a=1&k=v+1"},
		{"/relative#frag", "/relative?k=v+1#frag"},
		{"", "?k=v+1"},
		{"http://bad host/%zz", "http://bad host/%zz"},
	} {
		if got := With(c.raw, "k", "v 1"); got != c.want {
			t.Errorf("With(%q) = %q, want %q", c.raw, got, c.want)
		}
	}
}
