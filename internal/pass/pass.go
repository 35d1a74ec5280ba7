// Package pass is the unlimited-flight pass (the "GoGo Pass", shown under
// two names): plans and their periods priced per fare type, the lottery
// phase (entries and the operator's draw), purchase through the payment
// engine, exchange of another pass type by code and password, and the
// daily maintenance window. It holds the rules; SQL is in internal/store.
package pass

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"members/internal/payment"
)

// Fare types of the unlimited pass.
const (
	FareHappy   = "happy"
	FareHapplus = "happlus"
)

// ValidFare reports whether f is a pass fare type.
func ValidFare(f string) bool { return f == FareHappy || f == FareHapplus }

// DateLayout is the wire and storage form of calendar dates.
const DateLayout = "2006-01-02"

// JST is Japan time: "today" and the maintenance window are computed in it.
var JST = time.FixedZone("JST", 9*60*60)

// TodayJST is the calendar date of now in Japan time (YYYY-MM-DD).
func TodayJST(now time.Time) string { return now.In(JST).Format(DateLayout) }

// Range is an inclusive range of calendar days (YYYY-MM-DD).
type Range struct {
	Begin string `json:"begin"`
	End   string `json:"end"`
}

// Contains reports whether day (YYYY-MM-DD) is inside the range; the
// fixed-width form compares in calendar order.
func (r Range) Contains(day string) bool { return day >= r.Begin && day <= r.End }

// Price is a period's price per fare type in the currency's minor unit.
type Price struct {
	Happy   int64 `json:"happy"`
	Happlus int64 `json:"happlus"`
}

// Of returns the price of a fare type.
func (p Price) Of(fare string) int64 {
	if fare == FareHapplus {
		return p.Happlus
	}
	return p.Happy
}

// Period is one sale of a plan: when its holder may fly and book.
type Period struct {
	ID                     string `json:"id"`
	AvailablePeriodToBoard Range  `json:"availablePeriodToBoard"`
	AvailablePeriodToBook  Range  `json:"availablePeriodToBook"`
	CurrencyCode           string `json:"currencyCode"`
	Price                  Price  `json:"price"`
	// LotteryQuota is how many entrants the draw picks (0: not in the lottery).
	LotteryQuota int `json:"lotteryQuota"`
}

// OnSale reports whether the period can still be bought or entered on day:
// until the last day its holder could book a flight.
func (p Period) OnSale(day string) bool { return day <= p.AvailablePeriodToBook.End }

// Plan is a kind of pass with its two display names.
type Plan struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	NameAlt string   `json:"nameAlt"`
	Periods []Period `json:"periods"`
}

// Where a held pass came from.
const (
	SourcePurchase = "purchase"
	SourceExchange = "exchange"
)

// Pass is a pass a member holds (bought, or exchanged from a code).
type Pass struct {
	ID                     string    `json:"id"`
	Code                   string    `json:"code"`
	PlanID                 string    `json:"planId"`
	PeriodID               string    `json:"periodId"`
	Name                   string    `json:"name"`
	NameAlt                string    `json:"nameAlt"`
	AvailablePeriodToBoard Range     `json:"availablePeriodToBoard"`
	AvailablePeriodToBook  Range     `json:"availablePeriodToBook"`
	FareType               string    `json:"fareType"`
	CurrencyCode           string    `json:"currencyCode"`
	PurchasedPrice         int64     `json:"purchasedPrice"`
	PurchasedAt            time.Time `json:"purchasedAt"`
	// Source is SourcePurchase or SourceExchange.
	Source string `json:"source"`
	// MemberID and PaymentProcessID are not shown.
	MemberID         string `json:"-"`
	PaymentProcessID string `json:"-"`
}

// Lottery entry results.
const (
	ResultPending = "pending"
	ResultWon     = "won"
	ResultLost    = "lost"
)

// Entry is a member's lottery entry for one period of a plan.
type Entry struct {
	ID                     string     `json:"id"`
	PlanID                 string     `json:"planId"`
	PeriodID               string     `json:"periodId"`
	Name                   string     `json:"name"`
	NameAlt                string     `json:"nameAlt"`
	AvailablePeriodToBoard Range      `json:"availablePeriodToBoard"`
	AvailablePeriodToBook  Range      `json:"availablePeriodToBook"`
	FareType               string     `json:"fareType"`
	Result                 string     `json:"result"`
	CreatedAt              time.Time  `json:"createdAt"`
	BuyUntil               *time.Time `json:"buyUntil,omitempty"`
	MemberID               string     `json:"-"`
	Lang                   string     `json:"-"`
	DrawID                 string     `json:"-"`
}

// ExchangeCode is another pass type that can be exchanged for a pass.
type ExchangeCode struct {
	ID           string
	Code         string
	PasswordHash string
	PlanID       string
	PeriodID     string
	FareType     string
	RedeemedBy   string
}

// Draw is one run of the lottery.
type Draw struct {
	ID        string    `json:"id"`
	Seed      string    `json:"seed"`
	Entrants  int       `json:"entrants"`
	Winners   int       `json:"winners"`
	DrawnAt   time.Time `json:"drawnAt"`
	BuyUntil  time.Time `json:"buyUntil"`
	WinnerIDs []string  `json:"-"`
}

// Store errors.
var (
	ErrNotFound = errors.New("pass: not found")
	ErrConflict = errors.New("pass: conflict")
	// ErrHeld is a second pass of one period for one member.
	ErrHeld = errors.New("pass: period held already")
)

// Store is what the pass needs from the database.
type Store interface {
	// Plans returns every plan with its periods, in display order.
	Plans(ctx context.Context) ([]Plan, error)
	// Passes returns the member's passes, newest first.
	Passes(ctx context.Context, memberID string) ([]Pass, error)
	// InsertPass adds a pass inside tx (the settlement transaction).
	// ErrHeld when the member holds a pass of that period already (a
	// database constraint, so two racing grants cannot both insert);
	// ErrConflict when its payment process already has a pass.
	InsertPass(ctx context.Context, tx payment.Tx, p Pass) error
	// HeldPeriods returns the periods the member holds a pass of.
	HeldPeriods(ctx context.Context, memberID string) ([]string, error)
	// PendingOrders returns the order details of the member's pass
	// purchases whose payment is pending (not yet settled or failed).
	PendingOrders(ctx context.Context, memberID string) ([]json.RawMessage, error)
	// Entries returns the member's lottery entries, newest first.
	Entries(ctx context.Context, memberID string) ([]Entry, error)
	// InsertEntry adds an entry; ErrConflict when the member already
	// entered that period.
	InsertEntry(ctx context.Context, e Entry) error
	// PendingEntries returns every entry not yet drawn.
	PendingEntries(ctx context.Context) ([]Entry, error)
	// RecordDraw stores the draw and marks its entrants won or lost, in one
	// transaction; ErrConflict when an entry was drawn meanwhile.
	RecordDraw(ctx context.Context, d Draw, entrants []Entry) error
	// LastDraw returns the latest draw and its entrants; ErrNotFound when none.
	LastDraw(ctx context.Context) (Draw, []Entry, error)
	// ExchangeCode returns a code by its text; ErrNotFound when unknown.
	ExchangeCode(ctx context.Context, code string) (ExchangeCode, error)
	// Redeem marks the code redeemed by p.MemberID and adds p, in one
	// transaction; ErrConflict when the code was redeemed meanwhile,
	// ErrHeld when the member holds a pass of that period (nothing changes).
	Redeem(ctx context.Context, codeID string, p Pass) error
}
