package push

import (
	"errors"
	"testing"
)

func TestEndpointsOnlyThePushServices(t *testing.T) {
	prod, err := NewEndpoints("")
	if err != nil {
		t.Fatal(err)
	}
	test, err := NewEndpoints("http://127.0.0.1:4567/push/")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		endpoint     string
		prod, inTest bool
	}{
		{"https://fcm.googleapis.com/fcm/send/dGVzdA:APA91b", true, true},
		{"https://android.googleapis.com/gcm/send/abc", true, true},
		{"https://updates.push.services.mozilla.com/wpush/v2/gAAAA", true, true},
		{"https://web.push.apple.com/QGm2k7", true, true},
		{"https://wns2-par02p.notify.windows.com/w/?token=BQYAAA", true, true},
		{"https://fcm.googleapis.com:443/fcm/send/x", true, true},
		// not https, another port, user info, a fragment
		{"http://fcm.googleapis.com/fcm/send/x", false, false},
		{"https://fcm.googleapis.com:8443/fcm/send/x", false, false},
		{"https://user:pw@fcm.googleapis.com/fcm/send/x", false, false},
		{"https://fcm.googleapis.com/fcm/send/x#frag", false, false},
		// look-alike hosts
		{"https://fcm.googleapis.com.evil.example/x", false, false},
		{"https://evilfcm.googleapis.com/x", false, false},
		{"https://a.b.push.apple.com/x", false, false},
		{"https://push.apple.com/x", false, false},
		{"https://.notify.windows.com/x", false, false},
		{"https://FCM.googleapis.com/x", false, false},
		{"https://x_y.notify.windows.com/x", false, false},
		// addresses of the server's own networks
		{"https://127.0.0.1/push/x", false, false},
		{"https://169.254.169.254/latest/meta-data", false, false},
		{"https://10.0.0.1/x", false, false},
		{"https://[::1]/x", false, false},
		{"https://localhost/x", false, false},
		{"file:///etc/passwd", false, false},
		{"", false, false},
		{"fcm.googleapis.com/fcm/send/x", false, false},
		// the stand-in: its scheme, host, port and path only
		{"http://127.0.0.1:4567/push/abc", false, true},
		{"http://127.0.0.1:4567/other/abc", false, false},
		{"http://127.0.0.1:4568/push/abc", false, false},
		{"http://localhost:4567/push/abc", false, false},
	} {
		if got := prod.Allowed(tc.endpoint) == nil; got != tc.prod {
			t.Errorf("production: %q allowed %v, want %v", tc.endpoint, got, tc.prod)
		}
		if got := test.Allowed(tc.endpoint) == nil; got != tc.inTest {
			t.Errorf("with the stand-in: %q allowed %v, want %v", tc.endpoint, got, tc.inTest)
		}
	}
	if err := prod.Allowed("https://example.com/"); !errors.Is(err, ErrEndpointRefused) {
		t.Errorf("refusal %v", err)
	}
}

func TestTestPushServiceIsLoopbackOnly(t *testing.T) {
	for _, u := range []string{"http://10.0.0.5:80/push/", "http://push.example.com/", "ftp://127.0.0.1/", "127.0.0.1:80"} {
		if _, err := NewEndpoints(u); err == nil {
			t.Errorf("%q admitted as a test push service", u)
		}
	}
	for _, u := range []string{"http://127.0.0.1:9/push/", "http://localhost:9/", "http://[::1]:9/p"} {
		if _, err := NewEndpoints(u); err != nil {
			t.Errorf("%q: %v", u, err)
		}
	}
}

// The client dials only public addresses: a push service's name that
// resolves into the server's networks is not called either.
func TestDialOnlyPublicAddresses(t *testing.T) {
	for _, tc := range []struct {
		addr, test string
		ok         bool
	}{
		{"142.250.185.74:443", "", true},
		{"[2a00:1450:4001:82f::200a]:443", "", true},
		{"127.0.0.1:443", "", false},
		{"10.1.2.3:443", "", false},
		{"192.168.1.1:443", "", false},
		{"172.16.0.1:443", "", false},
		{"169.254.169.254:80", "", false},
		{"100.64.0.1:443", "", false},
		{"[::1]:443", "", false},
		{"[fe80::1]:443", "", false},
		{"[fd00::1]:443", "", false},
		{"[::ffff:127.0.0.1]:443", "", false},
		{"0.0.0.0:443", "", false},
		{"127.0.0.1:4567", "127.0.0.1:4567", true},
		{"127.0.0.1:4568", "127.0.0.1:4567", false},
		{"127.0.0.1:4567", "localhost:4567", true},
		{"10.0.0.1:4567", "localhost:4567", false},
	} {
		if err := dialAllowed(tc.addr, tc.test); (err == nil) != tc.ok {
			t.Errorf("dial %s (stand-in %q): %v, want allowed %v", tc.addr, tc.test, err, tc.ok)
		}
	}
}
