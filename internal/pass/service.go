package pass

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"members/internal/apperr"
	"members/internal/i18n"
	"members/internal/notify"
	"members/internal/payment"
	"members/internal/platform"
	"members/internal/ratelimit"
)

// Status reads the operator's switches (platform.Service).
type Status interface {
	GogoPassStatus(ctx context.Context) (platform.GogoPassStatus, error)
}

// Holder is what the pass needs to know about a member.
type Holder struct {
	Email, Firstname, Lastname string
	// MailLang is the mail language the member chose ("" for none).
	MailLang string
	// Lang is the language of the mail to the holder: Service.send
	// decides it (notify.MailLang) and writes every part of the mail in it.
	Lang string
}

// Members finds a member; apperr.ErrNotFound when unknown.
type Members interface {
	Holder(ctx context.Context, memberID string) (Holder, error)
}

// Mail kinds sent by the pass (texts mail.<kind>.* in pass.<lang>.json).
const (
	MailEntry       = "gogo_pass_entry"
	MailLotteryWon  = "gogo_pass_lottery_won"
	MailLotteryLost = "gogo_pass_lottery_lost"
	MailIssued      = "gogo_pass_issued"
)

// Mail is one pass mail to a member.
type Mail struct {
	Kind string
	To   Holder
	// NameKey is the plan's name as a catalogue key (a row recorded before
	// may hold a name written out: it is used as it is). UntilAt is the
	// last moment a winner may buy. Service.send writes both in the
	// mail's language into Name and Until.
	NameKey string
	UntilAt time.Time
	// Name is the plan's name, Until the last moment a winner may buy
	// (Japan time), both in the mail's language; Code a pass's code.
	Name, Until, Code string
	// Period is the boarding window; the mailer writes it in the mail's
	// language (RangeIn).
	Period Range
}

// Mailer sends pass mails (adapter over the app's mailer).
type Mailer interface {
	SendPassMail(ctx context.Context, m Mail) error
}

// Translate returns the text of a catalogue key in a language.
type Translate func(lang, key string) string

// Deps are the service's collaborators.
type Deps struct {
	Store     Store
	Status    Status
	Members   Members
	Mailer    Mailer
	Translate Translate
	Counters  ratelimit.Counters
	Now       func() time.Time
	NewID     func() string
	Logger    *slog.Logger
}

// Service is the unlimited pass.
type Service struct{ d Deps }

// NewService returns the service.
func NewService(d Deps) *Service { return &Service{d: d} }

// Errors the member sees.
var (
	// ErrMaintenance is the daily maintenance window (or the operator's
	// switch). Like every catalogued errorKey it is a 500 with its key: the
	// page reads the key, not the status.
	ErrMaintenance = &apperr.Error{Code: apperr.Internal, MsgKey: "pass.error.maintenance", ErrorKey: "gogopass_maintenance_error", Expected: true}
	// ErrExchange is a code that cannot be exchanged (unknown, wrong
	// password, already used, sale over): the member contacts the centre.
	// A 500 with its key as well, logged at INFO (no fault of the server).
	ErrExchange = &apperr.Error{Code: apperr.Internal, MsgKey: "pass.error.exchange", ErrorKey: "gogopass_exchange_error", Expected: true}
	// ErrAlreadyEntered is a second entry for the same period.
	ErrAlreadyEntered = apperr.New(apperr.Conflict, "pass.error.already_entered")
	// ErrAlreadyHeld is a purchase or exchange of a period the member
	// holds a pass of, or is paying for.
	ErrAlreadyHeld = &apperr.Error{Code: apperr.Conflict, MsgKey: "pass.error.already_held", ErrorKey: "gogopass_already_held"}
)

// RefusedHeld is the failure code of a purchase whose capture was refunded
// because the member came to hold the period meanwhile (an exchange or
// another purchase won the race).
const RefusedHeld = "refused_already_held"

// checkNotHeld refuses a period the member holds a pass of or has in a
// pending payment: one pass per member and period, whichever way it comes
// (a purchase, a lottery win, an exchange code). The database keeps the
// same rule (one pass per member and period), so a race past this check
// grants one pass and refunds the other payment. A pending payment of the
// period is ErrAlreadyHeld too ("or a payment for it is being processed"):
// a purchase asks checkNotBought instead, which names that payment.
func (s *Service) checkNotHeld(ctx context.Context, memberID, periodID string) error {
	if err := s.checkNotBought(ctx, memberID, periodID); err != nil {
		if errors.Is(err, payment.ErrPendingSameGoods) {
			return ErrAlreadyHeld
		}
		return err
	}
	return nil
}

// checkNotBought refuses the purchase of a period the member holds a pass
// of (ErrAlreadyHeld) or has a pending payment for (a slip left for later:
// payment.ErrPendingSameGoods, which sends the member to Pending payments;
// paying both would buy the period twice). The payment engine keeps the
// second rule in the database too (Order.Once, a unique index over the
// open payments), so two purchases racing past this check cannot both
// be open.
func (s *Service) checkNotBought(ctx context.Context, memberID, periodID string) error {
	held, err := s.d.Store.HeldPeriods(ctx, memberID)
	if err != nil {
		return fmt.Errorf("held periods: %w", err)
	}
	for _, p := range held {
		if p == periodID {
			return ErrAlreadyHeld
		}
	}
	orders, err := s.d.Store.PendingOrders(ctx, memberID)
	if err != nil {
		return fmt.Errorf("pending pass orders: %w", err)
	}
	for _, raw := range orders {
		var d orderDetails
		if err := json.Unmarshal(raw, &d); err != nil {
			return fmt.Errorf("pending pass order: %w", err)
		}
		if d.PeriodID == periodID {
			return payment.ErrPendingSameGoods
		}
	}
	return nil
}

func (s *Service) status(ctx context.Context) (platform.GogoPassStatus, error) {
	st, err := s.d.Status.GogoPassStatus(ctx)
	if err != nil {
		return st, fmt.Errorf("pass status: %w", err)
	}
	return st, nil
}

// public fails with not found unless the pass pages are public.
func (s *Service) public(ctx context.Context) (platform.GogoPassStatus, error) {
	st, err := s.status(ctx)
	if err != nil {
		return st, err
	}
	if !st.IsGogoPassPublic {
		return st, apperr.ErrNotFound
	}
	return st, nil
}

// RangeIn writes a calendar range in the language's written form
// ("Feb 14, 2027 – May 15, 2027", "2027年2月14日 – 2027年5月15日"),
// never as ISO dates.
func RangeIn(lang i18n.Lang, r Range) string {
	return i18n.FormatISODate(lang, r.Begin) + " – " + i18n.FormatISODate(lang, r.End)
}

// mail sends a mail to a member, logging failures. The mail's language is
// the member's mail language, else fallback (the language of the page
// where the member did what the mail is about: the entry, the purchase,
// the exchange); the plan's name and the deadline are written in it here,
// not taken from a text of another language.
func (s *Service) mail(ctx context.Context, memberID, fallback string, m Mail) {
	if err := s.send(ctx, memberID, fallback, m); err != nil {
		s.d.Logger.Warn("pass mail", "kind", m.Kind, "member", memberID, "err", err)
	}
}

// send is mail without the log: the error is the caller's.
func (s *Service) send(ctx context.Context, memberID, fallback string, m Mail) error {
	h, err := s.d.Members.Holder(ctx, memberID)
	if err != nil {
		return err
	}
	fb, _ := i18n.Parse(fallback)
	lang := notify.MailLang(h.MailLang, fb)
	h.Lang = string(lang)
	m.To = h
	if m.NameKey != "" {
		m.Name = s.d.Translate(h.Lang, m.NameKey)
	}
	if !m.UntilAt.IsZero() {
		m.Until = i18n.FormatDateTime(lang, m.UntilAt.In(JST)) + " (UTC+09:00)"
	}
	return s.d.Mailer.SendPassMail(ctx, m)
}

// nameKey is the catalogue key of plan's name (plan as shown, its name
// written in the page's language), for a mail that writes it in its own
// language; the written name when the plan cannot be read again.
func (s *Service) nameKey(ctx context.Context, plan Plan, periodID string) string {
	raw, err := s.period(ctx, plan.ID, periodID)
	if err != nil {
		s.d.Logger.Warn("pass mail: plan name", "plan", plan.ID, "err", err)
		return plan.Name
	}
	return raw.Name
}

// passCode is a pass's number shown to the member and the booking site:
// "GP" and 10 upper-case hex digits from a random id.
func (s *Service) passCode() string { return "GP" + strings.ToUpper(s.d.NewID()[:10]) }
