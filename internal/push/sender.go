package push

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"members/internal/i18n"
	"members/internal/retry"
)

// Delivery is one push owed: to a device, for one change of a flight.
type Delivery struct {
	Subscription Subscription
	Flight, Date string
	Sequence     int
	Notice       Notice
	// Attempts made so far; Lang is the member's mail language.
	Attempts int
	Lang     string
}

// Queue is the pushes owed, in the database (written with the flight
// change, internal/store).
type Queue interface {
	// Claim returns up to limit pending pushes due at now, each with its
	// device and the member's mail language, and leases them until
	// leaseUntil: another sender does not take them meanwhile.
	Claim(ctx context.Context, now, leaseUntil time.Time, limit int) ([]Delivery, error)
	// MarkSent records a push the push service accepted (and the device's
	// last push).
	MarkSent(ctx context.Context, d Delivery, at time.Time) error
	// MarkAttempt records a failed attempt: the attempts so far, failed
	// when given up, else when the next one is due.
	MarkAttempt(ctx context.Context, d Delivery, attempts int, failed bool, next time.Time, lastErr string) error
	// Expire deletes a subscription the push service no longer knows (it
	// answered 404 or 410), with what was owed to it.
	Expire(ctx context.Context, subscriptionID string) error
	// PurgeDone deletes the pushes sent or given up before before.
	PurgeDone(ctx context.Context, before time.Time) (int64, error)
}

// Options are a push's headers: how long the push service may hold it
// for an offline device (TTL), how urgent it is, and its Topic.
type Options struct {
	TTL     time.Duration
	Urgency string
	Topic   string
}

// Response is the push service's answer.
type Response struct {
	Status     int
	RetryAfter time.Duration
}

// Transport sends one encrypted push (WebPush in production).
type Transport interface {
	Send(ctx context.Context, sub Subscription, payload []byte, o Options) (Response, error)
}

// Retry policy: backoff from firstBackoff doubling up to maxBackoff,
// MaxAttempts in all (about half an hour), and each claimed push leased
// for lease.
const (
	MaxAttempts  = 8
	firstBackoff = 15 * time.Second
	maxBackoff   = 10 * time.Minute
	lease        = time.Minute
	sendTimeout  = 15 * time.Second
	// Retention of pushes sent or given up.
	retention  = 7 * 24 * time.Hour
	purgeEvery = time.Hour
	// The longest a push service holds a push for an offline device; a
	// flight's change is of no use after it has left anyway.
	maxTTL = 24 * time.Hour
	minTTL = time.Minute
)

// Backoff is the wait after the given number of failed attempts.
func Backoff(attempts int) time.Duration {
	return retry.Doubling(firstBackoff, maxBackoff, attempts)
}

// Sender delivers the pushes owed (a background job; safe on several
// instances at once: each push is leased by one).
type Sender struct {
	queue     Queue
	transport Transport
	cat       *i18n.Catalog
	publicURL string
	now       func() time.Time
	logger    *slog.Logger
	nextPurge time.Time
}

// NewSender returns the sender; links in the pushes start with publicURL.
func NewSender(q Queue, tr Transport, cat *i18n.Catalog, publicURL string, now func() time.Time, logger *slog.Logger) *Sender {
	return &Sender{queue: q, transport: tr, cat: cat, publicURL: publicURL, now: now, logger: logger}
}

// Options of a notice's push at now: held by the push service until the
// flight leaves (at most a day, at least a minute), urgent ("high": it
// wakes a phone on a low battery) when the flight leaves within a day.
func options(n Notice, now time.Time) Options {
	ttl := n.departure().Sub(now)
	urgency := "high"
	if ttl > maxTTL {
		urgency = "normal"
	}
	return Options{TTL: min(max(ttl, minTTL), maxTTL), Urgency: urgency, Topic: n.Topic()}
}

// SendDue makes one pass over the due pushes and returns how many the
// push services accepted.
func (s *Sender) SendDue(ctx context.Context) (int, error) {
	now := s.now()
	if now.After(s.nextPurge) {
		s.nextPurge = now.Add(purgeEvery)
		if n, err := s.queue.PurgeDone(ctx, now.Add(-retention)); err != nil {
			s.logger.Warn("push: purge", "err", err)
		} else if n > 0 {
			s.logger.Info("push: purged pushes past their retention", "count", n)
		}
	}
	due, err := s.queue.Claim(ctx, now, now.Add(lease), 50)
	if err != nil {
		return 0, fmt.Errorf("push: claim: %w", err)
	}
	sent := 0
	for _, d := range due {
		ok, err := s.deliver(ctx, d)
		if err != nil {
			return sent, err
		}
		if ok {
			sent++
		}
	}
	return sent, nil
}

// deliver sends one push and records what came of it.
func (s *Sender) deliver(ctx context.Context, d Delivery) (bool, error) {
	now := s.now()
	if !d.Notice.departure().After(now) && !d.Notice.cancelled() {
		// the flight has left: the change is history, not an alert
		return false, s.queue.MarkAttempt(ctx, d, d.Attempts, true, now, "the flight left before the push went")
	}
	lang, ok := i18n.Parse(d.Lang)
	if !ok {
		lang = i18n.Default
	}
	payload, err := json.Marshal(Compose(s.cat, lang, d.Notice, s.publicURL, now))
	if err != nil {
		return false, fmt.Errorf("push: payload: %w", err)
	}
	sctx, cancel := context.WithTimeout(ctx, sendTimeout)
	res, err := s.transport.Send(sctx, d.Subscription, payload, options(d.Notice, now))
	cancel()
	if err != nil && contextDone(ctx, err) {
		return false, nil // shutting down: the lease runs out and another pass sends it
	}
	done := s.now()
	switch {
	case err == nil && res.Status >= 200 && res.Status < 300:
		if err := s.queue.MarkSent(ctx, d, done); err != nil {
			return false, fmt.Errorf("push: mark sent: %w", err)
		}
		return true, nil
	case err == nil && (res.Status == http.StatusNotFound || res.Status == http.StatusGone):
		// the device unsubscribed, or the browser's data was cleared
		s.logger.Info("push: subscription gone at the push service, deleted", "subscription", d.Subscription.ID, "status", res.Status)
		if err := s.queue.Expire(ctx, d.Subscription.ID); err != nil {
			return false, fmt.Errorf("push: expire: %w", err)
		}
		return false, nil
	}
	reason, retry := "", true
	if err != nil {
		reason = err.Error()
	} else {
		reason = fmt.Sprintf("push service answered %d", res.Status)
		// a refusal the push service will repeat (a bad request, our VAPID
		// signature, a payload too large); 429 and 5xx pass
		retry = res.Status == http.StatusTooManyRequests || res.Status >= 500
	}
	attempts := d.Attempts + 1
	next := done.Add(max(Backoff(attempts), res.RetryAfter))
	failed := !retry || attempts >= MaxAttempts
	if err := s.queue.MarkAttempt(ctx, d, attempts, failed, next, reason); err != nil {
		return false, fmt.Errorf("push: record attempt: %w", err)
	}
	if failed {
		s.logger.Error("push: given up", "subscription", d.Subscription.ID, "flight", d.Flight, "date", d.Date,
			"sequence", d.Sequence, "attempts", attempts, "err", reason)
	} else {
		s.logger.Warn("push: delivery failed", "subscription", d.Subscription.ID, "attempts", attempts, "err", reason)
	}
	return false, nil
}

// Run sends the due pushes every interval until ctx ends.
func (s *Sender) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := s.SendDue(ctx); err != nil && ctx.Err() == nil {
			s.logger.Warn("push: sender", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
