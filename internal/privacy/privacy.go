// Package privacy is "your data": the export of everything the product
// holds about a member (each feature contributes one Part), and account
// deletion after re-authentication and a confirmation mail, which erases or
// anonymises the member's personal data and keeps, without the person's
// name, what the airline must keep (payments, issued passes and vouchers).
// It imports neither SQL nor HTTP.
package privacy

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"members/internal/account"
	"members/internal/apperr"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/notify"
	"members/internal/ratelimit"
	"members/internal/validate"
)

// Part is one feature's share of a member's data in the export. Key names
// the part in the file ("profile", "bookings"…); Export returns a value
// that encodes as JSON (a list of rows or one object).
type Part struct {
	Key    string
	Export func(ctx context.Context, memberID string) (any, error)
}

// ErrNotFound is what a Store returns for an unknown member or deletion token.
var ErrNotFound = errors.New("privacy: not found")

// Member is what deletion needs to know of the member.
type Member struct {
	Email string
	// Given and Family are the member's names (the mail writes them in
	// the language's order).
	Given, Family string
	PasswordHash  string
	// MailLang is the mail language the member chose ("" for none).
	MailLang string
}

// Store keeps deletion requests and erases a member.
type Store interface {
	// Member returns the member; ErrNotFound when unknown or deleted.
	Member(ctx context.Context, memberID string) (Member, error)
	// CreateDeletion records a confirmation token (its hash) for memberID,
	// replacing an earlier one.
	CreateDeletion(ctx context.Context, memberID, tokenHash string, at, expires time.Time) error
	// DeletionMember returns the member of an unexpired token; ErrNotFound otherwise.
	DeletionMember(ctx context.Context, tokenHash string, now time.Time) (string, error)
	// Erase anonymises the member in one transaction: personal data erased,
	// sessions and saved cards deleted, payments and vouchers kept without
	// names, the e-mail address freed. ErrNotFound when already deleted;
	// ErrStorePaymentPending when a payment of the member is pending.
	Erase(ctx context.Context, memberID string, at time.Time) error
}

// Cards forgets a member's saved cards at the payment gateway (and here).
// Nil when the payments feature is not wired.
type Cards interface {
	ForgetAll(ctx context.Context, memberID string) error
}

// Holdings tells what a member would lose by deleting the account now, and
// the payment that blocks it. Nil when the payment features are not wired.
type Holdings interface {
	// PendingPayment is the member's payment still waiting for the
	// gateway (nil when none).
	PendingPayment(ctx context.Context, memberID string) (*PendingPayment, error)
	// RefundableCoupons are coupon passes the member could still refund.
	RefundableCoupons(ctx context.Context, memberID string, lang i18n.Lang) ([]LostCoupon, error)
	// PointBalances are the usable point balances per currency (only
	// those above zero).
	PointBalances(ctx context.Context, memberID string, lang i18n.Lang) ([]LostPoints, error)
}

// PendingPayment names a payment in flight: its status page is
// /payment/<productType>/<paymentProcessId>.
type PendingPayment struct {
	PaymentProcessID string `json:"paymentProcessId"`
	ProductType      string `json:"productType"`
}

// LostCoupon is a refundable coupon pass a deletion forfeits.
type LostCoupon struct {
	// Ack is what the confirmation must carry to accept losing it.
	Ack          string `json:"ack"`
	ID           string `json:"id"`
	Name         string `json:"name"`
	CurrencyCode string `json:"currencyCode"`
	RefundAmount int64  `json:"refundAmount"`
}

// LostPoints is a point balance a deletion forfeits.
type LostPoints struct {
	Ack          string `json:"ack"`
	CurrencyCode string `json:"currencyCode"`
	Currency     string `json:"currency"`
	Amount       int64  `json:"amount"`
}

// Losses is what the deletion page lists before the member confirms.
type Losses struct {
	PendingPayment *PendingPayment `json:"pendingPayment"`
	Coupons        []LostCoupon    `json:"coupons"`
	Points         []LostPoints    `json:"points"`
}

// Errors of a deletion the member can act on.
var (
	// ErrPaymentPending: a payment is still waiting for the gateway; its
	// goods or its refund would have no account to go to.
	ErrPaymentPending = &apperr.Error{Code: apperr.Conflict, MsgKey: "security.deletion.payment_pending", ErrorKey: "account_deletion_payment_pending"}
	// ErrUnconfirmedLosses: a refundable coupon or a point balance was not
	// confirmed by the member.
	ErrUnconfirmedLosses = &apperr.Error{Code: apperr.Conflict, MsgKey: "security.deletion.unconfirmed_losses", ErrorKey: "account_deletion_unconfirmed"}
	// ErrStorePaymentPending is what Store.Erase returns when it finds a
	// pending payment inside its transaction.
	ErrStorePaymentPending = errors.New("privacy: payment pending")
)

// PasswordVerifier checks a password against its stored hash.
type PasswordVerifier interface {
	Verify(password, encoded string) bool
}

// Mailer sends mail (stored in the outbox first).
type Mailer interface {
	Send(ctx context.Context, m mail.Message) error
}

// Deps are the service's dependencies.
type Deps struct {
	Store     Store
	Parts     []Part
	Cards     Cards
	Holdings  Holdings
	Passwords PasswordVerifier
	Counters  ratelimit.Counters
	Mailer    Mailer
	Templates *mail.Templates
	PublicURL string
	Now       func() time.Time
	Logger    *slog.Logger
}

// Service is the your-data feature.
type Service struct{ d Deps }

// NewService builds the service.
func NewService(d Deps) *Service {
	d.PublicURL = strings.TrimRight(d.PublicURL, "/")
	return &Service{d: d}
}

// Export is the whole file: when it was made and each part by its key.
type Export struct {
	ExportedAt time.Time      `json:"exportedAt"`
	MemberID   string         `json:"memberId"`
	Parts      map[string]any `json:"parts"`
}

// FileName is the download's name, dated on the Japan calendar like every
// "today" of the product (an export at 23:30 UTC is the next day's).
func (e Export) FileName() string {
	return "members-data-" + account.TodayInJapan(e.ExportedAt).Format("2006-01-02") + ".json"
}

// Export collects every part for the member.
func (s *Service) Export(ctx context.Context, memberID string) (Export, error) {
	out := Export{ExportedAt: s.d.Now().UTC(), MemberID: memberID, Parts: map[string]any{}}
	for _, p := range s.d.Parts {
		v, err := p.Export(ctx, memberID)
		if err != nil {
			return Export{}, fmt.Errorf("export %s: %w", p.Key, err)
		}
		out.Parts[p.Key] = v
	}
	return out, nil
}

// PartKeys lists the keys of the export's parts, in order.
func (s *Service) PartKeys() []string {
	keys := make([]string, len(s.d.Parts))
	for i, p := range s.d.Parts {
		keys[i] = p.Key
	}
	return keys
}

// DeletionTTL is how long the confirmation link of a deletion works.
const DeletionTTL = time.Hour

// maxWrongPassword is how many wrong passwords a member may give when
// asking for deletion in a throttle window, as for a password change.
const maxWrongPassword = 5

// throttleWindow is the length of that window.
const throttleWindow = 15 * time.Minute

// DeletionRequest is the re-authentication that starts a deletion.
type DeletionRequest struct {
	Password string `json:"password"`
}

// RequestResult says whether the confirmation mail went out.
type RequestResult struct {
	MailSent bool `json:"mailSent"`
}

// KindDeletion is the confirmation mail's kind (catalogue texts
// mail.account_deletion.subject/body/action in security.<lang>.json).
const KindDeletion = "account_deletion"

// KindDeleted is the goodbye mail sent once the account is erased: it
// confirms the deletion (what went, what the airline keeps without the
// member's name) in the member's mail language.
const KindDeleted = "account_deleted"

// RequestDeletion checks the member's password (throttled) and mails a
// single-use confirmation link valid for DeletionTTL.
func (s *Service) RequestDeletion(ctx context.Context, memberID string, in DeletionRequest, lang i18n.Lang) (RequestResult, error) {
	e := validate.Errors{}
	if e.Required("password", in.Password) {
		e.MaxLen("password", in.Password, 1000)
	}
	if !e.Empty() {
		return RequestResult{}, apperr.FromFields(e)
	}
	win := ratelimit.Window{Counters: s.d.Counters, Length: throttleWindow, Limit: maxWrongPassword, Now: s.d.Now}
	key := "deletion:" + memberID
	if ok, err := win.Reserve(ctx, key); err != nil {
		return RequestResult{}, fmt.Errorf("deletion throttle: %w", err)
	} else if !ok {
		return RequestResult{}, apperr.New(apperr.TooMany, "error.too_many_requests")
	}
	m, err := s.d.Store.Member(ctx, memberID)
	if err != nil {
		return RequestResult{}, fmt.Errorf("deletion member: %w", err)
	}
	if !s.d.Passwords.Verify(in.Password, m.PasswordHash) {
		return RequestResult{}, apperr.FromFields(validate.Errors{"password": {Key: "security.deletion.password_wrong"}})
	}
	if err := win.Release(ctx, key); err != nil {
		return RequestResult{}, fmt.Errorf("deletion throttle: %w", err)
	}
	token, hash, err := newToken()
	if err != nil {
		return RequestResult{}, err
	}
	now := s.d.Now()
	if err := s.d.Store.CreateDeletion(ctx, memberID, hash, now, now.Add(DeletionTTL)); err != nil {
		return RequestResult{}, fmt.Errorf("create deletion: %w", err)
	}
	lang = notify.MailLang(m.MailLang, lang)
	link := s.d.PublicURL + "/delete-account/" + token + "?" + url.Values{"lang": {string(lang)}}.Encode()
	msg, err := s.d.Templates.Standard(KindDeletion, lang, m.Email, mail.Data{
		Given: m.Given, Family: m.Family, URL: link, Args: []any{"minutes", int(DeletionTTL.Minutes())},
		Secrets: []string{token},
	})
	if err != nil {
		return RequestResult{}, fmt.Errorf("deletion mail: %w", err)
	}
	if err := s.d.Mailer.Send(ctx, msg); err != nil {
		s.d.Logger.Warn("deletion mail not sent", "err", err)
		return RequestResult{MailSent: false}, nil
	}
	return RequestResult{MailSent: true}, nil
}

// notFound answers a deletion token that is unknown, used, expired or
// another member's.
var notFound = apperr.New(apperr.NotFound, "security.deletion.link_invalid")

// member returns the member of a live token, which must be memberID's.
func (s *Service) member(ctx context.Context, memberID, token string) error {
	if len(token) != base64.RawURLEncoding.EncodedLen(32) {
		return notFound
	}
	got, err := s.d.Store.DeletionMember(ctx, hashToken(token), s.d.Now())
	if errors.Is(err, ErrNotFound) || (err == nil && got != memberID) {
		return notFound
	}
	if err != nil {
		return fmt.Errorf("deletion token: %w", err)
	}
	return nil
}

// ValidateDeletion answers whether the confirmation link is usable.
func (s *Service) ValidateDeletion(ctx context.Context, memberID, token string) error {
	return s.member(ctx, memberID, token)
}

// Losses lists the payment that blocks a deletion and what a deletion now
// would forfeit, for the deletion page.
func (s *Service) Losses(ctx context.Context, memberID string, lang i18n.Lang) (Losses, error) {
	out := Losses{Coupons: []LostCoupon{}, Points: []LostPoints{}}
	if s.d.Holdings == nil {
		return out, nil
	}
	var err error
	if out.PendingPayment, err = s.d.Holdings.PendingPayment(ctx, memberID); err != nil {
		return Losses{}, fmt.Errorf("deletion losses: payment: %w", err)
	}
	cs, err := s.d.Holdings.RefundableCoupons(ctx, memberID, lang)
	if err != nil {
		return Losses{}, fmt.Errorf("deletion losses: coupons: %w", err)
	}
	for _, c := range cs {
		c.Ack = "coupon:" + c.ID
		out.Coupons = append(out.Coupons, c)
	}
	ps, err := s.d.Holdings.PointBalances(ctx, memberID, lang)
	if err != nil {
		return Losses{}, fmt.Errorf("deletion losses: points: %w", err)
	}
	for _, p := range ps {
		p.Ack = "points:" + p.CurrencyCode
		out.Points = append(out.Points, p)
	}
	return out, nil
}

// Confirmation is the deletion page's answer: the mailed token and the
// Ack of every coupon and point balance the member accepts to lose.
type Confirmation struct {
	Token        string   `json:"token"`
	Acknowledged []string `json:"acknowledged"`
}

// Delete erases the member after the confirmation link. It is refused
// while a payment is pending (ErrPaymentPending) and unless every
// refundable coupon and point balance listed by Losses is acknowledged
// (ErrUnconfirmedLosses: one that appeared since the page was shown must
// be confirmed too). Saved cards are deleted at the gateway first (a card
// the gateway still holds would be an orphan), then everything else in one
// transaction, which checks again that no payment is pending.
func (s *Service) Delete(ctx context.Context, memberID string, in Confirmation, lang i18n.Lang) error {
	if err := s.member(ctx, memberID, in.Token); err != nil {
		return err
	}
	losses, err := s.Losses(ctx, memberID, lang)
	if err != nil {
		return err
	}
	if losses.PendingPayment != nil {
		return ErrPaymentPending
	}
	acked := map[string]bool{}
	for _, a := range in.Acknowledged {
		acked[a] = true
	}
	for _, c := range losses.Coupons {
		if !acked[c.Ack] {
			return ErrUnconfirmedLosses
		}
	}
	for _, p := range losses.Points {
		if !acked[p.Ack] {
			return ErrUnconfirmedLosses
		}
	}
	return s.erase(ctx, memberID, lang)
}

// EraseNow erases the member as Delete does (saved cards at the gateway,
// then everything personal in one transaction that keeps the money
// records, then the goodbye mail) without the member's confirmation: the
// booking site's erasure of a member it provisions. ErrPaymentPending
// while a payment waits for the gateway; ErrNotFound for an erased one.
func (s *Service) EraseNow(ctx context.Context, memberID string, lang i18n.Lang) error {
	return s.erase(ctx, memberID, lang)
}

func (s *Service) erase(ctx context.Context, memberID string, lang i18n.Lang) error {
	// Whom to say goodbye to, read before the erasure takes the address.
	m, err := s.d.Store.Member(ctx, memberID)
	if err != nil {
		return fmt.Errorf("deletion member: %w", err)
	}
	if s.d.Cards != nil {
		if err := s.d.Cards.ForgetAll(ctx, memberID); err != nil {
			return fmt.Errorf("delete saved cards: %w", err)
		}
	}
	if err := s.d.Store.Erase(ctx, memberID, s.d.Now()); err != nil {
		if errors.Is(err, ErrStorePaymentPending) {
			return ErrPaymentPending
		}
		return fmt.Errorf("erase member: %w", err)
	}
	s.goodbye(ctx, m, notify.MailLang(m.MailLang, lang))
	return nil
}

// goodbye mails the confirmation of a finished deletion. The account is
// gone whatever the mail does: a failure is logged, not answered.
func (s *Service) goodbye(ctx context.Context, m Member, lang i18n.Lang) {
	// The name is a secret of the message: the outbox forgets it once the
	// mail is sent, so the erased member's name is not kept there.
	var names []string
	for _, n := range []string{m.Given, m.Family} {
		if n != "" {
			names = append(names, n)
		}
	}
	msg, err := s.d.Templates.Standard(KindDeleted, lang, m.Email, mail.Data{Given: m.Given, Family: m.Family, Secrets: names})
	if err == nil {
		err = s.d.Mailer.Send(ctx, msg)
	}
	if err != nil {
		s.d.Logger.Warn("goodbye mail not sent", "err", err)
	}
}

func newToken() (token, hash string, err error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", "", fmt.Errorf("deletion token: %w", err)
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token), nil
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte("account-deletion:" + token))
	return hex.EncodeToString(sum[:])
}
