package coupon

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
	"members/internal/pass"
	"members/internal/platform"
	"members/internal/validate"
)

// Status reads the operator's switch (platform.Service).
type Status interface {
	CouponTicketStatus(ctx context.Context) (platform.CouponTicketStatus, error)
}

// Holder is the purchasing member.
type Holder struct {
	Purchaser
	Email string
	// MailLang is the mail language the member chose ("" for none).
	MailLang string
	// Lang is the language of the mail to the holder: Service.send
	// decides it (notify.MailLang) and writes the coupon's names in it.
	Lang string
}

// Members finds a member.
type Members interface {
	CouponHolder(ctx context.Context, memberID string) (Holder, error)
}

// Refunder refunds a settled payment process (the payment engine;
// docs/payments.md). The engine derives the gateway's idempotency key from
// the process id and reason, so a repeat never refunds twice.
type Refunder interface {
	Refund(ctx context.Context, memberID, processID string, amount int64, reason string) error
}

// Mail kinds (texts mail.<kind>.* in pass.<lang>.json).
const (
	MailPurchased = "coupon_ticket_purchased"
	MailRefunded  = "coupon_ticket_refunded"
)

// Mail is a coupon mail.
type Mail struct {
	Kind   string
	To     Holder
	Coupon Coupon
}

// Mailer sends coupon mails.
type Mailer interface {
	SendCouponMail(ctx context.Context, m Mail) error
}

// Deps are the service's collaborators. A nil Refunder (an operator
// command that refunds nothing) makes every refund ErrNotRefundable.
type Deps struct {
	Store        Store
	Status       Status
	Members      Members
	Mailer       Mailer
	Refunder     Refunder
	Translate    func(lang, key string) string
	ValidCountry func(code string) bool
	Now          func() time.Time
	NewID        func() string
	Logger       *slog.Logger
}

// Service is the coupon pass.
type Service struct{ d Deps }

// NewService returns the service.
func NewService(d Deps) *Service { return &Service{d: d} }

// Errors the member sees.
var (
	ErrAlreadyRefunded = apperr.New(apperr.Conflict, "coupon.error.already_refunded")
	ErrNotRefundable   = apperr.New(apperr.Conflict, "coupon.error.not_refundable")
	ErrRefundFailed    = apperr.New(apperr.Unavailable, "coupon.error.refund_failed")
)

func (s *Service) public(ctx context.Context) error {
	st, err := s.d.Status.CouponTicketStatus(ctx)
	if err != nil {
		return fmt.Errorf("coupon status: %w", err)
	}
	if !st.IsCouponTicketPublic {
		return apperr.ErrNotFound
	}
	return nil
}

func (s *Service) today() time.Time {
	t, _ := parseDay(pass.TodayJST(s.d.Now()))
	return t
}

// Products lists the products with periods still on sale (until the end of
// the booking window), names in lang. Not found unless the coupon is public.
func (s *Service) Products(ctx context.Context, lang string) ([]Product, error) {
	if err := s.public(ctx); err != nil {
		return nil, err
	}
	return s.onSale(ctx, lang)
}

func (s *Service) onSale(ctx context.Context, lang string) ([]Product, error) {
	all, err := s.d.Store.Products(ctx)
	if err != nil {
		return nil, fmt.Errorf("coupon products: %w", err)
	}
	today := pass.TodayJST(s.d.Now())
	for i := range all {
		all[i].Name, all[i].Description = s.d.Translate(lang, all[i].Name), s.d.Translate(lang, all[i].Description)
	}
	return pass.KeepPeriods(all, func(p *Product) *[]Period { return &p.Periods }, func(pe *Period) bool {
		if today > pe.AvailablePeriodToBook.End {
			return false
		}
		pe.Description = s.d.Translate(lang, pe.Description)
		return true
	}), nil
}

// Selection is the coupon purchase body's product fields.
type Selection struct {
	ProductID            string      `json:"productId"`
	PeriodID             string      `json:"periodId"`
	FareType             string      `json:"fareType"`
	AdditionalPassengers []Passenger `json:"additionalPassengers"`
	AgreeTerms           bool        `json:"agreeTerms"`
}

// Ticket is a priced selection: what the member confirms before paying.
type Ticket struct {
	RequestID            string      `json:"requestId,omitempty"`
	ProductID            string      `json:"productId"`
	PeriodID             string      `json:"periodId"`
	Name                 string      `json:"name"`
	Description          string      `json:"description"`
	Period               Period      `json:"period"`
	FareType             string      `json:"fareType"`
	Plan                 Plan        `json:"plan"`
	Purchaser            Purchaser   `json:"purchaser"`
	AdditionalPassengers []Passenger `json:"additionalPassengers"`
	Items                int         `json:"items"`
	TotalPassengersCount int         `json:"totalPassengersCount"`
	TotalPrice           int64       `json:"totalPrice"`
	CurrencyCode         string      `json:"currencyCode"`
	// International: the passengers' entry details were asked (Product).
	International         bool `json:"international"`
	productNameKey        string
	productDescriptionKey string
}

// Price checks a selection for the member and prices it. Field errors are
// a 400; the member must be an adult on the first boarding day.
func (s *Service) Price(ctx context.Context, memberID, lang string, in Selection) (Ticket, error) {
	if err := s.public(ctx); err != nil {
		return Ticket{}, err
	}
	f := validate.Errors{}
	f.Required("productId", in.ProductID)
	f.Required("periodId", in.PeriodID)
	if f.Required("fareType", in.FareType) {
		f.Check("fareType", in.FareType == PlanLite || in.FareType == PlanStandard, "coupon.validation.fare_type")
	}
	f.Check("agreeTerms", in.AgreeTerms, "coupon.validation.terms")
	f.Check("additionalPassengers", len(in.AdditionalPassengers) <= MaxAdditionalPassengers, "coupon.validation.too_many", "max", MaxAdditionalPassengers)
	all, err := s.d.Store.Products(ctx)
	if err != nil {
		return Ticket{}, fmt.Errorf("coupon products: %w", err)
	}
	var (
		product Product
		period  Period
		found   bool
	)
	today := s.today()
	for _, p := range all {
		for _, pe := range p.Periods {
			if p.ID == in.ProductID && pe.ID == in.PeriodID && pass.TodayJST(s.d.Now()) <= pe.AvailablePeriodToBook.End {
				product, period, found = p, pe, true
			}
		}
	}
	if in.ProductID != "" && in.PeriodID != "" && !found {
		f.Add("periodId", "coupon.validation.period")
	}
	holder, err := s.d.Members.CouponHolder(ctx, memberID)
	if err != nil {
		return Ticket{}, fmt.Errorf("coupon purchaser: %w", err)
	}
	if found {
		first, _ := parseDay(period.AvailablePeriodToBoard.Begin)
		birth, ok := parseDay(holder.Birthday)
		f.Check("purchaser", ok && IsAdult(birth, first), "coupon.validation.purchaser_adult")
		for i, p := range in.AdditionalPassengers {
			p = trimPassenger(p)
			if !product.International {
				// a domestic trip needs no passport or entry details: none are kept
				p = domesticPassenger(p)
			}
			in.AdditionalPassengers[i] = p
			checkPassenger(f, i, p, s.d.ValidCountry, today, first, product.International)
		}
	}
	if !f.Empty() {
		return Ticket{}, apperr.FromFields(f)
	}
	plan := period.Plan.Of(in.FareType)
	items := 1
	for _, p := range in.AdditionalPassengers {
		if HasSeat(p.PassengerType) {
			items++
		}
	}
	passengers := in.AdditionalPassengers
	if passengers == nil {
		passengers = []Passenger{}
	}
	pe := period
	pe.Description = s.d.Translate(lang, pe.Description)
	return Ticket{
		ProductID: product.ID, PeriodID: period.ID, Period: pe, FareType: in.FareType, Plan: plan,
		Name: s.d.Translate(lang, product.Name), Description: s.d.Translate(lang, product.Description),
		productNameKey: product.Name, productDescriptionKey: product.Description,
		Purchaser: holder.Purchaser, AdditionalPassengers: passengers, Items: items, International: product.International,
		TotalPassengersCount: 1 + len(in.AdditionalPassengers), TotalPrice: int64(items) * plan.PricePerPerson,
		CurrencyCode: plan.CurrencyCode,
	}, nil
}

func trimPassenger(p Passenger) Passenger {
	t := strings.TrimSpace
	return Passenger{
		PassengerType: t(p.PassengerType), Lastname: t(p.Lastname), Firstname: t(p.Firstname), Gender: t(p.Gender),
		DateOfBirth: t(p.DateOfBirth), NationalityCode: strings.ToUpper(t(p.NationalityCode)),
		PassportNo: strings.ToUpper(t(p.PassportNo)), DateOfEntry: t(p.DateOfEntry),
		InboundTransportMethod: t(p.InboundTransportMethod), InboundFlightNo: strings.ToUpper(t(p.InboundFlightNo)),
	}
}

// domesticPassenger keeps what a domestic trip needs of a passenger: type,
// name, gender and date of birth.
func domesticPassenger(p Passenger) Passenger {
	return Passenger{PassengerType: p.PassengerType, Lastname: p.Lastname, Firstname: p.Firstname, Gender: p.Gender, DateOfBirth: p.DateOfBirth}
}

// PrepareInput is the prepare body: a selection under a request id.
type PrepareInput struct {
	Selection
	RequestID string `json:"requestId"`
}

// Prepare checks and prices a selection and keeps it under the member's
// request id, so the payment page can show it again (Prepared).
func (s *Service) Prepare(ctx context.Context, memberID, lang string, in PrepareInput) (Ticket, error) {
	in.RequestID = strings.TrimSpace(in.RequestID)
	if in.RequestID == "" || len(in.RequestID) > 100 {
		f := validate.Errors{}
		f.Add("requestId", "validation.required")
		return Ticket{}, apperr.FromFields(f)
	}
	t, err := s.Price(ctx, memberID, lang, in.Selection)
	if err != nil {
		return Ticket{}, err
	}
	body, err := json.Marshal(in.Selection)
	if err != nil {
		return Ticket{}, fmt.Errorf("coupon prepare: %w", err)
	}
	if err := s.d.Store.SavePrepared(ctx, Prepared{RequestID: in.RequestID, MemberID: memberID, Body: body, CreatedAt: s.d.Now()}); err != nil {
		return Ticket{}, fmt.Errorf("coupon prepare: %w", err)
	}
	t.RequestID = in.RequestID
	return t, nil
}

// Prepared returns the member's prepared ticket, priced again (404 for an
// unknown request id or another member's).
func (s *Service) Prepared(ctx context.Context, memberID, lang, requestID string) (Ticket, error) {
	if err := s.public(ctx); err != nil {
		return Ticket{}, err
	}
	p, err := s.d.Store.Prepared(ctx, memberID, requestID)
	if errors.Is(err, ErrNotFound) {
		return Ticket{}, apperr.ErrNotFound
	}
	if err != nil {
		return Ticket{}, fmt.Errorf("coupon prepared: %w", err)
	}
	var sel Selection
	if err := json.Unmarshal(p.Body, &sel); err != nil {
		return Ticket{}, fmt.Errorf("coupon prepared: %w", err)
	}
	t, err := s.Price(ctx, memberID, lang, sel)
	if err != nil {
		return Ticket{}, err
	}
	t.RequestID = requestID
	return t, nil
}

// view fills the display fields of a stored coupon.
func (s *Service) view(c Coupon, lang string) Coupon {
	c.Name, c.Description = s.d.Translate(lang, c.Name), s.d.Translate(lang, c.Description)
	c.RefundFee, c.RefundAmount = Refund(c.PurchasedPrice, c.Items)
	c.Refundable = !c.Disabled && c.NumberOfUsed == 0 && c.PaymentProcessID != ""
	if c.Passengers == nil {
		c.Passengers = []Passenger{}
	}
	return c
}

// Coupons returns the member's coupons (always readable).
func (s *Service) Coupons(ctx context.Context, memberID, lang string) ([]Coupon, error) {
	cs, err := s.d.Store.Coupons(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("coupons: %w", err)
	}
	for i := range cs {
		cs[i] = s.view(cs[i], lang)
	}
	return cs, nil
}

// Refund refunds one of the member's coupons through the payment engine,
// less RefundFeePerItem per item, and disables it. 404 for another
// member's coupon; 409 when already refunded, used, or not bought through
// the engine; a second refund never reaches the gateway.
func (s *Service) Refund(ctx context.Context, memberID, lang, id string) (Coupon, error) {
	if errs := (validate.Errors{}); !errs.Required("id", id) {
		return Coupon{}, apperr.FromFields(errs)
	}
	c, err := s.d.Store.Coupon(ctx, memberID, id)
	if errors.Is(err, ErrNotFound) {
		return Coupon{}, apperr.ErrNotFound
	}
	if err != nil {
		return Coupon{}, fmt.Errorf("coupon refund: %w", err)
	}
	nameKey, descriptionKey := c.Name, c.Description
	c = s.view(c, lang)
	if c.Disabled {
		return Coupon{}, ErrAlreadyRefunded
	}
	if !c.Refundable || s.d.Refunder == nil {
		return Coupon{}, ErrNotRefundable
	}
	if err := s.d.Store.ClaimRefund(ctx, memberID, id); err != nil {
		if errors.Is(err, ErrConflict) {
			return Coupon{}, ErrAlreadyRefunded
		}
		return Coupon{}, fmt.Errorf("coupon refund: %w", err)
	}
	// Nothing to give back when the fee takes it all: the coupon is only
	// cancelled.
	if c.RefundAmount == 0 {
		err = nil
	} else {
		err = s.d.Refunder.Refund(ctx, memberID, c.PaymentProcessID, c.RefundAmount, "coupon_refund")
	}
	if err != nil {
		if rerr := s.d.Store.ReleaseRefund(context.WithoutCancel(ctx), memberID, id); rerr != nil {
			s.d.Logger.Error("coupon refund: release claim", "coupon", id, "err", rerr)
		}
		s.d.Logger.Warn("coupon refund", "coupon", id, "err", err)
		return Coupon{}, ErrRefundFailed
	}
	if c.RefundAmount > 0 {
		// The engine recorded the refund and disabled the coupon in one
		// transaction (Sale.EndGoods), and mailed the member after it
		// (Sale.Refunded): the coupon as it now stands.
		done, err := s.d.Store.Coupon(context.WithoutCancel(ctx), memberID, id)
		if err != nil {
			return Coupon{}, fmt.Errorf("coupon refund: %w", err)
		}
		return s.view(done, lang), nil
	}
	now := s.d.Now().UTC().Truncate(time.Millisecond)
	if err := s.d.Store.CompleteRefund(context.WithoutCancel(ctx), memberID, id, c.RefundAmount, now); err != nil {
		return Coupon{}, fmt.Errorf("coupon refund: complete: %w", err)
	}
	c.Disabled, c.Refundable, c.RefundedAt = true, false, &now
	mc := c
	mc.Name, mc.Description = nameKey, descriptionKey
	s.mail(ctx, memberID, lang, MailRefunded, mc)
	return c, nil
}

// mail sends a coupon mail, logging failures: see send.
func (s *Service) mail(ctx context.Context, memberID, fallback, kind string, c Coupon) {
	if err := s.send(ctx, memberID, fallback, kind, c); err != nil {
		s.d.Logger.Warn("coupon mail", "kind", kind, "member", memberID, "err", err)
	}
}

// send sends a coupon mail in the member's mail language, else fallback
// (the language of the page where the member bought or refunded). c holds
// its name and description as catalogue keys (a row recorded before may
// hold them written out: they are used as they are); they are written in
// the mail's language here, never taken from a text of another language.
func (s *Service) send(ctx context.Context, memberID, fallback, kind string, c Coupon) error {
	h, err := s.d.Members.CouponHolder(ctx, memberID)
	if err != nil {
		return err
	}
	fb, _ := i18n.Parse(fallback)
	h.Lang = string(notify.MailLang(h.MailLang, fb))
	c.Name, c.Description = s.d.Translate(h.Lang, c.Name), s.d.Translate(h.Lang, c.Description)
	return s.d.Mailer.SendCouponMail(ctx, Mail{Kind: kind, To: h, Coupon: c})
}
