package gateway

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"members/internal/retry"
	"members/internal/signature"
)

// Event types.
const (
	EventAuthorized = "payment.authorized"
	EventCaptured   = "payment.captured"
	EventFailed     = "payment.failed"
	EventExpired    = "payment.expired"
	EventRefunded   = "payment.refunded"
)

// SignatureHeader carries "t=<unix seconds>,v1=<hex HMAC-SHA256 of t.body>".
const SignatureHeader = "Gateway-Signature"

// eventType is the event a move to status sends ("" for none).
func eventType(status string) string {
	switch status {
	case StatusAuthorized:
		return EventAuthorized
	case StatusCaptured:
		return EventCaptured
	case StatusFailed:
		return EventFailed
	case StatusExpired:
		return EventExpired
	case StatusRefunded:
		return EventRefunded
	}
	return ""
}

// Event is a webhook's body.
type Event struct {
	ID      string    `json:"id"`
	Type    string    `json:"type"`
	Created int64     `json:"created"` // unix seconds
	Data    EventData `json:"data"`
}

// EventData holds the payment as it was when the event happened.
type EventData struct {
	Payment *Payment `json:"payment"`
}

// queueEvent stores an event in the transaction of the change it tells.
func (g *Gateway) queueEvent(ctx context.Context, tx *sql.Tx, typ string, p *Payment) error {
	now := g.now()
	ev := Event{ID: "evt_" + randomHex(12), Type: typ, Created: now.Unix(), Data: EventData{Payment: p}}
	b, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("gateway: encode event: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO gw_events (id, type, payment_id, payload, created_at, attempts, next_attempt_at,
		lease_owner, lease_until, delivered_at, last_error) VALUES ($1, $2, $3, $4, $5, 0, $5, '', 0, NULL, '')`,
		ev.ID, typ, p.ID, string(b), now.UnixMilli()); err != nil {
		return fmt.Errorf("gateway: queue event: %w", err)
	}
	return nil
}

// Sign returns the Gateway-Signature value for body at time t.
func Sign(secret string, t time.Time, body []byte) string {
	return signature.Sign([]byte(secret), t, body)
}

// Signature errors.
var (
	ErrBadSignature = errors.New("webhook: bad signature")
	ErrStale        = errors.New("webhook: timestamp out of tolerance")
)

// Verify checks a Gateway-Signature header against body: the HMAC of
// "t.body" under secret (ErrBadSignature; always for an empty secret), and
// t within tolerance of now (ErrStale). Receivers (the members side,
// tests) use it.
func Verify(secret, header string, body []byte, now time.Time, tolerance time.Duration) error {
	switch err := signature.Verify([]byte(secret), header, body, now, tolerance); {
	case errors.Is(err, signature.ErrStale):
		return ErrStale
	case err != nil:
		return ErrBadSignature
	}
	return nil
}

// leaseFor is how long a worker owns the events it claimed; longer than
// the send timeout, so a live worker never loses its lease mid-send.
const leaseFor = 2 * time.Minute

type dueEvent struct {
	id      string
	payload []byte
	attempt int
}

// claim leases up to n due events for this worker and counts the attempt.
// The conditions are repeated in the UPDATE's own WHERE so that a
// concurrent worker (PostgreSQL re-checks them on the locked row; SQLite
// runs one writer at a time) cannot lease the same rows.
func (g *Gateway) claim(ctx context.Context, n int) ([]dueEvent, error) {
	now := g.nowMs()
	// Look before leasing: an idle poll then takes no write lock.
	var due int
	if err := g.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM gw_events WHERE delivered_at IS NULL
		AND next_attempt_at <= $1 AND lease_until < $1 LIMIT 1) d`, now).Scan(&due); err != nil {
		return nil, fmt.Errorf("gateway: due events: %w", err)
	}
	if due == 0 {
		return nil, nil
	}
	rows, err := g.db.QueryContext(ctx, `UPDATE gw_events SET lease_owner = $1, lease_until = $2, attempts = attempts + 1
		WHERE delivered_at IS NULL AND next_attempt_at <= $3 AND lease_until < $3
		AND id IN (SELECT id FROM gw_events WHERE delivered_at IS NULL AND next_attempt_at <= $3 AND lease_until < $3
			ORDER BY next_attempt_at LIMIT $4)
		RETURNING id, payload, attempts`, g.worker, now+leaseFor.Milliseconds(), now, n)
	if err != nil {
		return nil, fmt.Errorf("gateway: claim events: %w", err)
	}
	defer rows.Close()
	var out []dueEvent
	for rows.Next() {
		var e dueEvent
		var payload string
		if err := rows.Scan(&e.id, &payload, &e.attempt); err != nil {
			return nil, fmt.Errorf("gateway: claim events: %w", err)
		}
		e.payload = []byte(payload)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("gateway: claim events: %w", err)
	}
	return out, nil
}

// sendConcurrency is how many events one worker sends at a time.
const sendConcurrency = 4

// DeliverDue sends every due event once (one attempt each) and returns how
// many were acknowledged.
func (g *Gateway) DeliverDue(ctx context.Context) (int, error) {
	if g.opt.WebhookURL == "" {
		return 0, nil
	}
	delivered := 0
	for {
		evs, err := g.claim(ctx, 20)
		if err != nil {
			return delivered, err
		}
		if len(evs) == 0 {
			return delivered, nil
		}
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			firstErr error
			sem      = make(chan struct{}, sendConcurrency)
		)
		for _, e := range evs {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				ok, err := g.deliver(ctx, e)
				mu.Lock()
				defer mu.Unlock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if ok {
					delivered++
				}
			}()
		}
		wg.Wait()
		if firstErr != nil {
			return delivered, firstErr
		}
	}
}

// deliver sends one attempt of one leased event and records the outcome.
// The claim gave this worker the attempt number alone, so the attempt's
// row (primary key event + attempt) is written once, after the send,
// together with the event's new state.
func (g *Gateway) deliver(ctx context.Context, e dueEvent) (bool, error) {
	code, sendErr := g.send(ctx, e.payload)
	errText := ""
	if sendErr != nil {
		errText = sendErr.Error()
	} else if code < 200 || code > 299 {
		errText = "status " + strconv.Itoa(code)
	}
	now := g.nowMs()
	err := g.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO gw_deliveries (event_id, attempt, worker, status_code, error, at)
			VALUES ($1, $2, $3, $4, $5, $6)`, e.id, e.attempt, g.worker, code, errText, now); err != nil {
			return fmt.Errorf("gateway: record attempt: %w", err)
		}
		var err error
		if errText == "" {
			_, err = tx.ExecContext(ctx, `UPDATE gw_events SET delivered_at = $1, lease_owner = '', lease_until = 0, last_error = ''
				WHERE id = $2 AND lease_owner = $3`, now, e.id, g.worker)
		} else {
			_, err = tx.ExecContext(ctx, `UPDATE gw_events SET next_attempt_at = $1, lease_owner = '', lease_until = 0, last_error = $2
				WHERE id = $3 AND lease_owner = $4`, now+g.backoff(e.attempt).Milliseconds(), errText, e.id, g.worker)
		}
		if err != nil {
			return fmt.Errorf("gateway: record delivery: %w", err)
		}
		return nil
	})
	return errText == "" && err == nil, err
}

// backoff is the wait after failed attempt n (1-based): RetryBase·2^(n-1),
// at most RetryMax.
func (g *Gateway) backoff(n int) time.Duration {
	return retry.Doubling(g.opt.RetryBase, g.opt.RetryMax, n)
}

// send POSTs one signed event and returns the receiver's status.
func (g *Gateway) send(ctx context.Context, body []byte) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.opt.WebhookURL, bytes.NewReader(body))
	if err != nil {
		return 0, fmt.Errorf("webhook request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "ndhk-sandbox-gateway/1")
	req.Header.Set(SignatureHeader, Sign(g.keys.WebhookSecret, g.now(), body))
	resp, err := g.opt.Client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("webhook: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return resp.StatusCode, nil
}

// ExpireDue moves payments whose customer step is past its deadline to
// expired (with a payment.expired event) and returns how many.
func (g *Gateway) ExpireDue(ctx context.Context) (int, error) {
	rows, err := g.db.QueryContext(ctx, `SELECT id FROM gw_payments WHERE status IN ($1, $2) AND expires_at <= $3 ORDER BY expires_at LIMIT 100`,
		StatusPending, StatusRequiresAction, g.nowMs())
	if err != nil {
		return 0, fmt.Errorf("gateway: due expiries: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			_ = rows.Close()
			return 0, fmt.Errorf("gateway: due expiries: %w", err)
		}
		ids = append(ids, id)
	}
	_ = rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("gateway: due expiries: %w", err)
	}
	n := 0
	for _, id := range ids {
		err := g.tx(ctx, func(tx *sql.Tx) error {
			_, err := g.transition(ctx, tx, id, []string{StatusPending, StatusRequiresAction}, StatusExpired, "")
			return err
		})
		switch {
		case errors.Is(err, ErrState):
			// Paid or expired by another instance meanwhile.
		case err != nil:
			return n, err
		default:
			n++
		}
	}
	return n, nil
}

// Run does the gateway's background work until ctx ends: expiry of unpaid
// payments and webhook delivery, every Poll and at once after a change made
// by this instance, and the purge of old idempotency keys and delivered
// events (Purge, every PurgeEvery). Several instances may run it on one
// database.
func (g *Gateway) Run(ctx context.Context) {
	t := time.NewTicker(g.opt.Poll)
	defer t.Stop()
	var purged time.Time
	for {
		g.purgeDue(ctx, &purged)
		if _, err := g.ExpireDue(ctx); err != nil && ctx.Err() == nil {
			g.log.Warn("gateway expiry", "err", err)
		}
		if _, err := g.DeliverDue(ctx); err != nil && ctx.Err() == nil {
			g.log.Warn("gateway webhooks", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-g.wake:
		}
	}
}
