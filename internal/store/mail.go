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

func (o *MailOutbox) Add(ctx context.Context, m mail.Message, status mail.Status, now time.Time) (string, error) {
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
	_, err = o.db.ExecContext(ctx, `INSERT INTO mail_outbox (`+outboxCols+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, $11, '', NULL, $12)`,
		id, now.UnixMilli(), m.Kind, m.To, string(m.Lang), m.Subject, m.Text, m.HTML, string(b), string(status), now.UnixMilli(), string(h))
	if err != nil {
		return "", fmt.Errorf("outbox: insert: %w", Translate(err))
	}
	return id, nil
}

func (o *MailOutbox) MarkSent(ctx context.Context, id string, at time.Time) error {
	_, err := o.db.ExecContext(ctx, `UPDATE mail_outbox SET status = $1, sent_at = $2, last_error = '' WHERE id = $3`,
		string(mail.Sent), at.UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("outbox: mark sent: %w", err)
	}
	return nil
}

func (o *MailOutbox) MarkAttempt(ctx context.Context, id string, attempts int, status mail.Status, next time.Time, lastErr string) error {
	if len(lastErr) > 500 {
		lastErr = lastErr[:500]
	}
	_, err := o.db.ExecContext(ctx, `UPDATE mail_outbox SET attempts = $1, status = $2, next_attempt_at = $3, last_error = $4 WHERE id = $5`,
		attempts, string(status), next.UnixMilli(), lastErr, id)
	if err != nil {
		return fmt.Errorf("outbox: mark attempt: %w", err)
	}
	return nil
}

func (o *MailOutbox) Claim(ctx context.Context, now, leaseUntil time.Time, limit int) ([]mail.Stored, error) {
	rows, err := o.db.QueryContext(ctx, `SELECT `+outboxCols+` FROM mail_outbox
		WHERE status = $1 AND next_attempt_at <= $2 ORDER BY next_attempt_at LIMIT $3`,
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
	rows, err := o.db.QueryContext(ctx, `SELECT `+outboxCols+` FROM mail_outbox ORDER BY created_at DESC, id LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("outbox: list: %w", err)
	}
	return scanOutbox(rows)
}

func (o *MailOutbox) Get(ctx context.Context, id string) (mail.Stored, error) {
	rows, err := o.db.QueryContext(ctx, `SELECT `+outboxCols+` FROM mail_outbox WHERE id = $1`, id)
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
			hdr                 string
		)
		if err := rows.Scan(&s.ID, &created, &s.Kind, &s.To, &lang, &s.Subject, &s.Text, &s.HTML, &attch,
			&status, &s.Attempts, &next, &s.LastError, &sent, &hdr); err != nil {
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
