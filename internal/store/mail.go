package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"members/internal/i18n"
	"members/internal/mail"
)

// MailOutbox implements mail.Outbox.
type MailOutbox struct{ db *DB }

// NewMailOutbox returns the outbox store.
func NewMailOutbox(db *DB) *MailOutbox { return &MailOutbox{db: db} }

var _ mail.Outbox = (*MailOutbox)(nil)

const outboxCols = `id, created_at, kind, to_addr, lang, subject, text_body, html_body, attachments,
	status, attempts, next_attempt_at, last_error, sent_at, headers`

// outboxSelect reads a stored mail with the secrets it still has
// (mail_secrets, 00245); scanOutbox puts them back into its text.
const outboxSelect = `SELECT o.id, o.created_at, o.kind, o.to_addr, o.lang, o.subject, o.text_body, o.html_body, o.attachments,
	o.status, o.attempts, o.next_attempt_at, o.last_error, o.sent_at, o.headers, COALESCE(s.secrets, '')
	FROM mail_outbox o LEFT JOIN mail_secrets s ON s.mail_id = o.id`

// Add stores m with its secrets (m.Secrets) apart from its text
// (mail.Seal), in one transaction.
func (o *MailOutbox) Add(ctx context.Context, m mail.Message, status mail.Status, now time.Time) (string, error) {
	m, secrets, err := mail.Seal(m)
	if err != nil {
		return "", fmt.Errorf("outbox: %w", err)
	}
	att := m.Attachments
	if att == nil {
		att = []mail.Attachment{}
	}
	b, err := json.Marshal(att)
	if err != nil {
		return "", fmt.Errorf("outbox: encode attachments: %w", err)
	}
	hdr := m.Headers
	if hdr == nil {
		hdr = map[string]string{}
	}
	h, err := json.Marshal(hdr)
	if err != nil {
		return "", fmt.Errorf("outbox: encode headers: %w", err)
	}
	id := NewID()
	err = o.tx(ctx, "insert", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO mail_outbox (`+outboxCols+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, $11, '', NULL, $12)`,
			id, now.UnixMilli(), m.Kind, m.To, string(m.Lang), m.Subject, m.Text, m.HTML, string(b), string(status), now.UnixMilli(), string(h)); err != nil {
			return Translate(err)
		}
		if len(secrets) == 0 {
			return nil
		}
		v, err := json.Marshal(secrets)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO mail_secrets (mail_id, secrets) VALUES ($1, $2)`, id, string(v))
		return err
	})
	if err != nil {
		return "", err
	}
	return id, nil
}

// tx runs fn in a transaction; what names the step in the error.
func (o *MailOutbox) tx(ctx context.Context, what string, fn func(*sql.Tx) error) error {
	tx, err := o.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("outbox: %s: %w", what, err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return fmt.Errorf("outbox: %s: %w", what, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("outbox: %s: %w", what, err)
	}
	return nil
}

// forgetSecrets deletes the secrets of mail id, in the transaction that
// records its delivery or its giving up.
func forgetSecrets(ctx context.Context, tx *sql.Tx, id string) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM mail_secrets WHERE mail_id = $1`, id)
	return err
}

func (o *MailOutbox) MarkSent(ctx context.Context, id string, at time.Time) error {
	return o.tx(ctx, "mark sent", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE mail_outbox SET status = $1, sent_at = $2, last_error = '' WHERE id = $3`,
			string(mail.Sent), at.UnixMilli(), id); err != nil {
			return err
		}
		return forgetSecrets(ctx, tx, id)
	})
}

func (o *MailOutbox) MarkAttempt(ctx context.Context, id string, attempts int, status mail.Status, next time.Time, lastErr string) error {
	if len(lastErr) > 500 {
		lastErr = lastErr[:500]
	}
	return o.tx(ctx, "mark attempt", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE mail_outbox SET attempts = $1, status = $2, next_attempt_at = $3, last_error = $4 WHERE id = $5`,
			attempts, string(status), next.UnixMilli(), lastErr, id); err != nil {
			return err
		}
		// given up: its secrets stay until `members mail resend` sends
		// it or the retention ends (ForgetFailed)
		return nil
	})
}

// Requeue makes a failed mail pending again, due at now, with its attempts
// counted from zero; false when the mail is not failed (sent meanwhile,
// already requeued, held, unknown).
func (o *MailOutbox) Requeue(ctx context.Context, id string, now time.Time) (bool, error) {
	res, err := o.db.ExecContext(ctx, `UPDATE mail_outbox SET status = $1, attempts = 0, next_attempt_at = $2
		WHERE id = $3 AND status = $4`, string(mail.Pending), now.UnixMilli(), id, string(mail.Failed))
	if err != nil {
		return false, fmt.Errorf("outbox: requeue %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Failed returns the failed mails made from since up to until (until
// excluded), oldest first.
func (o *MailOutbox) Failed(ctx context.Context, since, until time.Time) ([]mail.Stored, error) {
	rows, err := o.db.QueryContext(ctx, outboxSelect+` WHERE o.status = $1 AND o.created_at >= $2 AND o.created_at < $3
		ORDER BY o.created_at, o.id`, string(mail.Failed), since.UnixMilli(), until.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("outbox: failed: %w", err)
	}
	return scanOutbox(rows)
}

// ForgetFailed deletes the secrets of the failed mails made before before
// (the retention ended: they will not be sent again with them), 500 a
// statement, and returns how many mails lost theirs.
func (o *MailOutbox) ForgetFailed(ctx context.Context, before time.Time) (int64, error) {
	var total int64
	for {
		res, err := o.db.ExecContext(ctx, `DELETE FROM mail_secrets WHERE mail_id IN
			(SELECT o.id FROM mail_outbox o JOIN mail_secrets s ON s.mail_id = o.id
			 WHERE o.created_at < $1 AND o.status = $2 LIMIT 500)`, before.UnixMilli(), string(mail.Failed))
		if err != nil {
			return total, fmt.Errorf("outbox: forget failed: %w", err)
		}
		n, _ := res.RowsAffected()
		total += n
		if n < 500 {
			return total, nil
		}
	}
}

// PurgeSent deletes the mails sent and made before before, 500 a
// statement (SQLite's write lock is never held long), and returns how
// many went.
func (o *MailOutbox) PurgeSent(ctx context.Context, before time.Time) (int64, error) {
	var total int64
	for {
		res, err := o.db.ExecContext(ctx, `DELETE FROM mail_outbox WHERE id IN
			(SELECT id FROM mail_outbox WHERE created_at < $1 AND status = $2 LIMIT 500)`, before.UnixMilli(), string(mail.Sent))
		if err != nil {
			return total, fmt.Errorf("outbox: purge sent: %w", err)
		}
		n, _ := res.RowsAffected()
		total += n
		if n < 500 {
			return total, nil
		}
	}
}

// Forget makes the secrets deleted so far unreadable in the database's
// files too. Deleted rows are overwritten with zeros on SQLite
// (secure_delete, store.go), but the write-ahead log still holds the
// pages as they were before; a checkpoint that empties the log
// (TRUNCATE) ends that. It waits at most a second for readers and
// writers: when they keep it from finishing it returns an error and the
// mailer tries again on its next pass. PostgreSQL's dead rows and WAL
// segments are VACUUM's and the archive's (docs/operations.md).
func (o *MailOutbox) Forget(ctx context.Context) error {
	if err := o.db.truncateWAL(ctx); err != nil {
		return fmt.Errorf("outbox: forget: %w", err)
	}
	return nil
}

// truncateWAL empties SQLite's write-ahead log (a checkpoint in TRUNCATE
// mode), waiting at most a second for readers and writers; an error when
// they kept it from finishing. Nothing on PostgreSQL.
func (db *DB) truncateWAL(ctx context.Context) error {
	if db.Engine != SQLite {
		return nil
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA busy_timeout = 1000`); err != nil {
		return err
	}
	defer func() {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf(`PRAGMA busy_timeout = %d`, sqliteBusyTimeoutMs))
	}()
	var busy, logPages, done int
	if err := conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logPages, &done); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if busy != 0 {
		return errors.New("the checkpoint was kept from finishing (busy); next pass")
	}
	return nil
}

func (o *MailOutbox) Claim(ctx context.Context, now, leaseUntil time.Time, limit int) ([]mail.Stored, error) {
	rows, err := o.db.QueryContext(ctx, outboxSelect+`
		WHERE o.status = $1 AND o.next_attempt_at <= $2 ORDER BY o.next_attempt_at LIMIT $3`,
		string(mail.Pending), now.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("outbox: due: %w", err)
	}
	due, err := scanOutbox(rows)
	if err != nil {
		return nil, err
	}
	out := due[:0]
	for _, s := range due {
		// Reserve the message; another instance that read it too loses here.
		res, err := o.db.ExecContext(ctx, `UPDATE mail_outbox SET next_attempt_at = $1
			WHERE id = $2 AND status = $3 AND next_attempt_at = $4`,
			leaseUntil.UnixMilli(), s.ID, string(mail.Pending), s.NextAttemptAt.UnixMilli())
		if err != nil {
			return nil, fmt.Errorf("outbox: claim: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			out = append(out, s)
		}
	}
	return out, nil
}

func (o *MailOutbox) List(ctx context.Context, limit int) ([]mail.Stored, error) {
	rows, err := o.db.QueryContext(ctx, outboxSelect+` ORDER BY o.created_at DESC, o.id LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("outbox: list: %w", err)
	}
	return scanOutbox(rows)
}

func (o *MailOutbox) Get(ctx context.Context, id string) (mail.Stored, error) {
	rows, err := o.db.QueryContext(ctx, outboxSelect+` WHERE o.id = $1`, id)
	if err != nil {
		return mail.Stored{}, fmt.Errorf("outbox: get: %w", err)
	}
	list, err := scanOutbox(rows)
	if err != nil {
		return mail.Stored{}, err
	}
	if len(list) == 0 {
		return mail.Stored{}, mail.ErrNotFound
	}
	return list[0], nil
}

func scanOutbox(rows *sql.Rows) ([]mail.Stored, error) {
	defer rows.Close()
	out := []mail.Stored{}
	for rows.Next() {
		var (
			s                   mail.Stored
			created, next       int64
			sent                sql.NullInt64
			lang, status, attch string
			hdr, secrets        string
		)
		if err := rows.Scan(&s.ID, &created, &s.Kind, &s.To, &lang, &s.Subject, &s.Text, &s.HTML, &attch,
			&status, &s.Attempts, &next, &s.LastError, &sent, &hdr, &secrets); err != nil {
			return nil, fmt.Errorf("outbox: scan: %w", err)
		}
		if err := json.Unmarshal([]byte(hdr), &s.Headers); err != nil {
			return nil, fmt.Errorf("outbox: decode headers of %s: %w", s.ID, err)
		}
		if len(s.Headers) == 0 {
			s.Headers = nil
		}
		if err := json.Unmarshal([]byte(attch), &s.Attachments); err != nil {
			return nil, fmt.Errorf("outbox: decode attachments of %s: %w", s.ID, err)
		}
		if secrets != "" {
			var list []mail.Secret
			if err := json.Unmarshal([]byte(secrets), &list); err != nil {
				return nil, fmt.Errorf("outbox: decode secrets of %s: %w", s.ID, err)
			}
			s.Message = mail.Unseal(s.Message, list)
			for _, x := range list {
				s.Secrets = append(s.Secrets, x.Value)
			}
		}
		s.Lang, s.Status = i18n.Lang(lang), mail.Status(status)
		s.CreatedAt, s.NextAttemptAt = time.UnixMilli(created).UTC(), time.UnixMilli(next).UTC()
		if sent.Valid {
			s.SentAt = time.UnixMilli(sent.Int64).UTC()
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("outbox: rows: %w", errors.Join(err))
	}
	return out, nil
}
