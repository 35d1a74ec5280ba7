package pass

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"members/internal/apperr"
	"members/internal/ratelimit"
	"members/internal/validate"
)

// exchangeUnknown wraps an unexpected failure of the exchange.
func exchangeUnknown(err error) error {
	return &apperr.Error{Code: apperr.Internal, MsgKey: "pass.error.exchange_unknown", ErrorKey: "gogopass_exchange_unknown_error", Err: err}
}

// Exchange attempts allowed per member (wrong codes included) per window.
const (
	ExchangeAttempts = 10
	ExchangeWindow   = 15 * time.Minute
)

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
