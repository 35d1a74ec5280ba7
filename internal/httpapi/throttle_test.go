package httpapi_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/auth"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/httpapi"
	"members/internal/store"
)

// parallel sends the same call n times at once and counts the answers by
// status. The CSRF token is fetched once, before.
func parallel(t *testing.T, c *apitest.Client, n int, method, path string, body any, header ...string) map[int]int {
	t.Helper()
	token := c.CSRFToken()
	c.NoCSRF = true
	defer func() { c.NoCSRF = false }()
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		counts = map[int]int{}
	)
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r := c.Do(method, path, body, append([]string{"X-Csrf-Token", token}, header...)...)
			mu.Lock()
			counts[r.Status]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	return counts
}

// wantCounts fails unless exactly allowed calls got status and the rest 429.
func wantCounts(t *testing.T, what string, counts map[int]int, status, allowed, n int) {
	t.Helper()
	if counts[status] != allowed || counts[http.StatusTooManyRequests] != n-allowed {
		t.Errorf("%s: %d parallel attempts answered %v, want %d × %d and the rest 429", what, n, counts, allowed, status)
	}
}

const attempts = 50

// every throttle reserves the attempt before the check, so
// parallel attempts cannot pass the limit.
func TestThrottlesHoldInParallel(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)

		t.Run("login", func(t *testing.T) {
			c := env.Client(t)
			counts := parallel(t, c, attempts, http.MethodPost, "/api/session",
				map[string]string{"email": apitest.Demo2Email, "password": "Wrong1234"})
			wantCounts(t, "wrong passwords", counts, http.StatusUnauthorized, auth.MaxFailsPerAccount, attempts)
			if r := c.Do(http.MethodPost, "/api/session", map[string]string{"email": apitest.Demo2Email, "password": apitest.DemoPassword}); r.Status != http.StatusTooManyRequests {
				t.Errorf("right password after the burst = %d, want 429", r.Status)
			}
		})

		t.Run("current password of a password change", func(t *testing.T) {
			c := env.Member(t)
			counts := parallel(t, c, attempts, http.MethodPut, "/api/user/password",
				map[string]string{"passwordOld": "Wrong1234", "passwordNew": "Newpass12", "passwordReenter": "Newpass12"})
			wantCounts(t, "wrong current passwords", counts, http.StatusBadRequest, 5, attempts)
			if r := c.Do(http.MethodPut, "/api/user/password", map[string]string{
				"passwordOld": apitest.DemoPassword, "passwordNew": "Newpass12", "passwordReenter": "Newpass12"}); r.Status != http.StatusTooManyRequests {
				t.Errorf("right password after the burst = %d, want 429", r.Status)
			}
		})

		t.Run("reset requests", func(t *testing.T) {
			c := env.Client(t)
			counts := parallel(t, c, attempts, http.MethodPost, "/api/user/reset_password", map[string]string{"email": "someone@example.com"})
			wantCounts(t, "reset requests", counts, http.StatusNoContent, 5, attempts)
		})

		t.Run("add a booking by booking number and last name", func(t *testing.T) {
			c := env.Member(t)
			counts := parallel(t, c, attempts, http.MethodPost, "/api/reservations", map[string]string{"pnr": demo.AddablePNR1, "lastname": "Guess"})
			wantCounts(t, "wrong last names", counts, http.StatusNotFound, booking.MaxAddFailsPerMember, attempts)
			if r := c.Do(http.MethodPost, "/api/reservations", map[string]string{"pnr": demo.AddablePNR1, "lastname": "Yamada"}); r.Status != http.StatusTooManyRequests {
				t.Errorf("right name after the burst = %d, want 429 (nothing claimed)", r.Status)
			}
			var owner string
			if err := env.App.DB.QueryRow(`SELECT COALESCE(member_id, '') FROM reservations WHERE pnr = $1`, demo.AddablePNR1).Scan(&owner); err != nil || owner != "" {
				t.Errorf("booking claimed during the burst: %q %v", owner, err)
			}
		})

		t.Run("itinerary mail", func(t *testing.T) {
			c := env.Member(t)
			before := countMail(t, env)
			counts := parallel(t, c, attempts, http.MethodPost, "/api/reservations/"+demo.DemoPNRFuture+"/sendmail", nil)
			wantCounts(t, "itinerary mails", counts, http.StatusOK, booking.MaxMailsPerMember, attempts)
			if sent := countMail(t, env) - before; sent != booking.MaxMailsPerMember {
				t.Errorf("%d mails queued, want %d", sent, booking.MaxMailsPerMember)
			}
		})
	})
}

// A right password forgets the typos made from the same address, and
// successful logins never count: a member who logs in often, or mistypes
// now and then, is never throttled.
func TestSuccessfulLoginsDoNotCount(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		for i := 0; i < auth.MaxFailsPerAddr+3; i++ {
			env.Member(t)
		}
		for round := 0; round < 3; round++ {
			c := env.Client(t)
			for i := 0; i < auth.MaxFailsPerAccount-1; i++ {
				if r := c.Do(http.MethodPost, "/api/session", map[string]string{"email": apitest.DemoEmail, "password": "Wrong1234"}); r.Status != http.StatusUnauthorized {
					t.Fatalf("round %d typo %d = %d", round, i, r.Status)
				}
			}
			c.Login(apitest.DemoEmail, apitest.DemoPassword)
		}
	})
}

// Behind a trusted proxy the client address comes from X-Forwarded-For, so
// a stranger's failures lock out the stranger's address, not the owner;
// only a distributed attack reaches the per-account ceiling. From an
// untrusted peer the header is ignored.
func TestLoginThrottleBehindProxy(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		proxies, err := httpapi.ParseTrustedProxies("127.0.0.1/32,::1/128")
		if err != nil {
			t.Fatal(err)
		}
		env := apitest.New(t, engine, func(c *app.Config) { c.TrustedProxies = proxies })
		bad := map[string]string{"email": apitest.DemoEmail, "password": "Wrong1234"}
		good := map[string]string{"email": apitest.DemoEmail, "password": apitest.DemoPassword}
		from := func(addr string) []string { return []string{"X-Forwarded-For", "6.6.6.6, " + addr} }

		stranger := env.Client(t)
		counts := parallel(t, stranger, attempts, http.MethodPost, "/api/session", bad, from("203.0.113.7")...)
		wantCounts(t, "stranger's guesses", counts, http.StatusUnauthorized, auth.MaxFailsPerAccount, attempts)
		if r := stranger.Do(http.MethodPost, "/api/session", good, from("203.0.113.7")...); r.Status != http.StatusTooManyRequests {
			t.Errorf("stranger's address with the right password = %d, want 429", r.Status)
		}
		owner := env.Client(t)
		if r := owner.Do(http.MethodPost, "/api/session", good, from("198.51.100.20")...); r.Status != http.StatusNoContent {
			t.Fatalf("the owner from another address = %d %s, want 204", r.Status, r.Body)
		}

		// A distributed attack: many addresses, a few guesses each, until the
		// per-account ceiling; then the account is throttled everywhere.
		fails := auth.MaxFailsPerAccount // the stranger's
		for i := 0; fails < auth.MaxFailsPerAccountCeiling; i++ {
			c := env.Client(t)
			for j := 0; j < auth.MaxFailsPerAccount && fails < auth.MaxFailsPerAccountCeiling; j++ {
				if r := c.Do(http.MethodPost, "/api/session", bad, from(fmt.Sprintf("203.0.114.%d", i))...); r.Status != http.StatusUnauthorized {
					t.Fatalf("distributed guess %d = %d", fails, r.Status)
				}
				fails++
			}
		}
		if r := owner.Do(http.MethodPost, "/api/session", good, from("198.51.100.20")...); r.Status != http.StatusTooManyRequests {
			t.Errorf("past the per-account ceiling = %d, want 429", r.Status)
		}
		if r := env.Client(t).Do(http.MethodPost, "/api/session",
			map[string]string{"email": apitest.Demo2Email, "password": apitest.DemoPassword}, from("198.51.100.20")...); r.Status != http.StatusNoContent {
			t.Errorf("another account from the owner's address = %d", r.Status)
		}
	})
}

// Without --trusted-proxies, X-Forwarded-For is the client's own claim and
// changes nothing: all attempts count against the TCP peer.
func TestForwardedForIgnoredFromUntrustedPeers(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, store.SQLite)
	bad := map[string]string{"email": "nobody@example.com", "password": "Wrong1234"}
	for i := 0; i < auth.MaxFailsPerAddr; i++ {
		c := env.Client(t)
		bad["email"] = fmt.Sprintf("nobody%d@example.com", i)
		if r := c.Do(http.MethodPost, "/api/session", bad, "X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i)); r.Status != http.StatusUnauthorized {
			t.Fatalf("guess %d = %d", i, r.Status)
		}
	}
	if r := env.Client(t).Do(http.MethodPost, "/api/session", map[string]string{"email": apitest.DemoEmail, "password": apitest.DemoPassword},
		"X-Forwarded-For", "198.51.100.1"); r.Status != http.StatusTooManyRequests {
		t.Errorf("a fresh X-Forwarded-For from an untrusted peer escaped the address limit: %d", r.Status)
	}
}
