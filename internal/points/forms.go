package points

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"members/internal/apperr"
	"members/internal/i18n"
	"members/internal/notify"
	"members/internal/ratelimit"
	"members/internal/validate"
)

// The error keys the points pages read.
const (
	KeyReissueError         = "voucher_reissue_error"
	KeyReissueUnknownError  = "voucher_reissue_unknown_error"
	KeyExchangeMismatch     = "peachpoint_exchange_mismatch_error"
	KeyExchangeError        = "peachpoint_exchange_error"
	KeyExchangeUnknownError = "peachpoint_exchange_unknown_error"
	KeyMailError            = "mobile_mail_error"
)

// ReissueCurrencies are the currencies whose expired vouchers can be
// reissued (the CNY and TWD variants of the reissue page).
var ReissueCurrencies = []string{"CNY", "TWD"}

// Checks of a PIN or an exchange password are limited per member, so
// neither can be guessed by trying: every check counts (reserved
// atomically before the check, so parallel requests cannot slip past the
// limit). 40 in 15 minutes is far above what a member needs and far below
// what guessing an 8-digit PIN or 8-character password takes.
const (
	guessWindow = 15 * time.Minute
	guessLimit  = 40
)

// errorWithKey is a fault (a store failure) answered with its catalogue
// key: logged at ERROR.
func errorWithKey(key string, err error) error {
	return &apperr.Error{Code: apperr.Internal, MsgKey: "points.error." + key, ErrorKey: key, Err: err}
}

// answerWithKey is a catalogued answer to what the member did (a wrong
// code or password, a used code, a voucher reissued already): the same
// 500 with its key, logged at INFO since it is no fault of the server.
func answerWithKey(key string, err error) error {
	return &apperr.Error{Code: apperr.Internal, MsgKey: "points.error." + key, ErrorKey: key, Err: err, Expected: true}
}

// usedCodeAnswer is the exchange error of a code used already: the same
// errorKey, with a message that says what happened.
func usedCodeAnswer(err error) error {
	return &apperr.Error{Code: apperr.Internal, MsgKey: "points.error.exchange_code_used", ErrorKey: KeyExchangeError, Err: err, Expected: true}
}

// guard counts one check for the member and refuses it over the limit.
func (s *Service) guard(ctx context.Context, kind, memberID string) error {
	w := ratelimit.Window{Counters: s.counters, Length: guessWindow, Limit: guessLimit, Now: s.now}
	ok, err := w.Allow(ctx, "points:"+kind+":"+memberID)
	if err != nil {
		return fmt.Errorf("throttle: %w", err)
	}
	if !ok {
		return apperr.New(apperr.TooMany, "points.too_many_attempts")
	}
	return nil
}

// ReissueInput is the reissue form.
type ReissueInput struct {
	PointNumber string `json:"pointNumber"`
	Pin         string `json:"pin"`
	Email       string `json:"email"`
	// CurrencyCode is the page's currency (the CNY or the TWD page): a
	// voucher in another currency is refused there. Empty accepts either.
	CurrencyCode string `json:"currencyCode"`
}

// ValidateResult is the validate answer: the voucher concerned.
type ValidateResult struct {
	Peachpoint VoucherView `json:"peachpoint"`
}

// IssueResult is a new voucher with its PIN (shown this once) and an error
// key when the notification mail failed.
type IssueResult struct {
	Peachpoint VoucherView `json:"peachpoint"`
	Pin        string      `json:"pin"`
	ErrorKey   string      `json:"errorKey,omitempty"`
}

// errAlready marks a voucher that has been reissued already.
var errAlready = errors.New("already reissued")

// checkReissue finds the expired voucher of the form, checking its PIN.
func (s *Service) checkReissue(ctx context.Context, memberID string, in *ReissueInput) (Voucher, error) {
	in.PointNumber, in.Pin, in.Email = strings.TrimSpace(in.PointNumber), strings.TrimSpace(in.Pin), strings.TrimSpace(in.Email)
	errs := validate.Errors{}
	if errs.Required("pointNumber", in.PointNumber) {
		errs.MaxLen("pointNumber", in.PointNumber, MaxTextLength)
	}
	if errs.Required("pin", in.Pin) {
		errs.MaxLen("pin", in.Pin, MaxTextLength)
	}
	if errs.Required("email", in.Email) {
		errs.MaxLen("email", in.Email, MaxTextLength)
		errs.Email("email", in.Email)
	}
	in.CurrencyCode = strings.ToUpper(strings.TrimSpace(in.CurrencyCode))
	errs.Check("currencyCode", in.CurrencyCode == "" || contains(ReissueCurrencies, in.CurrencyCode), "points.validation.reissue_currency")
	if !errs.Empty() {
		return Voucher{}, apperr.FromFields(errs)
	}
	// The new PIN is mailed to the member's registered address only: a
	// session taken over must not send a voucher's PIN anywhere it likes.
	// The form's address is the confirmation the screen asks for, so one
	// that differs is a field error, not a quiet change of recipient.
	c, err := s.store.Contact(ctx, memberID)
	if err != nil {
		return Voucher{}, fmt.Errorf("member contact: %w", err)
	}
	if !strings.EqualFold(strings.TrimSpace(c.Email), in.Email) {
		return Voucher{}, apperr.FromFields(validate.Errors{"email": {Key: "points.validation.registered_email"}})
	}
	if err := s.guard(ctx, "pin", memberID); err != nil {
		return Voucher{}, err
	}
	v, err := s.store.ByNumber(ctx, in.PointNumber)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Voucher{}, fmt.Errorf("voucher: %w", err)
	}
	// An unknown number, a wrong PIN and another member's voucher get the
	// same answer. A voucher nobody holds (a gift) is claimed by its PIN.
	if err != nil || (v.MemberID != "" && v.MemberID != memberID) || !s.hasher.Verify(in.Pin, v.PinHash) {
		return Voucher{}, apperr.FromFields(validate.Errors{"pin": {Key: "points.validation.number_or_pin"}})
	}
	today := Today(s.now())
	switch {
	case v.StatusCode == StatusReissued:
		return v, &apperr.Error{Code: apperr.Invalid, MsgKey: "validation.something",
			Fields: validate.Errors{"pointNumber": {Key: "points.validation.already_reissued"}}, Err: errAlready}
	case !contains(ReissueCurrencies, v.Currency):
		return v, apperr.FromFields(validate.Errors{"pointNumber": {Key: "points.validation.reissue_currency"}})
	case in.CurrencyCode != "" && v.Currency != in.CurrencyCode:
		// the CNY page reissues CNY vouchers only, the TWD page TWD ones
		return v, apperr.FromFields(validate.Errors{"pointNumber": {Key: "points.validation.reissue_other_page", Args: []any{"currency", v.Currency}}})
	case StatusOf(v, today) != StatusExpired || v.Balance == 0:
		return v, apperr.FromFields(validate.Errors{"pointNumber": {Key: "points.validation.not_expired"}})
	}
	return v, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ValidateReissue is the confirm step of the reissue flow.
func (s *Service) ValidateReissue(ctx context.Context, memberID string, lang i18n.Lang, in ReissueInput) (ValidateResult, error) {
	v, err := s.checkReissue(ctx, memberID, &in)
	if err != nil {
		return ValidateResult{}, err
	}
	return ValidateResult{Peachpoint: s.View(v, lang, Today(s.now()))}, nil
}

// Reissue replaces an expired CNY or TWD voucher by a new one holding its
// balance, mails the new number and PIN to the member's registered address
// (the form's address must be that one) and returns them. The same voucher is reissued once: a repeat (or a race) gets
// voucher_reissue_error.
func (s *Service) Reissue(ctx context.Context, memberID string, lang i18n.Lang, in ReissueInput) (IssueResult, error) {
	old, err := s.checkReissue(ctx, memberID, &in)
	if errors.Is(err, errAlready) {
		return IssueResult{}, answerWithKey(KeyReissueError, err)
	}
	if err != nil {
		return IssueResult{}, err
	}
	nv := newVoucher(memberID, old.Currency, old.Balance, SourceReissue, s.now())
	nv.Rules, nv.ReissuedFrom, nv.IssuedName = old.Rules, old.ID, old.IssuedName
	pin, err := s.create(ctx, &nv, "reissue:"+old.Number, func(v Voucher) error { return s.store.Reissue(ctx, old, v) })
	switch {
	case errors.Is(err, ErrAlreadyReissued):
		return IssueResult{}, answerWithKey(KeyReissueError, err)
	case err != nil:
		return IssueResult{}, errorWithKey(KeyReissueUnknownError, err)
	}
	res := IssueResult{Peachpoint: s.View(nv, lang, Today(s.now())), Pin: pin}
	// the voucher is made; the mail is what may fail
	if err := s.notify(ctx, memberID, "reissued", nv, pin, lang); err != nil {
		res.ErrorKey = KeyMailError
	}
	return res, nil
}

// ExchangeInput is the exchange request: a code and its
// password; Ana selects the partner-miles variant.
type ExchangeInput struct {
	Code     string `json:"code"`
	Password string `json:"password"`
	Ana      bool   `json:"ana"`
}

// ExchangePreview is the confirm step's answer: what the code turns into.
type ExchangePreview struct {
	Code         string `json:"code"`
	CurrencyCode string `json:"currencyCode"`
	Amount       int64  `json:"amount"`
	Ana          bool   `json:"ana"`
}

// checkExchange finds the unused code of the request, checking its password.
func (s *Service) checkExchange(ctx context.Context, memberID string, in *ExchangeInput) (ExchangeCode, error) {
	in.Code, in.Password = strings.ToUpper(strings.TrimSpace(in.Code)), strings.TrimSpace(in.Password)
	errs := validate.Errors{}
	if in.Code == "" {
		errs.Add("code", "points.validation.code_required")
	}
	errs.MaxLen("code", in.Code, MaxTextLength)
	if errs.Required("password", in.Password) {
		errs.MaxLen("password", in.Password, MaxTextLength)
	}
	if !errs.Empty() {
		return ExchangeCode{}, apperr.FromFields(errs)
	}
	if err := s.guard(ctx, "code", memberID); err != nil {
		return ExchangeCode{}, err
	}
	c, err := s.store.CodeByCode(ctx, in.Code)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return ExchangeCode{}, errorWithKey(KeyExchangeUnknownError, err)
	}
	// An unknown code, a wrong password and a code of the other kind
	// (partner miles on the code page or the other way round) are one
	// answer: the mismatch screen of the page's variant.
	if err != nil || !s.hasher.Verify(in.Password, c.PasswordHash) || c.Ana != in.Ana {
		return ExchangeCode{}, answerWithKey(KeyExchangeMismatch, errors.New("code, password or kind do not match"))
	}
	if c.UsedAt != nil {
		return ExchangeCode{}, usedCodeAnswer(ErrCodeUsed)
	}
	return c, nil
}

// ValidateExchange is the confirm step of the exchange flow.
func (s *Service) ValidateExchange(ctx context.Context, memberID string, in ExchangeInput) (ExchangePreview, error) {
	c, err := s.checkExchange(ctx, memberID, &in)
	if err != nil {
		return ExchangePreview{}, err
	}
	return ExchangePreview{Code: c.Code, CurrencyCode: c.Currency, Amount: c.Amount, Ana: c.Ana}, nil
}

// Exchange turns the code into a voucher of the member, once: the store
// marks the code used and creates the voucher in one transaction, so of
// concurrent requests exactly one wins.
func (s *Service) Exchange(ctx context.Context, memberID string, lang i18n.Lang, in ExchangeInput) (IssueResult, error) {
	c, err := s.checkExchange(ctx, memberID, &in)
	if err != nil {
		return IssueResult{}, err
	}
	v := newVoucher(memberID, c.Currency, c.Amount, SourceExchange, s.now())
	v.ExchangeCodeID = c.ID
	pin, err := s.create(ctx, &v, "exchange:"+c.Code, func(v Voucher) error { return s.store.Redeem(ctx, c.ID, memberID, v) })
	switch {
	case errors.Is(err, ErrCodeUsed):
		return IssueResult{}, usedCodeAnswer(err)
	case err != nil:
		return IssueResult{}, errorWithKey(KeyExchangeUnknownError, err)
	}
	res := IssueResult{Peachpoint: s.View(v, lang, Today(s.now())), Pin: pin}
	if err := s.notify(ctx, memberID, "issued", v, pin, lang); err != nil {
		res.ErrorKey = KeyMailError
	}
	return res, nil
}

// notify mails the member about voucher v, which the member just bought,
// exchanged or had reissued on a page in fallback: in the member's mail
// language, else fallback (notify.MailLang), as every other mail about a
// member's action, so the voucher's mail and the payment slip's of one
// purchase speak the same language.
func (s *Service) notify(ctx context.Context, memberID, kind string, v Voucher, pin string, fallback i18n.Lang) error {
	c, err := s.store.Contact(ctx, memberID)
	if err != nil {
		return fmt.Errorf("contact: %w", err)
	}
	c.Lang = string(notify.MailLang(c.MailLang, fallback))
	return s.mailer.SendPoints(ctx, Mail{Kind: kind, To: c, Voucher: v, Pin: pin})
}
