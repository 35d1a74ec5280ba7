// Package mail sends the product's e-mails and keeps every one of them in
// the database outbox.
//
// Use:
//
//	msg, err := templates.Standard("password_changed", lang, to, "name", "Hanako")
//	msg.Attachments = append(msg.Attachments, mail.Attachment{Name: "itinerary.pdf",
//		ContentType: "application/pdf", Data: pdf})
//	if err := mailer.Send(ctx, msg); err != nil {
//		// the change is kept; tell the member the notification may not
//		// have been sent (errorKey mobile_mail_error / mailSent=false)
//	}
//
// Send always records the message in the outbox first (so nothing is lost)
// and, when SMTP is configured (--smtp smtp://user:pass@host:port), tries to
// deliver it at once. A failed delivery stays "pending" and Send returns
// ErrNotSent (wrapped); the delivery worker (Mailer.Run, a background job)
// retries with exponential backoff (1 min doubling up to 1 h, MaxAttempts in
// all) and then marks it "failed". Without SMTP the outbox is the
// destination: messages are stored "held" and Send returns nil; operators
// read them with `members mail list` / `members mail show ID`.
//
// Templates: each kind of mail has its texts in the i18n catalogues
// (mail.<kind>.subject, mail.<kind>.body, optional mail.<kind>.action) in
// all eight languages, laid out by one embedded text/template and one
// html/template (values are HTML-escaped). Feature packages add their own
// kinds by adding catalogue keys (e.g. in booking.<lang>.json) and calling
// Templates.Standard, or build a Content and call Templates.Compose.
package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"members/internal/i18n"
	"members/internal/retry"
)

// Attachment is a file sent with a message (e.g. an itinerary PDF).
type Attachment struct {
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	Data        []byte `json:"data"`
}

// Message is one e-mail to one recipient.
type Message struct {
	// Kind names the template it came from (profile_updated…), for the outbox.
	Kind        string
	To          string
	Lang        i18n.Lang
	Subject     string
	Text        string
	HTML        string
	Attachments []Attachment
	// Headers are extra header fields (List-Unsubscribe on the optional
	// mails), kept in the outbox with the message.
	Headers map[string]string
	// Secrets are values in the message (a voucher PIN, the token of a
	// single-use link) that the outbox keeps only until the message is
	// sent or given up (Seal): never in the log, and not in `members mail
	// show` after sending.
	Secrets []string
}

// Status of a stored message.
type Status string

// Outbox statuses.
const (
	Pending Status = "pending" // waiting for (another) SMTP attempt
	Sent    Status = "sent"    // delivered to the SMTP server
	Held    Status = "held"    // no SMTP configured: kept in the outbox only
	Failed  Status = "failed"  // gave up after MaxAttempts
)

// Stored is a message in the outbox with its delivery state.
type Stored struct {
	Message
	ID            string
	CreatedAt     time.Time
	Status        Status
	Attempts      int
	NextAttemptAt time.Time
	LastError     string
	SentAt        time.Time // zero until sent
}

// Outbox is the storage of the mailer (internal/store.MailOutbox).
type Outbox interface {
	// Add stores a new message with its status and returns its id.
	Add(ctx context.Context, m Message, status Status, now time.Time) (string, error)
	// MarkSent records a delivery.
	MarkSent(ctx context.Context, id string, at time.Time) error
	// MarkAttempt records a failed attempt: the new attempt count, status
	// (Pending or Failed), next attempt time and the error text.
	MarkAttempt(ctx context.Context, id string, attempts int, status Status, next time.Time, lastErr string) error
	// Claim returns up to limit Pending messages due at now and pushes their
	// next attempt to leaseUntil, so another instance does not send them too.
	Claim(ctx context.Context, now, leaseUntil time.Time, limit int) ([]Stored, error)
	// List returns the newest messages first.
	List(ctx context.Context, limit int) ([]Stored, error)
	// Get returns ErrNotFound when there is no message with id.
	Get(ctx context.Context, id string) (Stored, error)
	// PurgeSent deletes the messages sent and made before before.
	PurgeSent(ctx context.Context, before time.Time) (int64, error)
	// ForgetFailed deletes the secrets of the failed messages made before
	// before, returning how many lost theirs.
	ForgetFailed(ctx context.Context, before time.Time) (int64, error)
	// Requeue makes a failed message pending again, due at now, attempts
	// from zero; false when it is not failed.
	Requeue(ctx context.Context, id string, now time.Time) (bool, error)
	// Failed returns the failed messages made in [since, until), oldest
	// first.
	Failed(ctx context.Context, since, until time.Time) ([]Stored, error)
	// Forget makes the secrets deleted so far unreadable in the
	// database's files too (its log), when the engine keeps them there.
	Forget(ctx context.Context) error
}

// Leases let one instance at a time run a periodic job (store.Jobs).
type Leases interface {
	// ClaimJob leases the job when its lease is free and its run is due.
	ClaimJob(ctx context.Context, name, owner string, now, until time.Time) (bool, error)
	// FinishJob releases the lease and sets the next run.
	FinishJob(ctx context.Context, name, owner string, now, next time.Time) error
}

// DefaultRetention is how long sent messages are kept (--mail-retention).
const DefaultRetention = 30 * 24 * time.Hour

// RetentionJob is the lease name of the purge of old sent messages.
const RetentionJob = "mail-retention"

// Retention of sent messages: the worker tries the purge's lease every
// retentionTry and the instance that gets it purges, then sets the next
// run retentionEvery later.
const (
	retentionTry   = 5 * time.Minute
	retentionEvery = time.Hour
	retentionLease = 10 * time.Minute
)

// Transport delivers a message (SMTP in production).
type Transport interface {
	Deliver(ctx context.Context, from string, m Message) error
}

// Errors.
var (
	// ErrNotSent means the message is stored but was not delivered now; the
	// worker retries it. Callers keep their change and tell the member.
	ErrNotSent = errors.New("mail: stored but not delivered")
	// ErrNotFound is returned by Outbox.Get.
	ErrNotFound = errors.New("mail: no such message")
)

// Retry policy of the worker.
const (
	MaxAttempts  = 8
	firstBackoff = time.Minute
	maxBackoff   = time.Hour
	// lease is how long a claimed message is reserved for one attempt.
	lease = 2 * time.Minute
)

// Backoff returns the wait after the given number of failed attempts.
func Backoff(attempts int) time.Duration {
	return retry.Doubling(firstBackoff, maxBackoff, attempts)
}

// Mailer records and delivers messages.
type Mailer struct {
	outbox    Outbox
	transport Transport // nil: outbox only
	from      string
	now       func() time.Time
	logger    *slog.Logger
	// PollEvery is the worker's interval.
	PollEvery time.Duration

	// retention of sent messages (KeepSent); zero: kept
	retention time.Duration
	leases    Leases
	owner     string
	nextTry   time.Time
	// forget counts the messages whose secrets went since the last
	// Outbox.Forget that finished.
	forget atomic.Int64
}

// New returns a mailer. transport may be nil (no SMTP: messages are held
// in the outbox).
func New(outbox Outbox, transport Transport, from string, now func() time.Time, logger *slog.Logger) *Mailer {
	return &Mailer{outbox: outbox, transport: transport, from: from, now: now, logger: logger, PollEvery: 30 * time.Second}
}

// KeepSent makes the worker delete sent messages older than retention,
// on one instance at a time (leases, under owner, this instance's name).
func (m *Mailer) KeepSent(retention time.Duration, leases Leases, owner string) {
	m.retention, m.leases, m.owner = retention, leases, owner
}

// Outbox returns the mailer's outbox (for the CLI and tests).
func (m *Mailer) Outbox() Outbox { return m.outbox }

// Send stores msg and, with SMTP configured, delivers it at once. It
// returns an error wrapping ErrNotSent when the message could not be
// delivered now (it stays pending and the worker retries), or another
// error when even storing failed (nothing was kept: a caller that must
// not lose the mail tries again later).
func (m *Mailer) Send(ctx context.Context, msg Message) error {
	now := m.now()
	if m.transport == nil {
		if _, err := m.outbox.Add(ctx, msg, Held, now); err != nil {
			return fmt.Errorf("mail: store: %w", err)
		}
		return nil
	}
	id, err := m.outbox.Add(ctx, msg, Pending, now)
	if err != nil {
		return fmt.Errorf("mail: store: %w", err)
	}
	if err := m.attempt(ctx, Stored{Message: msg, ID: id}); err != nil {
		return fmt.Errorf("%w: %v", ErrNotSent, err)
	}
	return nil
}

// attempt delivers one stored message and records the outcome.
func (m *Mailer) attempt(ctx context.Context, s Stored) error {
	dctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	err := m.transport.Deliver(dctx, m.from, s.Message)
	cancel()
	now := m.now()
	if err == nil {
		if merr := m.outbox.MarkSent(ctx, s.ID, now); merr != nil {
			m.logger.Warn("mail: mark sent", "id", s.ID, "err", merr)
		} else if len(s.Secrets) > 0 {
			m.forget.Add(1)
		}
		return nil
	}
	attempts := s.Attempts + 1
	status := Pending
	if attempts >= MaxAttempts {
		status = Failed
	}
	if merr := m.outbox.MarkAttempt(ctx, s.ID, attempts, status, now.Add(Backoff(attempts)), err.Error()); merr != nil {
		m.logger.Warn("mail: record attempt", "id", s.ID, "err", merr)
	}
	if status == Failed {
		// the last attempt: the mail is not sent unless an operator
		// sends it again (its secrets are kept until then or the
		// retention)
		m.logger.Error("mail: given up, never sent", "id", s.ID, "kind", s.Kind, "attempts", attempts, "err", err,
			"resend", "members mail resend "+s.ID)
		return err
	}
	m.logger.Warn("mail: delivery failed", "id", s.ID, "attempts", attempts, "err", err)
	return err
}

// DeliverDue makes one pass over the due pending messages and returns how
// many were delivered. Without SMTP it does nothing.
func (m *Mailer) DeliverDue(ctx context.Context) (int, error) {
	if m.transport == nil {
		return 0, nil
	}
	now := m.now()
	due, err := m.outbox.Claim(ctx, now, now.Add(lease), 20)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, s := range due {
		if m.attempt(ctx, s) == nil {
			n++
		}
	}
	return n, nil
}

// ForgetSent has the outbox make the secrets of the messages sent or given
// up since its last call unreadable in the database's files
// (Outbox.Forget); nothing when there were none.
func (m *Mailer) ForgetSent(ctx context.Context) error {
	n := m.forget.Load()
	if n == 0 {
		return nil
	}
	if err := m.outbox.Forget(ctx); err != nil {
		return err
	}
	m.forget.Add(-n)
	return nil
}

// PurgeDue deletes the sent messages older than the retention when this
// instance gets the purge's lease and its run is due (hourly), and
// returns how many went. Without KeepSent it does nothing.
func (m *Mailer) PurgeDue(ctx context.Context) (int64, error) {
	now := m.now()
	if m.retention <= 0 || m.leases == nil || now.Before(m.nextTry) {
		return 0, nil
	}
	m.nextTry = now.Add(retentionTry)
	ok, err := m.leases.ClaimJob(ctx, RetentionJob, m.owner, now, now.Add(retentionLease))
	if err != nil || !ok {
		return 0, err
	}
	n, err := m.outbox.PurgeSent(ctx, now.Add(-m.retention))
	if err == nil {
		var lost int64
		lost, err = m.outbox.ForgetFailed(ctx, now.Add(-m.retention))
		if lost > 0 {
			m.forget.Add(1)
			m.logger.Info("mail: secrets of failed mails past their retention deleted", "count", lost, "retention", m.retention.String())
		}
	}
	if ferr := m.leases.FinishJob(ctx, RetentionJob, m.owner, m.now(), now.Add(retentionEvery)); ferr != nil && err == nil {
		err = ferr
	}
	if n > 0 {
		m.logger.Info("mail: purged sent mails past their retention", "count", n, "retention", m.retention.String())
	}
	return n, err
}

// Run is the delivery worker: it retries pending messages until ctx ends.
func (m *Mailer) Run(ctx context.Context) {
	if m.transport == nil {
		return
	}
	t := time.NewTicker(m.PollEvery)
	defer t.Stop()
	for {
		if _, err := m.DeliverDue(ctx); err != nil && ctx.Err() == nil {
			m.logger.Warn("mail: worker", "err", err)
		}
		if err := m.ForgetSent(ctx); err != nil && ctx.Err() == nil {
			m.logger.Warn("mail: worker", "err", err)
		}
		if _, err := m.PurgeDue(ctx); err != nil && ctx.Err() == nil {
			m.logger.Warn("mail: retention", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
