package gateway

import (
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// tokenLimiter limits browser tokenisation per client address: the
// endpoint takes no key and is open to every origin, so without a limit it
// lets a bot test stolen card numbers (Luhn, brand, the card's answer) as
// fast as it can send them. Each address gets a token bucket
// (golang.org/x/time/rate): a burst for a page that tokenises a few cards,
// then a steady rate. Kept in memory per instance: a sandbox limit, not a
// shared one (the members server's own limits live in its database).
type tokenLimiter struct {
	mu      sync.Mutex
	every   time.Duration
	burst   int
	now     func() time.Time
	clients map[string]*clientLimit
}

type clientLimit struct {
	lim  *rate.Limiter
	seen time.Time
}

// maxTrackedClients bounds the map; idle addresses are dropped first.
const maxTrackedClients = 10000

func newTokenLimiter(every time.Duration, burst int, now func() time.Time) *tokenLimiter {
	return &tokenLimiter{every: every, burst: burst, now: now, clients: map[string]*clientLimit{}}
}

// allow reports whether addr may tokenise now, and if not, how long to wait.
func (l *tokenLimiter) allow(addr string) (bool, time.Duration) {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	c, ok := l.clients[addr]
	if !ok {
		if len(l.clients) >= maxTrackedClients {
			l.sweep(now)
		}
		c = &clientLimit{lim: rate.NewLimiter(rate.Every(l.every), l.burst)}
		l.clients[addr] = c
	}
	c.seen = now
	r := c.lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// sweep drops addresses whose bucket has refilled (idle long enough), or
// all of them if that frees nothing.
func (l *tokenLimiter) sweep(now time.Time) {
	full := l.every * time.Duration(l.burst)
	for a, c := range l.clients {
		if now.Sub(c.seen) > full {
			delete(l.clients, a)
		}
	}
	if len(l.clients) >= maxTrackedClients {
		clear(l.clients)
	}
}

// limitTokenize answers 429 with Retry-After when the client's address is
// over its tokenisation rate.
func (g *Gateway) limitTokenize(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var host string
		if g.opt.ClientAddr != nil {
			host = g.opt.ClientAddr(r)
		} else if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
			host = h
		} else {
			host = r.RemoteAddr
		}
		if ok, wait := g.tokenLimit.allow(host); !ok {
			cors(w)
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
			writeError(w, http.StatusTooManyRequests, "rate_limited", "too many cards tokenised from this address; retry later")
			return
		}
		next(w, r)
	}
}
