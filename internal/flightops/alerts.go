package flightops

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"members/internal/notify"
)

// CoalesceWindow is how long a flight's changes gather before the member
// is mailed: the updates inside it (three estimates of one delay) give one
// mail with the latest state. A cancellation is mailed at once.
const CoalesceWindow = 10 * time.Minute

// alertLease is how long a sender owns the alert it took; longer than a
// mail's send timeout, so a live sender never loses it mid-send.
const alertLease = 2 * time.Minute

// AlertDue is when the mail of a change may go: after the coalescing
// window, or at once for a cancellation.
func AlertDue(st State, now time.Time, window time.Duration) time.Time {
	if st.IsCancelled() {
		return now
	}
	return now.Add(window)
}

// Alert is a flight change mail owed to one member.
type Alert struct {
	Flight, Date, MemberID string
}

// Recipient is who an alert goes to: the member's address, name and mail
// language, and the member's bookings on the flight.
type Recipient struct {
	Email, Firstname, Lastname, Lang string
	PNRs                             []string
}

// AlertStore keeps the mails owed (internal/store.FlightOpsStore).
type AlertStore interface {
	// DueAlerts returns up to limit alerts due at now and not leased.
	DueAlerts(ctx context.Context, now time.Time, limit int) ([]Alert, error)
	// TakeAlert leases a due alert to owner until until; false when
	// another sender has it or it is no longer due.
	TakeAlert(ctx context.Context, a Alert, owner string, now, until time.Time) (bool, error)
	// AlertRecipient returns the flight's state and the member to mail.
	AlertRecipient(ctx context.Context, a Alert) (State, Recipient, error)
	// AlertSent records that the change sequence was mailed (or skipped)
	// and ends owner's lease.
	AlertSent(ctx context.Context, a Alert, owner string, sequence int) error
}

// ChangeMail is one flight change mail.
type ChangeMail struct {
	MemberID string
	To       Recipient
	State    State
}

// Settings are the members' notification settings (notify.Service): a
// member may switch flight change mails off.
type Settings interface {
	Allows(ctx context.Context, memberID string, k notify.Kind) (bool, error)
}

// Mailer sends flight change mails through the outbox.
type Mailer interface {
	SendFlightChange(ctx context.Context, m ChangeMail) error
}

// Alerts mails the members on changed flights.
type Alerts struct {
	store    AlertStore
	mailer   Mailer
	settings Settings
	now      func() time.Time
	logger   *slog.Logger
	owner    string
	wake     chan struct{}
}

// NewAlerts returns the sender; each instance has its own lease owner.
func NewAlerts(st AlertStore, m Mailer, settings Settings, now func() time.Time, logger *slog.Logger) *Alerts {
	return &Alerts{store: st, mailer: m, settings: settings, now: now, logger: logger, owner: randomHex(8), wake: make(chan struct{}, 1)}
}

// Wake asks the running sender (Run) for a pass now, not at its next
// interval: the instance that applied a change whose mail is due at once
// (a cancellation) calls it. It never blocks; wakes while a pass runs
// make one more pass.
func (a *Alerts) Wake() {
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// SendDue makes one pass: each due alert is leased, mailed in the member's
// language with the flight's latest state, and marked sent. A member who
// switched flight change mails off is not mailed: the alert is marked sent
// all the same, with a log line (the setting is read at this moment, so a
// switch made inside the coalescing window counts). It returns the number
// of mails handed to the outbox.
func (a *Alerts) SendDue(ctx context.Context) (int, error) {
	sent, _, err := a.sendDue(ctx)
	return sent, err
}

// alertsPass is the most alerts one pass takes.
const alertsPass = 200

// sendDue is SendDue; full reports a pass that took alertsPass alerts
// (more may be due).
func (a *Alerts) sendDue(ctx context.Context) (sent int, full bool, err error) {
	now := a.now()
	due, err := a.store.DueAlerts(ctx, now, alertsPass)
	if err != nil {
		return 0, false, fmt.Errorf("flight alerts: %w", err)
	}
	full = len(due) == alertsPass
	for _, al := range due {
		ok, err := a.store.TakeAlert(ctx, al, a.owner, now, now.Add(alertLease))
		if err != nil {
			return sent, full, fmt.Errorf("flight alerts: take: %w", err)
		}
		if !ok {
			continue
		}
		st, to, err := a.store.AlertRecipient(ctx, al)
		if err != nil {
			return sent, full, fmt.Errorf("flight alerts: %w", err)
		}
		wanted, err := a.settings.Allows(ctx, al.MemberID, notify.FlightChanges)
		if err != nil {
			return sent, full, fmt.Errorf("flight alerts: %w", err)
		}
		if len(to.PNRs) > 0 && !wanted {
			a.logger.Info("flight alert not mailed: the member switched flight change mails off",
				"flight", al.Flight, "date", al.Date, "member", al.MemberID, "sequence", st.Sequence)
		}
		if len(to.PNRs) > 0 && wanted {
			if err := a.mailer.SendFlightChange(ctx, ChangeMail{MemberID: al.MemberID, To: to, State: st}); err != nil {
				// Stored in the outbox, which retries delivery; storing
				// failed otherwise: the lease runs out and a pass retries.
				continue
			}
			sent++
		}
		if err := a.store.AlertSent(ctx, al, a.owner, st.Sequence); err != nil {
			return sent, full, fmt.Errorf("flight alerts: mark sent: %w", err)
		}
	}
	return sent, full, nil
}

// Run sends due alerts every interval, and when woken (Wake), until ctx
// ends (a background job; safe on several instances at once). A pass that
// found a full page of
// due alerts is followed by the next at once: on a day of many changes
// (hundreds of flights cancelled, each with its members to mail) the
// mails go as fast as they can be written, not a page per interval.
func (a *Alerts) Run(ctx context.Context, every time.Duration, onErr func(error)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		_, full, err := a.sendDue(ctx)
		if err != nil && ctx.Err() == nil {
			onErr(err)
		}
		if full && err == nil && ctx.Err() == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-a.wake:
		}
	}
}
