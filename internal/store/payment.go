package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"members/internal/payment"
)

// PaymentStore implements payment.Store: saved cards, payment processes,
// refunds and webhook events.
type PaymentStore struct {
	db *DB
	// forgetOwed: secrets were erased and SQLite's write-ahead log may
	// still hold them (ForgetSecrets empties it).
	forgetOwed atomic.Bool
}

var _ payment.Store = (*PaymentStore)(nil)

// NewPaymentStore returns the store.
func NewPaymentStore(db *DB) *PaymentStore { return &PaymentStore{db: db} }

func paymentErr(err error) error {
	err = Translate(err)
	switch {
	case errors.Is(err, ErrNotFound):
		return payment.ErrNotFound
	case errors.Is(err, ErrConflict):
		return fmt.Errorf("%w: %v", payment.ErrConflict, err)
	}
	return err
}

const cardCols = `member_id, gateway, token, brand, last4, expiration_date, holder_name, currency, created_at`

func scanCard(sc interface{ Scan(...any) error }) (payment.SavedCard, error) {
	var c payment.SavedCard
	var created int64
	err := sc.Scan(&c.MemberID, &c.Gateway, &c.Token, &c.Brand, &c.Last4, &c.ExpirationDate, &c.HolderName, &c.Currency, &created)
	c.CreatedAt = time.UnixMilli(created)
	return c, err
}

func (s *PaymentStore) Cards(ctx context.Context, memberID string) ([]payment.SavedCard, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+cardCols+` FROM saved_cards WHERE member_id = $1 ORDER BY created_at, token`, memberID)
	if err != nil {
		return nil, fmt.Errorf("cards: %w", err)
	}
	defer rows.Close()
	var out []payment.SavedCard
	for rows.Next() {
		c, err := scanCard(rows)
		if err != nil {
			return nil, fmt.Errorf("cards: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func (s *PaymentStore) Card(ctx context.Context, gateway, token string) (payment.SavedCard, error) {
	c, err := scanCard(s.db.QueryRowContext(ctx, `SELECT `+cardCols+` FROM saved_cards WHERE gateway = $1 AND token = $2`, gateway, token))
	return c, paymentErr(err)
}

func addCard(ctx context.Context, q execer, c payment.SavedCard) error {
	_, err := q.ExecContext(ctx, `INSERT INTO saved_cards (`+cardCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
		ON CONFLICT (gateway, token) DO NOTHING`,
		c.MemberID, c.Gateway, c.Token, c.Brand, c.Last4, c.ExpirationDate, c.HolderName, c.Currency, c.CreatedAt.UnixMilli())
	return paymentErr(err)
}

func (s *PaymentStore) AddCard(ctx context.Context, c payment.SavedCard) error {
	return addCard(ctx, s.db, c)
}

func (s *PaymentStore) DeleteCard(ctx context.Context, memberID, gateway, token string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM saved_cards WHERE member_id = $1 AND gateway = $2 AND token = $3`, memberID, gateway, token)
	if err != nil {
		return fmt.Errorf("delete card: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return payment.ErrNotFound
	}
	return nil
}

func (s *PaymentStore) Contact(ctx context.Context, memberID string) (string, string, string, string, error) {
	var email, first, last, lang string
	err := s.db.QueryRowContext(ctx, `SELECT email, firstname, lastname, `+chosenMailLangOf("members")+` FROM members WHERE id = $1`, memberID).
		Scan(&email, &first, &last, &lang)
	if err != nil {
		return "", "", "", "", paymentErr(err)
	}
	return email, first, last, lang, nil
}

const processCols = `id, member_id, request_id, request_hash, product_type, status, lang, amount, currency, description, details,
	payment_method, other_payment_type, card_gateway, card_token, card_brand, card_last4, card_expiration, card_holder,
	save_card, save_card_currency, gateway_payment_id, gateway_status, next_action_url, failure_code, goods, secret,
	refunded_amount, notified, next_check_at, lease_until, expires_at, created_at, updated_at, settled_at, slip,
	block_until, exclusive_key, refund_mail_owed`

func scanProcess(sc interface{ Scan(...any) error }) (payment.Process, error) {
	var (
		p                                           payment.Process
		status, details, goods, secret, slip        string
		nextCheck, lease, expires, created, updated int64
		blockUntil                                  int64
		settled                                     sql.NullInt64
	)
	err := sc.Scan(&p.ID, &p.MemberID, &p.RequestID, &p.RequestHash, &p.ProductType, &status, &p.Lang, &p.Amount, &p.Currency,
		&p.Description, &details, &p.PaymentMethod, &p.OtherPaymentType, &p.Card.Gateway, &p.Card.Token, &p.Card.Brand,
		&p.Card.Last4, &p.Card.ExpirationDate, &p.Card.HolderName, &p.SaveCard, &p.SaveCardCurrency, &p.GatewayPaymentID,
		&p.GatewayStatus, &p.NextActionURL, &p.FailureCode, &goods, &secret, &p.RefundedAmount, &p.Notified,
		&nextCheck, &lease, &expires, &created, &updated, &settled, &slip, &blockUntil, &p.ExclusiveKey, &p.RefundMailOwed)
	if err != nil {
		return p, paymentErr(err)
	}
	p.Status = payment.Status(status)
	p.Details = raw(details)
	p.Goods = raw(goods)
	p.Secret = raw(secret)
	p.Slip = raw(slip)
	p.NextCheckAt, p.LeaseUntil, p.ExpiresAt = time.UnixMilli(nextCheck), time.UnixMilli(lease), time.UnixMilli(expires)
	p.CreatedAt, p.UpdatedAt = time.UnixMilli(created), time.UnixMilli(updated)
	p.BlockUntil = time.UnixMilli(blockUntil)
	if settled.Valid {
		t := time.UnixMilli(settled.Int64)
		p.SettledAt = &t
	}
	return p, nil
}

func raw(s string) json.RawMessage {
	if s == "" {
		return nil
	}
	return json.RawMessage(s)
}

// insertProcessSQL records a new process; ON CONFLICT DO NOTHING turns a
// clash with any unique index (the member's blocking process, an open
// process of the same goods, or the same requestId) into no row instead
// of an error, which on PostgreSQL would abort the transaction around it.
const insertProcessSQL = `INSERT INTO payment_processes (id, member_id, request_id, request_hash, product_type,
	status, lang, amount, currency, description, details, payment_method, other_payment_type, card_gateway, card_token,
	card_brand, card_last4, card_expiration, card_holder, save_card, save_card_currency, next_check_at, expires_at,
	created_at, updated_at, block_until, exclusive_key)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $24,
	$25, $26)
	ON CONFLICT DO NOTHING`

func (s *PaymentStore) CreateProcess(ctx context.Context, p payment.Process) error {
	block := p.BlockUntil
	if block.IsZero() {
		block = p.ExpiresAt
	}
	insert := func(ctx context.Context, q execer) (bool, error) {
		res, err := q.ExecContext(ctx, insertProcessSQL,
			p.ID, p.MemberID, p.RequestID, p.RequestHash, p.ProductType, string(p.Status), p.Lang, p.Amount, p.Currency,
			p.Description, string(p.Details), p.PaymentMethod, p.OtherPaymentType, p.Card.Gateway, p.Card.Token, p.Card.Brand,
			p.Card.Last4, p.Card.ExpirationDate, p.Card.HolderName, p.SaveCard, p.SaveCardCurrency, p.NextCheckAt.UnixMilli(),
			p.ExpiresAt.UnixMilli(), p.CreatedAt.UnixMilli(), block.UnixMilli(), p.ExclusiveKey)
		if err != nil {
			return false, Translate(err)
		}
		n, err := res.RowsAffected()
		return n == 1, err
	}
	// Most purchases find no other open order: one statement, no
	// transaction around it.
	if ok, err := insert(ctx, s.db); err != nil || ok {
		return paymentErr(err)
	}
	// A clash, settled in one transaction with the insert: a pending
	// order whose block is over gives it up (it stays pending, payable
	// until its deadline), and a prepared order of another window is
	// replaced (one purchase at a time per member). A pending order still
	// blocking, or the same requestId, still clashes (ErrConflict); so
	// does an open order of the same goods (ErrSameGoods). Two such
	// transactions at once cannot both insert: the unique indexes decide.
	return paymentErr(s.db.Tx(ctx, func(tx *sql.Tx) error {
		now := p.CreatedAt.UnixMilli()
		if _, err := tx.ExecContext(ctx, `UPDATE payment_processes SET blocking = FALSE, updated_at = $1
			WHERE member_id = $2 AND status = 'pending' AND blocking AND block_until <= $1`, now, p.MemberID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE payment_processes SET status = 'expired', failure_code = $1, updated_at = $2
			WHERE member_id = $3 AND status = 'prepared'`, payment.FailSuperseded, now, p.MemberID); err != nil {
			return err
		}
		ok, err := insert(ctx, tx)
		if err != nil || ok {
			return err
		}
		if p.ExclusiveKey != "" {
			// which index refused it: a blocking order says more (wait
			// about 30 minutes) than the same goods do
			var blocking, same bool
			if err := tx.QueryRowContext(ctx, `SELECT
				EXISTS (SELECT 1 FROM payment_processes WHERE member_id = $1 AND status IN ('prepared', 'pending') AND blocking),
				EXISTS (SELECT 1 FROM payment_processes WHERE member_id = $1 AND status IN ('prepared', 'pending') AND exclusive_key = $2)`,
				p.MemberID, p.ExclusiveKey).Scan(&blocking, &same); err != nil {
				return err
			}
			if same && !blocking {
				return payment.ErrSameGoods
			}
		}
		return ErrConflict
	}))
}

func (s *PaymentStore) Process(ctx context.Context, id string) (payment.Process, error) {
	return scanProcess(s.db.QueryRowContext(ctx, `SELECT `+processCols+` FROM payment_processes WHERE id = $1`, id))
}

func (s *PaymentStore) ProcessByRequest(ctx context.Context, memberID, requestID string) (payment.Process, error) {
	return scanProcess(s.db.QueryRowContext(ctx, `SELECT `+processCols+` FROM payment_processes
		WHERE member_id = $1 AND request_id = $2`, memberID, requestID))
}

func (s *PaymentStore) BlockingProcess(ctx context.Context, memberID string, now time.Time) (payment.Process, error) {
	return scanProcess(s.db.QueryRowContext(ctx, `SELECT `+processCols+` FROM payment_processes
		WHERE member_id = $1 AND status IN ('prepared', 'pending') AND blocking AND block_until > $2`, memberID, now.UnixMilli()))
}

func (s *PaymentStore) PendingProcesses(ctx context.Context, memberID string) ([]payment.Process, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+processCols+` FROM payment_processes
		WHERE member_id = $1 AND status = 'pending' ORDER BY created_at, id`, memberID)
	if err != nil {
		return nil, fmt.Errorf("pending processes: %w", err)
	}
	defer func() { _ = rows.Close() }() // a read: its close has nothing to report
	var out []payment.Process
	for rows.Next() {
		p, err := scanProcess(rows)
		if err != nil {
			return nil, fmt.Errorf("pending processes: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("pending processes: %w", err)
	}
	return out, nil
}

func (s *PaymentStore) NextProcess(ctx context.Context, p payment.Process) (payment.Process, error) {
	return scanProcess(s.db.QueryRowContext(ctx, `SELECT `+processCols+` FROM payment_processes
		WHERE member_id = $1 AND created_at >= $2 AND id <> $3 ORDER BY created_at, id LIMIT 1`,
		p.MemberID, p.CreatedAt.UnixMilli(), p.ID))
}

// sets renders the changes as SET clauses starting at placeholder n.
func sets(c payment.Changes, now time.Time, n int) (string, []any) {
	parts := []string{fmt.Sprintf("updated_at = $%d", n)}
	args := []any{now.UnixMilli()}
	add := func(col string, v any) {
		n++
		parts = append(parts, fmt.Sprintf("%s = $%d", col, n))
		args = append(args, v)
	}
	if c.GatewayPaymentID != nil {
		add("gateway_payment_id", *c.GatewayPaymentID)
	}
	if c.GatewayStatus != nil {
		add("gateway_status", *c.GatewayStatus)
	}
	if c.NextActionURL != nil {
		add("next_action_url", *c.NextActionURL)
	}
	if c.FailureCode != nil {
		add("failure_code", *c.FailureCode)
	}
	if c.NextCheckAt != nil {
		add("next_check_at", c.NextCheckAt.UnixMilli())
	}
	if c.ExpiresAt != nil {
		add("expires_at", c.ExpiresAt.UnixMilli())
	}
	if c.BlockUntil != nil {
		add("block_until", c.BlockUntil.UnixMilli())
	}
	if c.Notify {
		add("notified", false)
	}
	if c.LeaseOwner != "" {
		add("lease_owner", c.LeaseOwner)
		add("lease_until", c.LeaseUntil.UnixMilli())
	} else if c.ReleaseLease {
		add("lease_owner", "")
		add("lease_until", int64(0))
	}
	return strings.Join(parts, ", "), args
}

func (s *PaymentStore) Move(ctx context.Context, id string, from, to payment.Status, c payment.Changes, now time.Time) (bool, error) {
	if !payment.CanMove(from, to) {
		return false, nil
	}
	set, args := sets(c, now, 1)
	n := len(args)
	q := fmt.Sprintf(`UPDATE payment_processes SET status = $%d, %s WHERE id = $%d AND status = $%d`, n+1, set, n+2, n+3)
	args = append(args, string(to), id, string(from))
	res, err := s.db.ExecContext(ctx, q, args...)
	if err != nil {
		return false, fmt.Errorf("move %s %s→%s: %w", id, from, to, err)
	}
	k, err := res.RowsAffected()
	return k == 1, err
}

// SetSlip records the slip of a process that has none yet; true for the
// one caller that recorded it (who mails it).
func (s *PaymentStore) SetSlip(ctx context.Context, id string, slip json.RawMessage, now time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE payment_processes SET slip = $1, updated_at = $2 WHERE id = $3 AND slip = ''`,
		string(slip), now.UnixMilli(), id)
	if err != nil {
		return false, fmt.Errorf("set slip %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (s *PaymentStore) Update(ctx context.Context, id string, c payment.Changes, now time.Time) error {
	set, args := sets(c, now, 1)
	_, err := s.db.ExecContext(ctx, fmt.Sprintf(`UPDATE payment_processes SET %s WHERE id = $%d`, set, len(args)+1), append(args, id)...)
	if err != nil {
		return fmt.Errorf("update process %s: %w", id, err)
	}
	return nil
}

func (s *PaymentStore) Settle(ctx context.Context, id string, now time.Time, needsNotify bool, card *payment.SavedCard, grant payment.SettleFunc) (payment.SettleOutcome, error) {
	var out payment.SettleOutcome
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		out = payment.SettleOutcome{}
		// An erased member gets nothing: the capture is given back. The
		// member row is read in this transaction (by the same statement
		// that settles: one round trip less on PostgreSQL), so an erasure
		// either committed before (refused here) or waits for this
		// settlement (and then finds the goods, which it keeps without
		// names). No row: the process was not pending any more.
		var erased bool
		// A settled process needs no lease: it is released here, so the
		// holder has no release of its own to make.
		err := tx.QueryRowContext(ctx, `UPDATE payment_processes SET status = 'settled', settled_at = $1, updated_at = $1,
			next_action_url = '', gateway_status = 'captured', notified = $2, lease_owner = '', lease_until = 0
			WHERE id = $3 AND status = 'pending' AND expires_at > $1
			RETURNING (SELECT m.deleted_at IS NOT NULL FROM members m WHERE m.id = payment_processes.member_id)`,
			now.UnixMilli(), !needsNotify, id).Scan(&erased)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("settle and read the member of %s: %w", id, err)
		}
		if erased {
			out.Refused = payment.RefusedMemberErased
			return refuseSettlement(ctx, tx, id, out.Refused, now)
		}
		// The grant runs under a savepoint: a refusal found by a constraint
		// (PostgreSQL aborts the transaction on an error) is rolled back to
		// here and the process failed and refunded instead.
		if _, err := tx.ExecContext(ctx, `SAVEPOINT grant_goods`); err != nil {
			return err
		}
		g, err := grant(UnitOfWork(tx))
		var refused *payment.RefusedGrant
		if errors.As(err, &refused) {
			if _, err := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT grant_goods`); err != nil {
				return err
			}
			out.Refused = refused.Reason
			return refuseSettlement(ctx, tx, id, out.Refused, now)
		}
		if err != nil {
			return fmt.Errorf("grant: %w", err)
		}
		// The savepoint is not released: the commit ends it, one round
		// trip less.
		if _, err := tx.ExecContext(ctx, `UPDATE payment_processes SET goods = $1, secret = $2 WHERE id = $3`,
			string(g.Goods), string(g.Secret), id); err != nil {
			return err
		}
		if card != nil {
			if err := addCard(ctx, tx, *card); err != nil {
				return err
			}
		}
		out.Settled = true
		return nil
	})
	if err != nil {
		return payment.SettleOutcome{}, fmt.Errorf("settle %s: %w", id, err)
	}
	return out, nil
}

// refuseSettlement turns the settlement in tx into a failure with reason
// and records the refund of the whole amount (made after the commit, by
// the caller or the worker: the intent cannot be lost between the two).
func refuseSettlement(ctx context.Context, tx *sql.Tx, id, reason string, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `UPDATE payment_processes SET status = 'failed', settled_at = NULL, failure_code = $1,
		notified = TRUE, updated_at = $2 WHERE id = $3`, reason, now.UnixMilli(), id); err != nil {
		return fmt.Errorf("refuse settlement %s: %w", id, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO payment_refunds (process_id, reason, amount, created_at)
		SELECT id, $1, amount, $2 FROM payment_processes WHERE id = $3
		ON CONFLICT (process_id, reason) DO NOTHING`, payment.RefundRefused, now.UnixMilli(), id); err != nil {
		return fmt.Errorf("refuse settlement %s: record refund: %w", id, err)
	}
	return nil
}

// ClaimRefunds leases processes with a refund recorded and not made,
// whatever its reason (the engine's late and refused ones, a product's
// such as the coupon pass's). The lease condition is repeated in the outer WHERE as in ClaimDue.
func (s *PaymentStore) ClaimRefunds(ctx context.Context, owner string, now, until, olderThan time.Time, limit int) ([]payment.Process, error) {
	return s.claim(ctx, `UPDATE payment_processes SET lease_owner = $1, lease_until = $2
		WHERE id IN (SELECT process_id FROM payment_refunds WHERE done = FALSE AND created_at <= $3 LIMIT $4)
		AND lease_until < $5
		RETURNING id`, owner, until.UnixMilli(), olderThan.UnixMilli(), limit, now.UnixMilli())
}

func (s *PaymentStore) OpenRefunds(ctx context.Context, id string) ([]payment.RefundIntent, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT reason, amount FROM payment_refunds WHERE process_id = $1 AND done = FALSE ORDER BY created_at, reason`, id)
	if err != nil {
		return nil, fmt.Errorf("open refunds %s: %w", id, err)
	}
	defer rows.Close()
	var out []payment.RefundIntent
	for rows.Next() {
		var r payment.RefundIntent
		if err := rows.Scan(&r.Reason, &r.Amount); err != nil {
			return nil, fmt.Errorf("open refunds %s: %w", id, err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func (s *PaymentStore) claim(ctx context.Context, q string, args ...any) ([]payment.Process, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("claim: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			_ = rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	_ = rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]payment.Process, 0, len(ids))
	for _, id := range ids {
		p, err := s.Process(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// ClaimDue leases due work. The lease condition is repeated in the outer
// WHERE so that on PostgreSQL a row leased by a concurrent instance is
// re-checked and skipped.
func (s *PaymentStore) ClaimDue(ctx context.Context, owner string, now, until time.Time, limit int) ([]payment.Process, error) {
	open, err := s.claim(ctx, `UPDATE payment_processes SET lease_owner = $1, lease_until = $2
		WHERE id IN (SELECT id FROM payment_processes WHERE status IN ('prepared', 'pending') AND next_check_at <= $3
			AND lease_until < $3 ORDER BY next_check_at LIMIT $4)
		AND lease_until < $3 AND status IN ('prepared', 'pending')
		RETURNING id`, owner, until.UnixMilli(), now.UnixMilli(), limit)
	if err != nil {
		return nil, err
	}
	// notifications a crash left unsent (give the request that settled or
	// ended the process a minute): a settlement's, or the mail of a slip
	// that ended unpaid (no settled_at; its ending is its last update), or
	// the mail of a refund that ended the goods (recorded with the refund,
	// its last update)
	unsent, err := s.claim(ctx, `UPDATE payment_processes SET lease_owner = $1, lease_until = $2
		WHERE id IN (SELECT id FROM payment_processes WHERE notified = FALSE AND COALESCE(settled_at, updated_at) <= $4
			AND lease_until < $3
			UNION SELECT id FROM payment_processes WHERE refund_mail_owed AND updated_at <= $4 AND lease_until < $3
			LIMIT $5)
		AND lease_until < $3 AND (notified = FALSE OR refund_mail_owed)
		RETURNING id`, owner, until.UnixMilli(), now.UnixMilli(), now.Add(-time.Minute).UnixMilli(), limit)
	if err != nil {
		return nil, err
	}
	return append(open, unsent...), nil
}

// ReleaseLeases frees owner's leases on processes and jobs (a graceful
// shutdown: the other instances take the work at once instead of after
// the lease lapses).
func (s *PaymentStore) ReleaseLeases(ctx context.Context, owner string) (int64, error) {
	var n int64
	for _, table := range []string{"payment_processes", "payment_jobs"} {
		res, err := s.db.ExecContext(ctx, `UPDATE `+table+` SET lease_owner = '', lease_until = 0 WHERE lease_owner = $1`, owner) // #nosec G202 -- table from the fixed list above
		if err != nil {
			return n, fmt.Errorf("release leases: %w", err)
		}
		k, err := res.RowsAffected()
		if err != nil {
			return n, fmt.Errorf("release leases: %w", err)
		}
		n += k
	}
	return n, nil
}

func (s *PaymentStore) ClaimOne(ctx context.Context, id, owner string, now, until time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE payment_processes SET lease_owner = $1, lease_until = $2
		WHERE id = $3 AND lease_until < $4`, owner, until.UnixMilli(), id, now.UnixMilli())
	if err != nil {
		return false, fmt.Errorf("claim %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (s *PaymentStore) MarkNotified(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE payment_processes SET notified = TRUE WHERE id = $1`, id)
	return err
}

func (s *PaymentStore) TakeSecret(ctx context.Context, id string, secret json.RawMessage, now time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE payment_processes SET secret = '', updated_at = $1 WHERE id = $2 AND secret = $3`,
		now.UnixMilli(), id, string(secret))
	if err != nil {
		return false, fmt.Errorf("take secret %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (s *PaymentStore) SecretMailed(ctx context.Context, id string, now time.Time) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE payment_processes SET secret_mailed_at = $1
		WHERE id = $2 AND secret <> '' AND secret_mailed_at = 0`, now.UnixMilli(), id); err != nil {
		return fmt.Errorf("secret mailed %s: %w", id, err)
	}
	return nil
}

// ForgetSecrets erases the secrets mailed before mailedBefore and those of
// processes settled before settledBefore (the partial index
// payment_processes_secret holds only the rows with a secret). On SQLite
// the erased values are overwritten in the file (secure_delete) and the
// write-ahead log is emptied after them; when a reader keeps the
// checkpoint from finishing, the next call tries again.
func (s *PaymentStore) ForgetSecrets(ctx context.Context, mailedBefore, settledBefore time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE payment_processes SET secret = ''
		WHERE secret <> '' AND settled_at IS NOT NULL
		  AND ((secret_mailed_at > 0 AND secret_mailed_at <= $1) OR settled_at <= $2)`,
		mailedBefore.UnixMilli(), settledBefore.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("forget secrets: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("forget secrets: %w", err)
	}
	if n > 0 {
		s.forgetOwed.Store(true)
	}
	if s.forgetOwed.Load() {
		if err := s.db.truncateWAL(ctx); err != nil {
			return n, fmt.Errorf("forget secrets: %w", err)
		}
		s.forgetOwed.Store(false)
	}
	return n, nil
}

func (s *PaymentStore) AddRefund(ctx context.Context, id, reason string, amount int64, now time.Time) (int64, bool, error) {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO payment_refunds (process_id, reason, amount, created_at)
		VALUES ($1, $2, $3, $4) ON CONFLICT (process_id, reason) DO NOTHING`, id, reason, amount, now.UnixMilli()); err != nil {
		return 0, false, fmt.Errorf("add refund %s: %w", id, err)
	}
	var recorded int64
	var done bool
	err := s.db.QueryRowContext(ctx, `SELECT amount, done FROM payment_refunds WHERE process_id = $1 AND reason = $2`, id, reason).
		Scan(&recorded, &done)
	if err != nil {
		return 0, false, fmt.Errorf("add refund %s: %w", id, err)
	}
	return recorded, done, nil
}

// CompleteRefund records the refund made and ends its goods in one
// transaction: a crash (or an error of end) anywhere in it leaves neither,
// the refund still owed to the worker, which makes it again under its key.
func (s *PaymentStore) CompleteRefund(ctx context.Context, id, reason string, now time.Time, end payment.EndGoodsFunc) (bool, error) {
	var owed bool
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		owed = false
		var amount int64
		err := tx.QueryRowContext(ctx, `UPDATE payment_refunds SET done = TRUE WHERE process_id = $1 AND reason = $2 AND done = FALSE
			RETURNING amount`, id, reason).Scan(&amount)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("complete refund %s: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE payment_processes SET refunded_amount = refunded_amount + $1, updated_at = $2,
			status = CASE WHEN status IN ('settled', 'refunded') THEN 'refunded' ELSE status END WHERE id = $3`,
			amount, now.UnixMilli(), id); err != nil {
			return fmt.Errorf("complete refund %s: %w", id, err)
		}
		if end == nil {
			return nil
		}
		changed, err := end(UnitOfWork(tx))
		if err != nil {
			return fmt.Errorf("complete refund %s: end the goods: %w", id, err)
		}
		if !changed {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE payment_processes SET refund_mail_owed = TRUE WHERE id = $1`, id); err != nil {
			return fmt.Errorf("complete refund %s: %w", id, err)
		}
		owed = true
		return nil
	})
	return owed, err
}

func (s *PaymentStore) RefundMailed(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE payment_processes SET refund_mail_owed = FALSE WHERE id = $1`, id); err != nil {
		return fmt.Errorf("refund mailed %s: %w", id, err)
	}
	return nil
}

func (s *PaymentStore) SeenEvent(ctx context.Context, eventID string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM payment_webhook_events WHERE event_id = $1`, eventID).Scan(&n)
	return n > 0, err
}

func (s *PaymentStore) RecordEvent(ctx context.Context, eventID, typ string, now time.Time) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO payment_webhook_events (event_id, type, received_at) VALUES ($1, $2, $3)
		ON CONFLICT (event_id) DO NOTHING`, eventID, typ, now.UnixMilli())
	return paymentErr(err)
}
