package main

import (
	"strings"
	"testing"
)

func TestLoopbackAsLocalhost(t *testing.T) {
	tests := []struct{ in, want string }{
		{"http://127.0.0.1:8080", "http://localhost:8080"},
		{"http://[::1]:9000/", "http://localhost:9000/"},
		{"http://127.0.0.1", "http://localhost"},
		{"https://members.example.com", "https://members.example.com"},
		{"http://192.168.1.5:8080", "http://192.168.1.5:8080"},
	}
	for _, tt := range tests {
		if got := loopbackAsLocalhost(tt.in); got != tt.want {
			t.Errorf("loopbackAsLocalhost(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDemoBannerEndsWithAddressAndLogins(t *testing.T) {
	for _, quiet := range []bool{true, false} {
		lines := strings.Split(strings.TrimRight(demoBanner("http://localhost:8080", quiet), "\n"), "\n")
		n := len(lines)
		if n < 2 || lines[n-2] != "  Open http://localhost:8080 in your browser." || !strings.Contains(lines[n-1], "demo@example.com / Demo1234") {
			t.Fatalf("quiet %v: the banner does not end with the address and the logins:\n%s", quiet, strings.Join(lines, "\n"))
		}
	}
}
