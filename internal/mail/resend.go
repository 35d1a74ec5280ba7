package mail

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// What Resend did with one mail.
const (
	ResendQueued      = "queued"         // pending again: the next delivery pass sends it
	ResendNotFailed   = "not failed"     // sent, pending or held: nothing to do
	ResendSecretsGone = "secrets erased" // given up before secrets were kept, or past the retention: refused
	ResendNotFound    = "not found"
)

// Resent is the outcome of one mail of a resend.
type Resent struct {
	ID, Kind, To string
	CreatedAt    time.Time
	Status       Status // before the resend
	Outcome      string // ResendQueued, ResendNotFailed, ResendSecretsGone, ResendNotFound
}

// SecretsGone reports whether a stored mail carried secrets the outbox no
// longer holds: its text still has their placeholders (sent, or given up
// and past the retention). Sent again, it would carry a dead link or no
// PIN.
func SecretsGone(s Stored) bool {
	if strings.Contains(s.Subject, secretMark) || strings.Contains(s.Text, secretMark) || strings.Contains(s.HTML, secretMark) {
		return true
	}
	for _, v := range s.Headers {
		if strings.Contains(v, secretMark) {
			return true
		}
	}
	return false
}

// NeverSent says why a mail that was not delivered is not on its way, or
// "" when it was sent or will be: a failed mail gave up after its last
// attempt.
func NeverSent(s Stored) string {
	if s.Status != Failed {
		return ""
	}
	what := fmt.Sprintf("never sent: the delivery gave up after %d attempts", s.Attempts)
	if SecretsGone(s) {
		return what + "; its secrets (a link, a PIN) are erased, so it cannot be sent again"
	}
	return what + "; `members mail resend " + s.ID + "` sends it again"
}

// Resend makes the failed mails ids pending again (attempts from zero,
// due now): the delivery worker of a serving instance sends them on its
// next pass, with their secrets. A mail that is not failed is left as it
// is; one whose secrets are erased is refused (it would go with a dead
// link or without its PIN).
func Resend(ctx context.Context, outbox Outbox, ids []string, now time.Time) ([]Resent, error) {
	out := make([]Resent, 0, len(ids))
	for _, id := range ids {
		s, err := outbox.Get(ctx, id)
		if errors.Is(err, ErrNotFound) {
			out = append(out, Resent{ID: id, Outcome: ResendNotFound})
			continue
		}
		if err != nil {
			return out, err
		}
		r, err := requeue(ctx, outbox, s, now)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// ResendBetween resends the failed mails made in [since, until).
func ResendBetween(ctx context.Context, outbox Outbox, since, until, now time.Time) ([]Resent, error) {
	if !since.Before(until) {
		return nil, fmt.Errorf("mail resend: --since %s is not before --until %s", since.Format(time.RFC3339), until.Format(time.RFC3339))
	}
	failed, err := outbox.Failed(ctx, since, until)
	if err != nil {
		return nil, err
	}
	out := make([]Resent, 0, len(failed))
	for _, s := range failed {
		r, err := requeue(ctx, outbox, s, now)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

func requeue(ctx context.Context, outbox Outbox, s Stored, now time.Time) (Resent, error) {
	r := Resent{ID: s.ID, Kind: s.Kind, To: s.To, CreatedAt: s.CreatedAt, Status: s.Status}
	switch {
	case s.Status != Failed:
		r.Outcome = ResendNotFailed
	case SecretsGone(s):
		r.Outcome = ResendSecretsGone
	default:
		ok, err := outbox.Requeue(ctx, s.ID, now)
		if err != nil {
			return r, err
		}
		r.Outcome = ResendQueued
		if !ok { // sent or requeued by another hand meanwhile
			r.Outcome = ResendNotFailed
		}
	}
	return r, nil
}
