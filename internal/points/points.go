// Package points is Peach Points: stored-value vouchers in seven
// currencies, their ledger, the summary and search of a member's vouchers,
// exchange codes (partner miles and others), the reissue of expired
// vouchers, the purchase (a payment.Product) and the expiry reminders.
//
// Every change of a balance is a ledger entry written in the same
// transaction by the store; a balance never goes negative (conditional
// updates plus a CHECK constraint). PINs and exchange-code passwords are
// stored as argon2id hashes; a PIN is shown once, when its voucher is issued.
package points

import (
	"context"
	"crypto/rand"
	"errors"
	"math/big"
	"slices"
	"strings"
	"time"

	"members/internal/payment"
)

// Currencies in the order of the points summary.
var Currencies = []string{"KRW", "CNY", "JPY", "TWD", "HKD", "THB", "SGD"}

// ValidCurrency reports whether c is one of the seven voucher currencies.
func ValidCurrency(c string) bool { return slices.Contains(Currencies, c) }

// Decimals is the number of minor-unit digits of a currency (SGD 2, others 0).
func Decimals(c string) int {
	if c == "SGD" {
		return 2
	}
	return 0
}

// JST is Japan time: "today", months and expiry dates are Japan calendar days.
var JST = time.FixedZone("JST", 9*3600)

// DateLayout is the wire and storage form of calendar dates.
const DateLayout = "2006-01-02"

// Today is the Japan calendar date of t.
func Today(t time.Time) string { return t.In(JST).Format(DateLayout) }

// Stored status codes. The status a member sees is derived (see StatusOf).
const (
	StatusActive   = "ACTIVE"
	StatusReissued = "REISSUED" // replaced by a new voucher; balance moved there
	StatusExpired  = "EXPIRED"  // derived: expiry date passed
	StatusUsed     = "USED"     // derived: balance 0
	StatusPending  = "NOT_YET_EFFECTIVE"
)

// Sources of a voucher.
const (
	SourceIssue    = "issue" // operator
	SourcePurchase = "purchase"
	SourceExchange = "exchange"
	SourceReissue  = "reissue"
	SourceDemo     = "demo"
)

// Ledger entry kinds.
const (
	EntryIssue      = "issue"
	EntrySpend      = "spend"
	EntryReissueOut = "reissue_out"
)

// Rule types.
const (
	RuleMarket     = "voucherMarketOriginDestinationRule"
	RuleTravelDate = "voucherTravelDateRule"
	RuleFareClass  = "voucherFareClassRule"
)

// DateRange is a travel period of a travel-date rule.
type DateRange struct {
	FromDate string `json:"fromDate"`
	ToDate   string `json:"toDate"`
}

// Rule limits where and when a voucher can be used.
type Rule struct {
	Type                     string      `json:"type"`
	MarketOriginDestinations []string    `json:"marketOriginDestinations,omitempty"`
	TravelDates              []DateRange `json:"travelDates,omitempty"`
	FareClassCodes           []string    `json:"fareClassCodes,omitempty"`
}

// Voucher is a stored-value point voucher.
type Voucher struct {
	ID                  string
	MemberID            string
	Number              string
	CurrentCode         string
	Currency            string
	IssuedAmount        int64
	Balance             int64
	EffectiveDate       string
	ExpireDate          string
	TravelEffectiveDate string
	TravelExpireDate    string
	PinHash             string
	StatusCode          string
	Rules               []Rule
	Source              string
	IssuedName          string
	PaymentAmount       int64
	PaymentMethod       string
	PaymentProcessID    string
	ExchangeCodeID      string
	ReissuedFrom        string
	CreatedAt           time.Time
}

// StatusOf is the status a member sees on day today.
func StatusOf(v Voucher, today string) string {
	switch {
	case v.StatusCode != StatusActive:
		return v.StatusCode
	case v.ExpireDate < today:
		return StatusExpired
	case v.Balance == 0:
		return StatusUsed
	case v.EffectiveDate > today:
		return StatusPending
	}
	return StatusActive
}

// Usable reports whether the voucher's balance can be spent on day today.
func Usable(v Voucher, today string) bool { return StatusOf(v, today) == StatusActive }

// ExpiringIn is the part of v's balance that is still usable on today
// (Japan date) and expires in month (YYYY-MM): 0 for a voucher already
// expired, used up or cancelled. The summary's "this month" and "next
// month", the expiring panel and the wallet timeline's totals all count
// with it, so they agree for the same vouchers on the same day.
func ExpiringIn(v Voucher, month, today string) int64 {
	if !strings.HasPrefix(v.ExpireDate, month) || !Usable(v, today) {
		return 0
	}
	return v.Balance
}

// Entry is one ledger line of a voucher.
type Entry struct {
	Seq          int
	Kind         string
	Delta        int64
	BalanceAfter int64
	Reference    string
	CreatedAt    time.Time
}

// ExchangeCode turns into a voucher once. Ana marks partner-airline miles.
type ExchangeCode struct {
	ID           string
	Code         string
	PasswordHash string
	Currency     string
	Amount       int64
	Ana          bool
	UsedAt       *time.Time
	CreatedAt    time.Time
}

// Query is a search of a member's vouchers; empty strings mean no condition.
type Query struct {
	MemberID string
	Currency string
	// ExpireBy keeps vouchers expiring on or before this date.
	ExpireBy string
	// TravelUntil keeps vouchers whose travel period reaches this date.
	TravelUntil string
	HasBalance  bool
	OnlyActive  bool
	Today       string
	Limit       int
	Offset      int
}

// Contact is where a member's mail goes, in the member's language.
type Contact struct {
	MemberID  string
	Email     string
	Firstname string
	Lastname  string
	// Lang is the language of the mail: the member's mail language, else
	// the account's (Store.Contact, ReminderTargets); Service.notify
	// replaces it by the member's mail language, else the page's, for a
	// mail about what the member just did.
	Lang string
	// MailLang is the mail language the member chose ("" for none).
	MailLang string
}

// ReminderTarget is a voucher whose expiry reminder may be due.
type ReminderTarget struct {
	Voucher Voucher
	Contact Contact
}

// Store errors.
var (
	ErrNotFound        = errors.New("points: not found")
	ErrInsufficient    = errors.New("points: balance too low or voucher not usable")
	ErrAlreadyReissued = errors.New("points: voucher already reissued or not reissuable")
	ErrCodeUsed        = errors.New("points: exchange code already used")
	ErrDuplicate       = errors.New("points: duplicate")
)

// Store keeps vouchers, the ledger and exchange codes
// (internal/store.PointStore). Methods that change a balance write the
// ledger entry in the same transaction.
type Store interface {
	// Create inserts v and its first ledger entry (kind issue, delta = the
	// balance) in tx, or in a transaction of its own when tx is nil.
	// ErrDuplicate when the number, payment process, exchange code or
	// reissued voucher is taken.
	Create(ctx context.Context, tx payment.Tx, v Voucher, ref string) error
	// Search returns one page of the member's vouchers matching q, by
	// expiry date, and the number of matches.
	Search(ctx context.Context, q Query) ([]Voucher, int, error)
	// Wallet returns the member's ACTIVE vouchers with a balance, by expiry.
	Wallet(ctx context.Context, memberID string) ([]Voucher, error)
	// ByNumber returns the voucher with number whoever owns it; ErrNotFound.
	ByNumber(ctx context.Context, number string) (Voucher, error)
	// Ledger returns the voucher's entries in order.
	Ledger(ctx context.Context, voucherID string) ([]Entry, error)
	// Spend takes amount from the member's voucher if it is usable on day
	// today and holds enough; ErrInsufficient otherwise, ErrNotFound when
	// it is not the member's.
	Spend(ctx context.Context, memberID, number string, amount int64, ref, today string) (Voucher, error)
	// Reissue moves the whole balance of old (still ACTIVE with that
	// balance) to the new voucher nv, in one transaction;
	// ErrAlreadyReissued when old changed meanwhile.
	Reissue(ctx context.Context, old Voucher, nv Voucher) error
	// AddCodes inserts exchange codes; ErrDuplicate on a taken code.
	AddCodes(ctx context.Context, codes []ExchangeCode) error
	// CodeByCode returns an exchange code; ErrNotFound.
	CodeByCode(ctx context.Context, code string) (ExchangeCode, error)
	// Redeem marks the code used by memberID and creates v, in one
	// transaction; ErrCodeUsed when the code was used already.
	Redeem(ctx context.Context, codeID, memberID string, v Voucher) error
	// MemberByEmail returns a member id; ErrNotFound.
	MemberByEmail(ctx context.Context, email string) (string, error)
	// Contact returns the member's address, name and language; ErrNotFound.
	Contact(ctx context.Context, memberID string) (Contact, error)
	// ReminderTargets returns owned ACTIVE vouchers with a balance expiring
	// between from and to (inclusive), with their owners' contacts.
	ReminderTargets(ctx context.Context, from, to string) ([]ReminderTarget, error)
	// ClaimReminder records that the reminder of voucher for threshold days
	// is being sent; false when it was claimed already (by any instance).
	ClaimReminder(ctx context.Context, voucherID string, days int, at time.Time) (bool, error)
}

// Hasher hashes and checks PINs and exchange passwords (auth.Hasher).
type Hasher interface {
	Hash(secret string) (string, error)
	Verify(secret, encoded string) bool
}

const digits = "0123456789"

// codeAlphabet has no 0/O, 1/I/L: codes are read out and typed by people.
const codeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

func randomString(alphabet string, n int) string {
	b := make([]byte, n)
	max := big.NewInt(int64(len(alphabet)))
	for i := range b {
		k, err := rand.Int(rand.Reader, max)
		if err != nil {
			panic(err) // crypto/rand does not fail on supported platforms
		}
		b[i] = alphabet[k.Int64()]
	}
	return string(b)
}

// NewNumber returns a voucher number: 16 digits, not starting with 0.
func NewNumber() string { return randomString("123456789", 1) + randomString(digits, 15) }

// NewPin returns an 8-digit PIN.
func NewPin() string { return randomString(digits, 8) }

// NewCode returns an exchange code and its password.
func NewCode() (code, password string) {
	return randomString(codeAlphabet, 12), randomString(codeAlphabet, 8)
}
