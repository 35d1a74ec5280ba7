package points

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"members/internal/apperr"
	"members/internal/i18n"
	"members/internal/notify"
	"members/internal/ratelimit"
	"members/internal/validate"
)

// Validity of a new voucher: usable for ValidMonths from its issue day; a
// trip booked with it may be flown up to TravelExtraMonths after that.
const (
	ValidMonths       = 12
	TravelExtraMonths = 6
	PerPage           = 10
	MaxTextLength     = 100 // pin, point number, exchange password (spec §9)
)

// Mail is a notification of the points feature.
type Mail struct {
	// Kind: "issued" (purchase, exchange), "reissued", "reminder".
	Kind    string
	To      Contact
	Voucher Voucher
	// Pin is set for issued and reissued vouchers (shown once, by mail too).
	Pin string
	// Days before expiry (reminder).
	Days int
}

// Mailer sends the feature's mails; an error means the mail may not have
// been sent (the change stays).
type Mailer interface {
	SendPoints(ctx context.Context, m Mail) error
}

// Config are the feature's settings.
type Config struct {
	// ReminderDays are the thresholds (days before expiry) of the expiry
	// reminder mail, e.g. [30, 7].
	ReminderDays []int
	// Settings are the members' notification settings: a member may
	// switch the expiry reminder off. Nil: every reminder goes.
	Settings Settings
	// Logger notes the reminders not mailed (nil: slog.Default).
	Logger *slog.Logger
}

// Settings are the members' notification settings (notify.Service).
type Settings interface {
	Allows(ctx context.Context, memberID string, k notify.Kind) (bool, error)
}

// Service is the points feature.
type Service struct {
	store    Store
	hasher   Hasher
	mailer   Mailer
	catalog  *i18n.Catalog
	counters ratelimit.Counters
	now      func() time.Time
	cfg      Config
}

// NewService builds the service.
func NewService(s Store, h Hasher, m Mailer, c *i18n.Catalog, counters ratelimit.Counters, now func() time.Time, cfg Config) *Service {
	return &Service{store: s, hasher: h, mailer: m, catalog: c, counters: counters, now: now, cfg: cfg}
}

// VoucherView is a voucher as the API shows it (spec §3). The PIN is never
// part of it: it is shown once, next to the view, when a voucher is issued.
type VoucherView struct {
	Code                 string `json:"code"`
	PointNumber          string `json:"pointNumber"`
	CurrentCode          string `json:"currentCode"`
	Currency             string `json:"currency"`
	Balance              int64  `json:"balance"`
	IssuedCurrencyAmount int64  `json:"issuedCurrencyAmount"`
	EffectiveDate        string `json:"effectiveDate"`
	ExpireDate           string `json:"expireDate"`
	TravelEffectiveDate  string `json:"travelEffectiveDate"`
	TravelExpireDate     string `json:"travelExpireDate"`
	StatusCode           string `json:"statusCode"`
	Status               string `json:"status"`
	IssuedName           string `json:"issuedName"`
	Rules                []Rule `json:"rules"`
}

// View renders v for lang on day today.
func (s *Service) View(v Voucher, lang i18n.Lang, today string) VoucherView {
	st := StatusOf(v, today)
	rules := v.Rules
	if rules == nil {
		rules = []Rule{}
	}
	return VoucherView{
		Code: v.Number, PointNumber: v.Number, CurrentCode: v.CurrentCode, Currency: v.Currency,
		Balance: v.Balance, IssuedCurrencyAmount: v.IssuedAmount,
		EffectiveDate: v.EffectiveDate, ExpireDate: v.ExpireDate,
		TravelEffectiveDate: v.TravelEffectiveDate, TravelExpireDate: v.TravelExpireDate,
		StatusCode: st, Status: s.catalog.T(lang, "points.status."+strings.ToLower(st)),
		IssuedName: v.IssuedName, Rules: rules,
	}
}

// SummaryEntry is one amount of the summary (spec §7): a currency and a
// group (available, expireThisMonth, expireNextMonth).
type SummaryEntry struct {
	CurrencyCode string `json:"currencyCode"`
	Currency     string `json:"currency"`
	Group        string `json:"group"`
	Amount       int64  `json:"amount"`
}

// Summary groups.
const (
	GroupAvailable       = "available"
	GroupExpireThisMonth = "expireThisMonth"
	GroupExpireNextMonth = "expireNextMonth"
)

// Summary returns three entries per currency, in the summary order: the
// balance usable today, and the part of it expiring this and next month
// (Japan calendar months).
func (s *Service) Summary(ctx context.Context, memberID string, lang i18n.Lang) ([]SummaryEntry, error) {
	vs, err := s.store.Wallet(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("summary: %w", err)
	}
	now := s.now().In(JST)
	today := now.Format(DateLayout)
	thisMonth := now.Format("2006-01")
	nextMonth := time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, JST).Format("2006-01")
	type sums struct{ avail, this, next int64 }
	by := map[string]*sums{}
	for _, c := range Currencies {
		by[c] = &sums{}
	}
	for _, v := range vs {
		sm, ok := by[v.Currency]
		if !ok || !Usable(v, today) {
			continue
		}
		sm.avail += v.Balance
		sm.this += ExpiringIn(v, thisMonth, today)
		sm.next += ExpiringIn(v, nextMonth, today)
	}
	out := make([]SummaryEntry, 0, 3*len(Currencies))
	for _, c := range Currencies {
		name := s.catalog.T(lang, "points.currency."+c)
		sm := by[c]
		out = append(out,
			SummaryEntry{c, name, GroupAvailable, sm.avail},
			SummaryEntry{c, name, GroupExpireThisMonth, sm.this},
			SummaryEntry{c, name, GroupExpireNextMonth, sm.next})
	}
	return out, nil
}

// SearchInput is the search condition of spec §3 as received; nil
// booleans take their defaults (true).
type SearchInput struct {
	CurrencyCode     string
	ExpireDate       string
	TravelExpireDate string
	HasBalance       *bool
	IsOnlyActive     *bool
	Page             int
}

// SearchResult is one page of vouchers.
type SearchResult struct {
	Peachpoints []VoucherView `json:"peachpoints"`
	PerPage     int           `json:"perPage"`
	CurrentPage int           `json:"currentPage"`
	Total       int           `json:"total"`
	TotalPages  int           `json:"totalPages"`
}

// Search runs the member's voucher search (spec §3, §4).
func (s *Service) Search(ctx context.Context, memberID string, lang i18n.Lang, in SearchInput) (SearchResult, error) {
	errs := validate.Errors{}
	cur := strings.ToUpper(strings.TrimSpace(in.CurrencyCode))
	errs.Check("currencyCode", cur == "" || ValidCurrency(cur), "points.validation.currency")
	for field, v := range map[string]string{"expireDate": in.ExpireDate, "travelExpireDate": in.TravelExpireDate} {
		if _, ok := validate.ParseDate(v); v != "" && !ok {
			errs.Add(field, "points.validation.date")
		}
	}
	page := in.Page
	if page == 0 {
		page = 1
	}
	errs.Check("page", page >= 1 && page <= 100000, "points.validation.page")
	if !errs.Empty() {
		return SearchResult{}, apperr.FromFields(errs)
	}
	today := Today(s.now())
	q := Query{
		MemberID: memberID, Currency: cur, ExpireBy: in.ExpireDate, TravelUntil: in.TravelExpireDate,
		HasBalance: in.HasBalance == nil || *in.HasBalance, OnlyActive: in.IsOnlyActive == nil || *in.IsOnlyActive,
		Today: today, Limit: PerPage, Offset: (page - 1) * PerPage,
	}
	vs, total, err := s.store.Search(ctx, q)
	if err != nil {
		return SearchResult{}, fmt.Errorf("search vouchers: %w", err)
	}
	out := SearchResult{Peachpoints: make([]VoucherView, 0, len(vs)), PerPage: PerPage, CurrentPage: page, Total: total,
		TotalPages: (total + PerPage - 1) / PerPage}
	for _, v := range vs {
		out.Peachpoints = append(out.Peachpoints, s.View(v, lang, today))
	}
	return out, nil
}

// notFound is the one answer for a voucher that is missing or not the member's.
var notFound = apperr.New(apperr.NotFound, "points.not_found")

// LedgerLine is a ledger entry as the API shows it.
type LedgerLine struct {
	Kind         string `json:"kind"`
	Label        string `json:"label"`
	Delta        int64  `json:"delta"`
	BalanceAfter int64  `json:"balanceAfter"`
	At           string `json:"at"`
}

// Detail is a voucher with its ledger.
type Detail struct {
	Peachpoint VoucherView  `json:"peachpoint"`
	Ledger     []LedgerLine `json:"ledger"`
}

// Get returns one of the member's vouchers with its history.
func (s *Service) Get(ctx context.Context, memberID, number string, lang i18n.Lang) (Detail, error) {
	number = strings.TrimSpace(number)
	if number == "" || len(number) > MaxTextLength {
		return Detail{}, notFound
	}
	v, err := s.store.ByNumber(ctx, number)
	if errors.Is(err, ErrNotFound) || (err == nil && v.MemberID != memberID) {
		return Detail{}, notFound
	}
	if err != nil {
		return Detail{}, fmt.Errorf("voucher: %w", err)
	}
	es, err := s.store.Ledger(ctx, v.ID)
	if err != nil {
		return Detail{}, fmt.Errorf("ledger: %w", err)
	}
	d := Detail{Peachpoint: s.View(v, lang, Today(s.now())), Ledger: make([]LedgerLine, 0, len(es))}
	for _, e := range es {
		d.Ledger = append(d.Ledger, LedgerLine{Kind: e.Kind, Label: s.catalog.T(lang, "points.entry."+e.Kind),
			Delta: e.Delta, BalanceAfter: e.BalanceAfter, At: e.CreatedAt.UTC().Format(time.RFC3339)})
	}
	return d, nil
}

// ExpiredIn is the balance expiring in one month.
type ExpiredIn struct {
	Month        string        `json:"month"`
	CurrencyCode string        `json:"currencyCode"`
	Amount       int64         `json:"amount"`
	Peachpoints  []VoucherView `json:"peachpoints"`
}

// ExpiredIn returns the member's balance (ACTIVE vouchers) whose expiry
// date falls in month (YYYY-MM, Japan calendar) in currency.
func (s *Service) ExpiredIn(ctx context.Context, memberID string, lang i18n.Lang, month, currency string) (ExpiredIn, error) {
	errs := validate.Errors{}
	currency = strings.ToUpper(strings.TrimSpace(currency))
	if errs.Required("month", month) {
		_, err := time.Parse("2006-01", month)
		errs.Check("month", err == nil && len(month) == 7, "points.validation.month")
	}
	if errs.Required("currencyCode", currency) {
		errs.Check("currencyCode", ValidCurrency(currency), "points.validation.currency")
	}
	if !errs.Empty() {
		return ExpiredIn{}, apperr.FromFields(errs)
	}
	vs, err := s.store.Wallet(ctx, memberID)
	if err != nil {
		return ExpiredIn{}, fmt.Errorf("expired in: %w", err)
	}
	today := Today(s.now())
	out := ExpiredIn{Month: month, CurrencyCode: currency, Peachpoints: []VoucherView{}}
	past := month < today[:7]
	for _, v := range vs {
		if v.Currency != currency || !strings.HasPrefix(v.ExpireDate, month) {
			continue
		}
		if past {
			// a month gone by: what expired in it
			if StatusOf(v, today) == StatusExpired {
				out.Amount += v.Balance
				out.Peachpoints = append(out.Peachpoints, s.View(v, lang, today))
			}
			continue
		}
		// this month or later: what is still usable and will expire then,
		// as the summary counts it (an expired voucher is not "expiring")
		if n := ExpiringIn(v, month, today); n > 0 {
			out.Amount += n
			out.Peachpoints = append(out.Peachpoints, s.View(v, lang, today))
		}
	}
	return out, nil
}

// TimelineMonth is one month of the wallet timeline.
type TimelineMonth struct {
	Month string `json:"month"`
	// Totals per currency still usable and expiring that month (ExpiringIn),
	// in the summary order; an expired voucher is listed but not counted.
	Totals      []CurrencyAmount `json:"totals"`
	Peachpoints []VoucherView    `json:"peachpoints"`
}

// CurrencyAmount is an amount in a currency.
type CurrencyAmount struct {
	CurrencyCode string `json:"currencyCode"`
	Amount       int64  `json:"amount"`
}

// Timeline is every voucher with a balance, grouped by the month it
// expires, soonest first; expired ones that can still be reissued first of all.
type Timeline struct {
	Months []TimelineMonth `json:"months"`
}

// Timeline returns the member's wallet on a timeline.
func (s *Service) Timeline(ctx context.Context, memberID string, lang i18n.Lang) (Timeline, error) {
	vs, err := s.store.Wallet(ctx, memberID)
	if err != nil {
		return Timeline{}, fmt.Errorf("timeline: %w", err)
	}
	today := Today(s.now())
	out := Timeline{Months: []TimelineMonth{}}
	vsByMonth := map[string][]Voucher{}
	for _, v := range vs { // sorted by expiry date
		m := v.ExpireDate[:7]
		if n := len(out.Months); n == 0 || out.Months[n-1].Month != m {
			out.Months = append(out.Months, TimelineMonth{Month: m, Totals: []CurrencyAmount{}})
		}
		tm := &out.Months[len(out.Months)-1]
		tm.Peachpoints = append(tm.Peachpoints, s.View(v, lang, today))
		vsByMonth[m] = append(vsByMonth[m], v)
	}
	for i := range out.Months {
		tm := &out.Months[i]
		for _, c := range Currencies {
			var sum int64
			for _, v := range vsByMonth[tm.Month] {
				if v.Currency == c {
					sum += ExpiringIn(v, tm.Month, today)
				}
			}
			if sum > 0 {
				tm.Totals = append(tm.Totals, CurrencyAmount{c, sum})
			}
		}
	}
	return out, nil
}

// newVoucher is a voucher of amount issued on day (Japan time).
func newVoucher(memberID, currency string, amount int64, source string, day time.Time) Voucher {
	d := day.In(JST)
	d = time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, JST)
	exp := d.AddDate(0, ValidMonths, -1)
	n := NewNumber()
	return Voucher{
		MemberID: memberID, Number: n, CurrentCode: n, Currency: currency, IssuedAmount: amount, Balance: amount,
		EffectiveDate: d.Format(DateLayout), ExpireDate: exp.Format(DateLayout),
		TravelEffectiveDate: d.Format(DateLayout), TravelExpireDate: exp.AddDate(0, TravelExtraMonths, 0).Format(DateLayout),
		StatusCode: StatusActive, Rules: []Rule{}, Source: source,
	}
}

// newExpiredVoucher is a voucher whose validity ended yesterday on the
// Japan calendar (the operator's way to try the reissue). Counting back from
// the expiry, not forward from a shifted issue day, keeps it exact across
// month ends and the UTC/Japan date change.
func newExpiredVoucher(memberID, currency string, amount int64, source string, now time.Time) Voucher {
	today := now.In(JST)
	exp := time.Date(today.Year(), today.Month(), today.Day()-1, 0, 0, 0, 0, JST)
	v := newVoucher(memberID, currency, amount, source, exp.AddDate(0, 0, 1).AddDate(0, -ValidMonths, 0))
	v.ExpireDate = exp.Format(DateLayout)
	v.TravelExpireDate = exp.AddDate(0, TravelExtraMonths, 0).Format(DateLayout)
	return v
}

// create hashes a new PIN into v and stores it, retrying on the (rare)
// number clash. It returns the PIN.
func (s *Service) create(ctx context.Context, v *Voucher, ref string, store func(Voucher) error) (string, error) {
	pin := NewPin()
	h, err := s.hasher.Hash(pin)
	if err != nil {
		return "", err
	}
	v.PinHash = h
	for range 3 {
		err = store(*v)
		if !errors.Is(err, ErrDuplicate) {
			break
		}
		v.Number = NewNumber()
		v.CurrentCode = v.Number
	}
	return pin, err
}

// IssueInput is an operator's issue (bin/members points issue).
type IssueInput struct {
	Email    string
	Currency string
	Amount   int64 // minor units
	Expired  bool  // issue one that expired yesterday (to try the reissue)
	Rules    []Rule
}

// Issue gives a member a voucher and returns it with its PIN.
func (s *Service) Issue(ctx context.Context, in IssueInput) (Voucher, string, error) {
	if !ValidCurrency(in.Currency) {
		return Voucher{}, "", fmt.Errorf("unknown currency %q (one of %s)", in.Currency, strings.Join(Currencies, " "))
	}
	if in.Amount <= 0 {
		return Voucher{}, "", errors.New("the amount must be a positive number of minor units")
	}
	memberID, err := s.store.MemberByEmail(ctx, in.Email)
	if errors.Is(err, ErrNotFound) {
		return Voucher{}, "", fmt.Errorf("no member with e-mail %q", in.Email)
	}
	if err != nil {
		return Voucher{}, "", err
	}
	v := newVoucher(memberID, in.Currency, in.Amount, SourceIssue, s.now())
	if in.Expired {
		v = newExpiredVoucher(memberID, in.Currency, in.Amount, SourceIssue, s.now())
	}
	if in.Rules != nil {
		v.Rules = in.Rules
	}
	pin, err := s.create(ctx, &v, "operator", func(v Voucher) error { return s.store.Create(ctx, nil, v, "operator") })
	return v, pin, err
}

// CodesInput makes exchange codes (bin/members points codes).
type CodesInput struct {
	Currency string
	Amount   int64
	Count    int
	Ana      bool
}

// IssuedCode is a new exchange code with its password (shown once).
type IssuedCode struct{ Code, Password string }

// MakeCodes creates exchange codes.
func (s *Service) MakeCodes(ctx context.Context, in CodesInput) ([]IssuedCode, error) {
	if !ValidCurrency(in.Currency) {
		return nil, fmt.Errorf("unknown currency %q (one of %s)", in.Currency, strings.Join(Currencies, " "))
	}
	if in.Amount <= 0 || in.Count <= 0 || in.Count > 10000 {
		return nil, errors.New("the amount must be positive and the count between 1 and 10000")
	}
	now := s.now()
	out := make([]IssuedCode, 0, in.Count)
	codes := make([]ExchangeCode, 0, in.Count)
	for range in.Count {
		c, pw := NewCode()
		h, err := s.hasher.Hash(pw)
		if err != nil {
			return nil, err
		}
		codes = append(codes, ExchangeCode{Code: c, PasswordHash: h, Currency: in.Currency, Amount: in.Amount, Ana: in.Ana, CreatedAt: now})
		out = append(out, IssuedCode{c, pw})
	}
	if err := s.store.AddCodes(ctx, codes); err != nil {
		return nil, fmt.Errorf("add codes: %w", err)
	}
	return out, nil
}

// Spend takes amount from one of the member's vouchers (the booking site's
// payment with points). The store refuses it when the balance is short or
// the voucher is not usable today.
func (s *Service) Spend(ctx context.Context, memberID, number string, amount int64, ref string) (Voucher, error) {
	if amount <= 0 {
		return Voucher{}, apperr.New(apperr.Invalid, "points.validation.amount")
	}
	v, err := s.store.Spend(ctx, memberID, number, amount, ref, Today(s.now()))
	switch {
	case errors.Is(err, ErrNotFound):
		return v, notFound
	case errors.Is(err, ErrInsufficient):
		return v, apperr.New(apperr.Conflict, "points.insufficient")
	case err != nil:
		return v, fmt.Errorf("spend: %w", err)
	}
	return v, nil
}

// ParseAmount reads a decimal amount ("1000", "12.50") into minor units of currency.
func ParseAmount(s, currency string) (int64, error) {
	whole, frac, hasFrac := strings.Cut(strings.TrimSpace(s), ".")
	dec := Decimals(currency)
	if hasFrac && (dec == 0 || len(frac) > dec) {
		return 0, fmt.Errorf("%s has %d decimals", currency, dec)
	}
	for len(frac) < dec {
		frac += "0"
	}
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("bad amount %q", s)
	}
	return n, nil
}
