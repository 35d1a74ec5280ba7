package httpapi_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/auth"
	"members/internal/booking"
	"members/internal/demo"
	"members/internal/store"
)

// deadlockTimeout bounds each call of the tests below: a request that
// waits for a connection it will never get fails the test instead of
// hanging it. It is no speed check; answers take milliseconds.
const deadlockTimeout = time.Minute

// No request path asks a pool for a second connection while it holds one
// of it: with each pool (the main one and the hot reads') bounded to one
// connection, such a path would wait for itself. The owner walks every
// operation of the API (reads with their own ids, writes with empty
// bodies), a first booking search, and a purchase settled through the
// in-process sandbox gateway (which shares the main pool) with its
// webhooks delivered; each call answers.
func TestNoRequestTakesASecondConnection(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := newPayEnv(t, engine)
		env.App.DB.LimitPools(1)
		owner := env.Member(t)
		owner.SetTimeout(deadlockTimeout)
		owner.NoContract = true

		in := searchInput(env.Clock.Now(), 1)
		if r := owner.Get("/api/reservations?" + in); r.Status != http.StatusOK {
			t.Fatalf("first search = %d %s", r.Status, r.Body)
		}
		p := buy(t, owner, cardBody(savedCard(t, owner, "visa")["token"].(string), 5000))
		if done := cont(t, owner, p.PaymentProcessID); done.Status != "settled" {
			t.Fatalf("purchase: %+v", done)
		}
		// the sandbox's webhooks, delivered to this server's handler
		dctx, cancel := context.WithTimeout(context.Background(), deadlockTimeout)
		n, err := env.App.Gateway.Sandbox.DeliverDue(dctx)
		cancel()
		if err != nil || n == 0 {
			t.Fatalf("webhook delivery: %d delivered, %v", n, err)
		}

		owned := ownedValues(t, owner)
		const fallback = "0123456789abcdef0123456789abcdef"
		ops := apitest.Operations(t)
		walked := 0
		// reads first, then writes; the calls that end the session or the
		// account last of all
		for _, pass := range []func(op apitest.Operation) bool{
			func(op apitest.Operation) bool { return op.Method == http.MethodGet },
			func(op apitest.Operation) bool {
				return op.Method != http.MethodGet && !endsSession(op)
			},
			endsSession,
		} {
			for _, op := range ops {
				if !pass(op) {
					continue
				}
				var body any
				if op.HasBody {
					body = map[string]any{}
				}
				owner.Do(op.Method, op.Fill(owned, fallback), body)
				walked++
			}
		}
		if walked != len(ops) {
			t.Fatalf("walked %d of %d operations", walked, len(ops))
		}
		if strings.Contains(env.Log.String(), "context canceled") || strings.Contains(env.Log.String(), "deadline exceeded") {
			t.Errorf("a request gave up waiting:\n%s", env.Log.String())
		}
	})
}

// endsSession: calls after which the walking member has no session.
func endsSession(op apitest.Operation) bool {
	return op.Method == http.MethodDelete && (op.Path == "/api/session" || op.Path == "/api/user")
}

// searchInput is the bookings page's search, page n.
func searchInput(now time.Time, page int) string {
	today := booking.TodayJST(now)
	return url.Values{"bookingDateFrom": {today.AddDate(-2, 0, 0).Format(booking.DateLayout)},
		"bookingDateTo": {today.Format(booking.DateLayout)}, "status": {"all"}, "order": {"asc"},
		"page": {fmt.Sprint(page)}}.Encode()
}

// Every hot read (the session check, the booking search on pages never
// asked before, a booking, the member's own data and the menu's status
// reads) by more members at once than either pool has connections, each
// a bounded number of times: every call answers, none with an error.
func TestHotReadsUnderLoad(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		env := apitest.New(t, engine)
		ctx := context.Background()
		now := env.Clock.Now()
		const members, rounds = 24, 4
		if err := demo.SeedBench(ctx, env.App.DB, "!", members, 0, members*30, now, nil); err != nil {
			t.Fatal(err)
		}
		st := store.NewAuthStore(env.App.DB)
		tokens, pnrs := make([]string, members), make([]string, members)
		for i := range members {
			b := make([]byte, 32)
			_, _ = rand.Read(b)
			tokens[i] = hex.EncodeToString(b)
			if err := st.CreateSession(ctx, auth.Session{IDHash: auth.HashToken(tokens[i]), MemberID: demo.BenchMemberID(i),
				LogID: tokens[i][:16], CreatedAt: now, LastSeenAt: now, ClientAddr: "127.0.0.1", UserAgent: "test"}); err != nil {
				t.Fatal(err)
			}
			if err := env.App.DB.QueryRowContext(ctx, `SELECT pnr FROM reservations WHERE member_id = $1 ORDER BY pnr LIMIT 1`,
				demo.BenchMemberID(i)).Scan(&pnrs[i]); err != nil {
				t.Fatal(err)
			}
		}
		client := &http.Client{Timeout: deadlockTimeout}
		get := func(token, path string) error {
			req, _ := http.NewRequest(http.MethodGet, env.Server.URL+path, nil)
			req.Header.Set("X-Lang", "en")
			req.Header.Set("X-Revision", "test-rev")
			req.AddCookie(&http.Cookie{Name: "members_session", Value: token})
			resp, err := client.Do(req)
			if err != nil {
				return fmt.Errorf("GET %s: %w", path, err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNoContent {
				return fmt.Errorf("GET %s = %d %.200s", path, resp.StatusCode, b)
			}
			return nil
		}
		start := make(chan struct{})
		errs := make(chan error, members*rounds*10)
		var wg sync.WaitGroup
		for i := range members {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				for r := range rounds {
					for _, path := range []string{
						"/api/session", "/api/session/info",
						"/api/reservations?" + searchInput(now, 1+(i+r)%3),
						"/api/reservations/" + pnrs[i],
						"/api/user", "/api/peachpoints/summary", "/api/gogo_pass_status", "/api/coupon_ticket_status",
					} {
						if err := get(tokens[i], path); err != nil {
							errs <- fmt.Errorf("member %d: %w", i, err)
							return
						}
					}
				}
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if pools := env.App.DB.Stats().MaxOpenConnections; pools >= members {
			t.Fatalf("the main pool has %d connections: no more members than connections", pools)
		}
	})
}
