package pass

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
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
	"members/internal/validate"
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

// exchangeUnknown wraps an unexpected failure of the exchange.
func exchangeUnknown(err error) error {
	return &apperr.Error{Code: apperr.Internal, MsgKey: "pass.error.exchange_unknown", ErrorKey: "gogopass_exchange_unknown_error", Err: err}
}

// Exchange attempts allowed per member (wrong codes included) per window.
const (
	ExchangeAttempts = 10
	ExchangeWindow   = 15 * time.Minute
)

// DefaultBuyWindow is how long lottery winners may buy after the draw.
const DefaultBuyWindow = 7 * 24 * time.Hour

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

// plans returns the plans with their names in lang and only the periods
// still on sale today.
func (s *Service) plans(ctx context.Context, lang string, keep func(Period) bool) ([]Plan, error) {
	all, err := s.d.Store.Plans(ctx)
	if err != nil {
		return nil, fmt.Errorf("pass plans: %w", err)
	}
	today := TodayJST(s.d.Now())
	for i := range all {
		all[i].Name, all[i].NameAlt = s.d.Translate(lang, all[i].Name), s.d.Translate(lang, all[i].NameAlt)
	}
	return KeepPeriods(all, func(p *Plan) *[]Period { return &p.Periods }, func(pe *Period) bool {
		return pe.OnSale(today) && (keep == nil || keep(*pe))
	}), nil
}

// KeepPeriods is the catalogue filter of the pass and the coupon pass: each
// item keeps only the periods keep accepts (keep may change a period, to
// word it), and an item left without periods is dropped.
func KeepPeriods[I, P any](items []I, periods func(*I) *[]P, keep func(*P) bool) []I {
	out := []I{}
	for _, it := range items {
		ps := periods(&it)
		kept := []P{}
		for _, pe := range *ps {
			if keep(&pe) {
				kept = append(kept, pe)
			}
		}
		if len(kept) > 0 {
			*ps = kept
			out = append(out, it)
		}
	}
	return out
}

// Catalogue is the purchase page: the plans on sale and what the member
// may do now.
type Catalogue struct {
	GogoPasses []Plan `json:"gogoPasses"`
	// Purchasable is true when the member may buy now (sale open, or a
	// lottery winner inside the buying window, and no maintenance).
	Purchasable bool `json:"purchasable"`
	Maintenance bool `json:"maintenance"`
	// Wins are the member's winning entries still inside the buying window.
	Wins []Entry `json:"wins"`
}

// Catalogue lists the plans on sale. Not found unless the pass is public.
func (s *Service) Catalogue(ctx context.Context, memberID, lang string) (Catalogue, error) {
	st, err := s.public(ctx)
	if err != nil {
		return Catalogue{}, err
	}
	plans, err := s.plans(ctx, lang, nil)
	if err != nil {
		return Catalogue{}, err
	}
	wins, err := s.wins(ctx, memberID, lang)
	if err != nil {
		return Catalogue{}, err
	}
	c := Catalogue{GogoPasses: plans, Maintenance: st.IsGogoPassMaintenance, Wins: wins}
	c.Purchasable = !c.Maintenance && st.IsGogoPassPurchasable && (!st.IsGogoPassLotteryPhase || len(wins) > 0)
	return c, nil
}

// wins are the member's won entries whose buying window is still open.
func (s *Service) wins(ctx context.Context, memberID, lang string) ([]Entry, error) {
	entries, err := s.entries(ctx, memberID, lang)
	if err != nil {
		return nil, err
	}
	now := s.d.Now()
	out := []Entry{}
	for _, e := range entries {
		if e.Result == ResultWon && e.BuyUntil != nil && now.Before(*e.BuyUntil) {
			out = append(out, e)
		}
	}
	return out, nil
}

func (s *Service) entries(ctx context.Context, memberID, lang string) ([]Entry, error) {
	entries, err := s.d.Store.Entries(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("pass entries: %w", err)
	}
	for i := range entries {
		entries[i].Name, entries[i].NameAlt = s.d.Translate(lang, entries[i].Name), s.d.Translate(lang, entries[i].NameAlt)
	}
	return entries, nil
}

// Passes returns the member's passes (always readable, whatever the flags).
func (s *Service) Passes(ctx context.Context, memberID, lang string) ([]Pass, error) {
	ps, err := s.d.Store.Passes(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("passes: %w", err)
	}
	for i := range ps {
		ps[i].Name, ps[i].NameAlt = s.d.Translate(lang, ps[i].Name), s.d.Translate(lang, ps[i].NameAlt)
	}
	return ps, nil
}

// Selection is a plan, period and fare type chosen by the member (entry
// and purchase bodies).
type Selection struct {
	PlanID   string `json:"planId"`
	PeriodID string `json:"periodId"`
	FareType string `json:"fareType"`
}

// resolve checks a selection against the plans on sale (keep narrows the
// periods) and returns the plan and period. Field errors are 400.
func (s *Service) resolve(ctx context.Context, lang string, in Selection, keep func(Period) bool) (Plan, Period, error) {
	f := validate.Errors{}
	f.Required("planId", in.PlanID)
	f.Required("periodId", in.PeriodID)
	if f.Required("fareType", in.FareType) {
		f.Check("fareType", ValidFare(in.FareType), "pass.validation.choice")
	}
	if !f.Empty() {
		return Plan{}, Period{}, apperr.FromFields(f)
	}
	plans, err := s.plans(ctx, lang, keep)
	if err != nil {
		return Plan{}, Period{}, err
	}
	for _, p := range plans {
		if p.ID != in.PlanID {
			continue
		}
		for _, pe := range p.Periods {
			if pe.ID == in.PeriodID {
				return p, pe, nil
			}
		}
		f.Add("periodId", "pass.validation.choice")
		return Plan{}, Period{}, apperr.FromFields(f)
	}
	f.Add("planId", "pass.validation.choice")
	return Plan{}, Period{}, apperr.FromFields(f)
}

// Applicable is the lottery entry page: the periods open for entry and the
// member's entries.
type Applicable struct {
	Applicable bool    `json:"applicable"`
	GogoPasses []Plan  `json:"gogoPasses"`
	Entries    []Entry `json:"entries"`
}

func inLottery(p Period) bool { return p.LotteryQuota > 0 }

// lottery fails with not found outside the lottery phase.
func (s *Service) lottery(ctx context.Context) error {
	st, err := s.public(ctx)
	if err != nil {
		return err
	}
	if !st.IsGogoPassLotteryPhase {
		return apperr.ErrNotFound
	}
	return nil
}

// Applicable lists what the member can enter. Not found outside the
// lottery phase.
func (s *Service) Applicable(ctx context.Context, memberID, lang string) (Applicable, error) {
	if err := s.lottery(ctx); err != nil {
		return Applicable{}, err
	}
	entries, err := s.entries(ctx, memberID, lang)
	if err != nil {
		return Applicable{}, err
	}
	entered := map[string]bool{}
	for _, e := range entries {
		entered[e.PeriodID] = true
	}
	plans, err := s.plans(ctx, lang, func(p Period) bool { return inLottery(p) && !entered[p.ID] })
	if err != nil {
		return Applicable{}, err
	}
	return Applicable{Applicable: len(plans) > 0, GogoPasses: plans, Entries: entries}, nil
}

// EntryConfirmation is what the member confirms before entering.
type EntryConfirmation struct {
	Plan     Plan   `json:"plan"`
	Period   Period `json:"period"`
	FareType string `json:"fareType"`
}

// ValidateEntry checks an entry (400 with field errors, 409 when already
// entered) and returns what will be entered.
func (s *Service) ValidateEntry(ctx context.Context, memberID, lang string, in Selection) (EntryConfirmation, error) {
	if err := s.lottery(ctx); err != nil {
		return EntryConfirmation{}, err
	}
	plan, period, err := s.resolve(ctx, lang, in, inLottery)
	if err != nil {
		return EntryConfirmation{}, err
	}
	entries, err := s.d.Store.Entries(ctx, memberID)
	if err != nil {
		return EntryConfirmation{}, fmt.Errorf("pass entries: %w", err)
	}
	for _, e := range entries {
		if e.PeriodID == period.ID {
			return EntryConfirmation{}, ErrAlreadyEntered
		}
	}
	plan.Periods = []Period{period}
	return EntryConfirmation{Plan: plan, Period: period, FareType: in.FareType}, nil
}

// Apply enters the lottery and mails the entry confirmation (a mail
// failure does not undo the entry).
func (s *Service) Apply(ctx context.Context, memberID, lang string, in Selection) (Entry, error) {
	c, err := s.ValidateEntry(ctx, memberID, lang, in)
	if err != nil {
		return Entry{}, err
	}
	e := Entry{
		ID: s.d.NewID(), MemberID: memberID, PlanID: c.Plan.ID, PeriodID: c.Period.ID, FareType: c.FareType,
		Lang: lang, Result: ResultPending, CreatedAt: s.d.Now().UTC().Truncate(time.Millisecond),
		Name: c.Plan.Name, NameAlt: c.Plan.NameAlt,
		AvailablePeriodToBoard: c.Period.AvailablePeriodToBoard, AvailablePeriodToBook: c.Period.AvailablePeriodToBook,
	}
	if err := s.d.Store.InsertEntry(ctx, e); err != nil {
		if errors.Is(err, ErrConflict) {
			return Entry{}, ErrAlreadyEntered
		}
		return Entry{}, fmt.Errorf("insert entry: %w", err)
	}
	s.mail(ctx, memberID, lang, Mail{Kind: MailEntry, NameKey: s.nameKey(ctx, c.Plan, c.Period.ID), Period: c.Period.AvailablePeriodToBoard})
	return e, nil
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

// HashPassword is the stored form of an exchange code's password.
func HashPassword(password string) string {
	h := sha256.Sum256([]byte(password))
	return hex.EncodeToString(h[:])
}

// NormalizeCode is the stored form of an exchange code (trimmed, upper case).
func NormalizeCode(code string) string { return strings.ToUpper(strings.TrimSpace(code)) }

// ExchangeInput is the exchange body.
type ExchangeInput struct {
	Code     string `json:"code"`
	Password string `json:"password"`
}

// ExchangeOffer is the exchange-code object: the pass the code gives.
type ExchangeOffer struct {
	Code                   string `json:"code"`
	Name                   string `json:"name"`
	NameAlt                string `json:"nameAlt"`
	AvailablePeriodToBoard Range  `json:"availablePeriodToBoard"`
	AvailablePeriodToBook  Range  `json:"availablePeriodToBook"`
	FareType               string `json:"fareType"`
}

// ValidateExchange checks a code and password and returns what the code
// gives. 400 for blank fields, 500 gogopass_maintenance_error in
// maintenance, 500 gogopass_exchange_error for a code that cannot be
// exchanged, 429 after too many attempts.
func (s *Service) ValidateExchange(ctx context.Context, memberID, lang string, in ExchangeInput) (ExchangeOffer, error) {
	offer, _, err := s.checkExchange(ctx, memberID, lang, in)
	return offer, err
}

func (s *Service) checkExchange(ctx context.Context, memberID, lang string, in ExchangeInput) (ExchangeOffer, ExchangeCode, error) {
	st, err := s.public(ctx)
	if err != nil {
		return ExchangeOffer{}, ExchangeCode{}, err
	}
	in.Code, in.Password = strings.TrimSpace(in.Code), strings.TrimSpace(in.Password)
	f := validate.Errors{}
	f.Required("code", in.Code)
	f.MaxLen("code", in.Code, 100)
	f.Required("password", in.Password)
	f.MaxLen("password", in.Password, 100)
	if !f.Empty() {
		return ExchangeOffer{}, ExchangeCode{}, apperr.FromFields(f)
	}
	if st.IsGogoPassMaintenance {
		return ExchangeOffer{}, ExchangeCode{}, ErrMaintenance
	}
	w := ratelimit.Window{Counters: s.d.Counters, Length: ExchangeWindow, Limit: ExchangeAttempts, Now: s.d.Now}
	ok, err := w.Allow(ctx, "gogo_pass_exchange:"+memberID)
	if err != nil {
		return ExchangeOffer{}, ExchangeCode{}, exchangeUnknown(err)
	}
	if !ok {
		return ExchangeOffer{}, ExchangeCode{}, apperr.New(apperr.TooMany, "error.too_many_requests")
	}
	code, err := s.d.Store.ExchangeCode(ctx, NormalizeCode(in.Code))
	if errors.Is(err, ErrNotFound) {
		return ExchangeOffer{}, ExchangeCode{}, ErrExchange
	}
	if err != nil {
		return ExchangeOffer{}, ExchangeCode{}, exchangeUnknown(err)
	}
	if subtle.ConstantTimeCompare([]byte(code.PasswordHash), []byte(HashPassword(in.Password))) != 1 || code.RedeemedBy != "" {
		return ExchangeOffer{}, ExchangeCode{}, ErrExchange
	}
	plan, period, err := s.findPeriod(ctx, lang, code.PlanID, code.PeriodID)
	if err != nil {
		return ExchangeOffer{}, ExchangeCode{}, err
	}
	if err := s.checkNotHeld(ctx, memberID, period.ID); err != nil {
		if errors.Is(err, ErrAlreadyHeld) {
			return ExchangeOffer{}, ExchangeCode{}, err
		}
		return ExchangeOffer{}, ExchangeCode{}, exchangeUnknown(err)
	}
	return ExchangeOffer{
		Code: code.Code, Name: plan.Name, NameAlt: plan.NameAlt, FareType: code.FareType,
		AvailablePeriodToBoard: period.AvailablePeriodToBoard, AvailablePeriodToBook: period.AvailablePeriodToBook,
	}, code, nil
}

// findPeriod returns a period still on sale, or the exchange error.
func (s *Service) findPeriod(ctx context.Context, lang, planID, periodID string) (Plan, Period, error) {
	plans, err := s.plans(ctx, lang, nil)
	if err != nil {
		return Plan{}, Period{}, exchangeUnknown(err)
	}
	for _, p := range plans {
		for _, pe := range p.Periods {
			if p.ID == planID && pe.ID == periodID {
				return p, pe, nil
			}
		}
	}
	return Plan{}, Period{}, ErrExchange
}

// Exchange redeems a code for a pass (the code is used once, by one member).
func (s *Service) Exchange(ctx context.Context, memberID, lang string, in ExchangeInput) (Pass, error) {
	offer, code, err := s.checkExchange(ctx, memberID, lang, in)
	if err != nil {
		return Pass{}, err
	}
	plan, period, err := s.findPeriod(ctx, lang, code.PlanID, code.PeriodID)
	if err != nil {
		return Pass{}, err
	}
	p := Pass{
		ID: s.d.NewID(), Code: s.passCode(), MemberID: memberID, PlanID: plan.ID, PeriodID: period.ID,
		FareType: offer.FareType, CurrencyCode: period.CurrencyCode, PurchasedPrice: 0,
		PurchasedAt: s.d.Now().UTC().Truncate(time.Millisecond), Source: SourceExchange,
		AvailablePeriodToBoard: period.AvailablePeriodToBoard, AvailablePeriodToBook: period.AvailablePeriodToBook,
	}
	if err := s.d.Store.Redeem(ctx, code.ID, p); err != nil {
		if errors.Is(err, ErrHeld) {
			return Pass{}, ErrAlreadyHeld
		}
		if errors.Is(err, ErrConflict) {
			return Pass{}, ErrExchange
		}
		return Pass{}, exchangeUnknown(err)
	}
	p.Name, p.NameAlt = plan.Name, plan.NameAlt
	s.mail(ctx, memberID, lang, Mail{Kind: MailIssued, NameKey: s.nameKey(ctx, plan, period.ID), Period: period.AvailablePeriodToBoard, Code: p.Code})
	return p, nil
}

// passCode is a pass's number shown to the member and the booking site:
// "GP" and 10 upper-case hex digits from a random id.
func (s *Service) passCode() string { return "GP" + strings.ToUpper(s.d.NewID()[:10]) }

// Entries returns the member's lottery entries.
func (s *Service) Entries(ctx context.Context, memberID, lang string) ([]Entry, error) {
	return s.entries(ctx, memberID, lang)
}
