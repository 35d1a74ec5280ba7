package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"members/internal/flightops"
	"members/internal/push"
)

// PushStore implements push.Store: the devices that get the flight change
// alerts and the pushes owed to them (migration 00310).
type PushStore struct{ db *DB }

// NewPushStore returns the Web Push store.
func NewPushStore(db *DB) *PushStore { return &PushStore{db: db} }

var _ push.Store = (*PushStore)(nil)

const pushSubCols = `id, member_id, endpoint, p256dh, auth, session_hash, user_agent, created_at, updated_at, last_push_at`

func scanPushSub(row interface{ Scan(...any) error }, extra ...any) (push.Subscription, error) {
	var s push.Subscription
	var created, updated, last int64
	err := row.Scan(append([]any{&s.ID, &s.MemberID, &s.Endpoint, &s.P256dh, &s.Auth, &s.SessionHash, &s.UserAgent, &created, &updated, &last}, extra...)...)
	if err != nil {
		return s, err
	}
	s.CreatedAt, s.UpdatedAt = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	if last > 0 {
		s.LastPushAt = time.UnixMilli(last).UTC()
	}
	return s, nil
}

func (s *PushStore) Save(ctx context.Context, sub push.Subscription, max int) (push.Subscription, error) {
	var out push.Subscription
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		// A device that changed hands: what it held for the other member goes.
		if _, err := tx.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE endpoint = $1 AND member_id <> $2`, sub.Endpoint, sub.MemberID); err != nil {
			return fmt.Errorf("push subscription: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO push_subscriptions (`+pushSubCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0)
			ON CONFLICT (endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth, session_hash = excluded.session_hash,
			user_agent = excluded.user_agent, updated_at = excluded.updated_at`,
			sub.ID, sub.MemberID, sub.Endpoint, sub.P256dh, sub.Auth, sub.SessionHash, sub.UserAgent,
			sub.CreatedAt.UnixMilli(), sub.UpdatedAt.UnixMilli()); err != nil {
			return fmt.Errorf("push subscription: %w", Translate(err))
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE member_id = $1 AND id NOT IN
			(SELECT id FROM push_subscriptions WHERE member_id = $1 ORDER BY updated_at DESC, id DESC LIMIT $2)`, sub.MemberID, max); err != nil {
			return fmt.Errorf("push subscriptions beyond the limit: %w", err)
		}
		var err error
		out, err = scanPushSub(tx.QueryRowContext(ctx, `SELECT `+pushSubCols+` FROM push_subscriptions WHERE endpoint = $1`, sub.Endpoint))
		if err != nil {
			return fmt.Errorf("push subscription: %w", err)
		}
		return nil
	})
	return out, err
}

func (s *PushStore) Renew(ctx context.Context, sub push.Subscription) (push.Subscription, error) {
	out, err := scanPushSub(s.db.QueryRowContext(ctx, `UPDATE push_subscriptions SET p256dh = $3, auth = $4, session_hash = $5, user_agent = $6,
		updated_at = $7 WHERE member_id = $1 AND endpoint = $2 RETURNING `+pushSubCols,
		sub.MemberID, sub.Endpoint, sub.P256dh, sub.Auth, sub.SessionHash, sub.UserAgent, sub.UpdatedAt.UnixMilli()))
	if errors.Is(Translate(err), ErrNotFound) {
		return push.Subscription{}, push.ErrNotFound
	}
	if err != nil {
		return push.Subscription{}, fmt.Errorf("renew push subscription: %w", err)
	}
	return out, nil
}

func (s *PushStore) remove(ctx context.Context, where string, args ...any) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE `+where, args...) // #nosec G202 -- where is one of the constants of the callers
	if err != nil {
		return fmt.Errorf("remove push subscription: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return push.ErrNotFound
	}
	return nil
}

func (s *PushStore) RemoveEndpoint(ctx context.Context, memberID, endpoint string) error {
	return s.remove(ctx, `member_id = $1 AND endpoint = $2`, memberID, endpoint)
}

func (s *PushStore) RemoveID(ctx context.Context, memberID, id string) error {
	return s.remove(ctx, `member_id = $1 AND id = $2`, memberID, id)
}

func (s *PushStore) List(ctx context.Context, memberID string) ([]push.Subscription, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+pushSubCols+` FROM push_subscriptions WHERE member_id = $1 ORDER BY created_at DESC, id`, memberID)
	if err != nil {
		return nil, fmt.Errorf("push subscriptions: %w", err)
	}
	defer rows.Close()
	out := []push.Subscription{}
	for rows.Next() {
		sub, err := scanPushSub(rows)
		if err != nil {
			return nil, fmt.Errorf("scan push subscription: %w", err)
		}
		out = append(out, sub)
	}
	return out, rows.Err()
}

// Statuses of a push owed (push_queue.status).
const (
	pushPending = "pending"
	pushSent    = "sent"
	pushFailed  = "failed"
)

// duePush is a due push with the next_attempt_at it was read at (its
// lease is taken only if no one moved it since).
type duePush struct {
	d    push.Delivery
	next int64
}

// due reads the due pushes and closes its rows before anything else is
// asked of the pool.
func (s *PushStore) due(ctx context.Context, now time.Time, limit int) ([]duePush, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+prefixed("s.", pushSubCols)+`, q.flight, q.flight_date, q.sequence, q.notice, q.attempts,
		q.next_attempt_at, `+mailLangOf("m")+`
		FROM push_queue q JOIN push_subscriptions s ON s.id = q.subscription_id JOIN members m ON m.id = s.member_id
		WHERE q.status = $1 AND q.next_attempt_at <= $2 ORDER BY q.next_attempt_at LIMIT $3`, pushPending, now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("due pushes: %w", err)
	}
	defer rows.Close()
	var list []duePush
	for rows.Next() {
		var x duePush
		var notice string
		sub, err := scanPushSub(rows, &x.d.Flight, &x.d.Date, &x.d.Sequence, &notice, &x.d.Attempts, &x.next, &x.d.Lang)
		if err != nil {
			return nil, fmt.Errorf("scan due push: %w", err)
		}
		x.d.Subscription = sub
		if err := json.Unmarshal([]byte(notice), &x.d.Notice); err != nil {
			return nil, fmt.Errorf("push notice: %w", err)
		}
		list = append(list, x)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("due pushes: %w", err)
	}
	return list, nil
}

func (s *PushStore) Claim(ctx context.Context, now, leaseUntil time.Time, limit int) ([]push.Delivery, error) {
	list, err := s.due(ctx, now, limit)
	if err != nil {
		return nil, err
	}
	out := make([]push.Delivery, 0, len(list))
	for _, x := range list {
		// Lease it; another instance that read it too loses here.
		res, err := s.db.ExecContext(ctx, `UPDATE push_queue SET next_attempt_at = $5
			WHERE subscription_id = $1 AND flight = $2 AND flight_date = $3 AND sequence = $4 AND status = $6 AND next_attempt_at = $7`,
			x.d.Subscription.ID, x.d.Flight, x.d.Date, x.d.Sequence, leaseUntil.UnixMilli(), pushPending, x.next)
		if err != nil {
			return nil, fmt.Errorf("lease push: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			out = append(out, x.d)
		}
	}
	return out, nil
}

const pushKey = `subscription_id = $1 AND flight = $2 AND flight_date = $3 AND sequence = $4`

func (s *PushStore) MarkSent(ctx context.Context, d push.Delivery, at time.Time) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE push_queue SET status = $5, sent_at = $6, attempts = attempts + 1, last_error = ''
			WHERE `+pushKey, d.Subscription.ID, d.Flight, d.Date, d.Sequence, pushSent, at.UnixMilli()); err != nil {
			return fmt.Errorf("push sent: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE push_subscriptions SET last_push_at = $2 WHERE id = $1`, d.Subscription.ID, at.UnixMilli()); err != nil {
			return fmt.Errorf("push sent: %w", err)
		}
		return nil
	})
}

func (s *PushStore) MarkAttempt(ctx context.Context, d push.Delivery, attempts int, failed bool, next time.Time, lastErr string) error {
	status := pushPending
	if failed {
		status = pushFailed
	}
	if len(lastErr) > 500 {
		lastErr = lastErr[:500]
	}
	if _, err := s.db.ExecContext(ctx, `UPDATE push_queue SET status = $5, attempts = $6, next_attempt_at = $7, last_error = $8 WHERE `+pushKey,
		d.Subscription.ID, d.Flight, d.Date, d.Sequence, status, attempts, next.UnixMilli(), lastErr); err != nil {
		return fmt.Errorf("push attempt: %w", err)
	}
	return nil
}

func (s *PushStore) Expire(ctx context.Context, subscriptionID string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE id = $1`, subscriptionID); err != nil {
		return fmt.Errorf("expire push subscription: %w", err)
	}
	return nil
}

func (s *PushStore) PurgeDone(ctx context.Context, before time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM push_queue WHERE status IN ($1, $2) AND created_at < $3`, pushSent, pushFailed, before.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("purge pushes: %w", err)
	}
	return res.RowsAffected()
}

// owePushes queues, inside the flight change's transaction, one push per
// device of each member owed the change's mail (oweAlerts' members: a
// live booking on the flight, not yet departed). One row per device and
// change: a second delivery of the event changes nothing.
func owePushes(ctx context.Context, tx *sql.Tx, segs []flightSegment, next flightops.State, now time.Time) error {
	type owed struct {
		terminal, gate string
		pnrs           []string
	}
	members := map[string]*owed{}
	var order []string
	for _, g := range segs {
		if g.memberID == "" || !g.live {
			continue
		}
		o := members[g.memberID]
		if o == nil {
			if !g.departAt.After(now) {
				continue
			}
			o = &owed{terminal: g.originTerminal, gate: g.gate}
			if next.Terminal != "" {
				o.terminal = next.Terminal
			}
			if next.Gate != "" {
				o.gate = next.Gate
			}
			members[g.memberID] = o
			order = append(order, g.memberID)
		}
		if !slices.Contains(o.pnrs, g.pnr) {
			o.pnrs = append(o.pnrs, g.pnr)
		}
	}
	for _, id := range order {
		o := members[id]
		slices.Sort(o.pnrs)
		notice, err := json.Marshal(push.NoticeOf(next, o.terminal, o.gate, o.pnrs))
		if err != nil {
			return fmt.Errorf("push notice: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO push_queue (subscription_id, flight, flight_date, sequence, member_id, notice, status, next_attempt_at, created_at)
			SELECT id, $2, $3, $4, $1, $5, $6, $7, $7 FROM push_subscriptions WHERE member_id = $1
			ON CONFLICT (subscription_id, flight, flight_date, sequence) DO NOTHING`,
			id, next.Flight, next.Date, next.Sequence, string(notice), pushPending, now.UnixMilli()); err != nil {
			return fmt.Errorf("owe pushes: %w", err)
		}
	}
	return nil
}

// The deliberate endings of sessions remove the alerts of the devices
// they end, in the same transaction (a shared computer never receives the
// previous member's flights): a logout its own device's, a sign-out from
// the security centre the signed-out devices', a password change or
// reset and the account's deletion every device's.
const (
	pushOfSession       = `DELETE FROM push_subscriptions WHERE session_hash = $1`
	pushOfMember        = `DELETE FROM push_subscriptions WHERE member_id = $1`
	pushOfMemberSession = `DELETE FROM push_subscriptions WHERE member_id = $1 AND session_hash = $2`
	pushOfOthers        = `DELETE FROM push_subscriptions WHERE member_id = $1 AND session_hash <> $2`
)

// removePushes runs one of the statements above inside tx.
func removePushes(ctx context.Context, tx *sql.Tx, stmt string, args ...any) error {
	if _, err := tx.ExecContext(ctx, stmt, args...); err != nil {
		return fmt.Errorf("remove the devices' push subscriptions: %w", err)
	}
	return nil
}

// prefixed writes each column of a comma list with a table alias.
func prefixed(alias, cols string) string {
	var out []byte
	start := true
	for i := 0; i < len(cols); i++ {
		c := cols[i]
		if start && c != ' ' {
			out = append(out, alias...)
			start = false
		}
		out = append(out, c)
		if c == ',' {
			start = true
		}
	}
	return string(out)
}
