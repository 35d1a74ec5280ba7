package app

import (
	"context"
	"fmt"
	"net/http"

	"members/internal/account"
	"members/internal/api/passapi"
	"members/internal/coupon"
	"members/internal/httpapi"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/pass"
	"members/internal/payment"
	"members/internal/store"
)

// Passes are the unlimited pass and the coupon pass services (the lottery
// command uses them too).
type Passes struct {
	Pass   *pass.Service
	Coupon *coupon.Service
}

// NewPasses builds the pass services on the app's database and mailer.
// refunder gives coupon passes back through the payment engine; an
// operator command that refunds nothing passes nil (refunds are then
// refused as not refundable).
func (a *App) NewPasses(cfg Config, refunder coupon.Refunder) (*Passes, error) {
	m, tpl, err := a.mailing(cfg)
	if err != nil {
		return nil, err
	}
	members := passMembers{store.NewAccountStore(a.DB)}
	mailer := &passMailer{cat: a.Catalog, tpl: tpl, mailer: m}
	// a product's name is a message key or the operator's texts (i18n.Texts)
	translate := func(lang, key string) string { return a.Catalog.Text(langOf(lang), key) }
	return &Passes{
		Pass: pass.NewService(pass.Deps{
			Store: store.NewPassStore(a.DB), Status: a.Platform, Members: members, Mailer: mailer, Translate: translate,
			Counters: a.Counters, Now: a.DB.Now, NewID: store.NewID, Logger: a.Logger,
		}),
		Coupon: coupon.NewService(coupon.Deps{
			Store: store.NewCouponStore(a.DB), Status: a.Platform, Members: members, Mailer: mailer, Refunder: refunder, Translate: translate,
			ValidCountry: a.Countries.Valid, Now: a.DB.Now, NewID: store.NewID, Logger: a.Logger,
		}),
	}, nil
}

// wirePasses mounts the unlimited pass and the coupon pass. Their payment
// products ("gogo_pass", "coupon_ticket") register with engine, which also
// makes the coupon refunds.
func (a *App) wirePasses(_ context.Context, cfg Config, f *Features, pay payments) (*coupon.Service, error) {
	p, err := a.NewPasses(cfg, pay.Engine)
	if err != nil {
		return nil, err
	}
	pay.Checkouts.Pass = payment.Register(pay.Engine, p.Pass.Sale())
	pay.Checkouts.Coupon = payment.Register(pay.Engine, p.Coupon.Sale())
	f.Mounts = append(f.Mounts, func(s *httpapi.Server, mux *http.ServeMux) {
		passapi.HandlerWithOptions(httpapi.NewPassHandlers(s, p.Pass, p.Coupon), passapi.StdHTTPServerOptions{
			BaseRouter: mux, ErrorHandlerFunc: s.ParamError,
		})
	})
	return p.Coupon, nil
}

func langOf(code string) i18n.Lang {
	if l, ok := i18n.Parse(code); ok {
		return l
	}
	return i18n.Default
}

// passMembers reads the member for the pass (mails, the coupon purchaser).
type passMembers struct{ s *store.AccountStore }

func (m passMembers) member(ctx context.Context, id string) (account.Member, error) {
	mem, err := m.s.Member(ctx, id)
	if err != nil {
		return account.Member{}, fmt.Errorf("pass member %s: %w", id, err)
	}
	return mem, nil
}

func (m passMembers) Holder(ctx context.Context, id string) (pass.Holder, error) {
	mem, err := m.member(ctx, id)
	// the mail's language is the pass service's to decide (the member's
	// mail language, else the page's where the member acted)
	return pass.Holder{Email: mem.Email, Firstname: mem.Firstname, Lastname: mem.Lastname, MailLang: mem.MailLang}, err
}

func (m passMembers) CouponHolder(ctx context.Context, id string) (coupon.Holder, error) {
	mem, err := m.member(ctx, id)
	return coupon.Holder{
		Purchaser: coupon.Purchaser{Lastname: mem.Lastname, Firstname: mem.Firstname, Birthday: mem.Birth, Gender: mem.Gender},
		Email:     mem.Email, MailLang: mem.MailLang,
	}, err
}

// passMailer renders the pass mails with the shared templates and sends
// them through the app's mailer (outbox first, then SMTP).
type passMailer struct {
	cat    *i18n.Catalog
	tpl    *mail.Templates
	mailer *mail.Mailer
}

func (m *passMailer) SendPassMail(ctx context.Context, pm pass.Mail) error {
	lang := langOf(pm.To.Lang)
	var details []mail.Detail
	add := func(label, v string) {
		if v != "" {
			details = append(details, mail.Detail{Label: m.cat.T(lang, label), Value: v})
		}
	}
	add("mail.pass.name", pm.Name)
	if pm.Period.Begin != "" {
		add("mail.pass.boarding", pass.RangeIn(lang, pm.Period))
	}
	add("mail.pass.code", pm.Code)
	add("mail.pass.until", pm.Until)
	msg, err := m.tpl.Standard(pm.Kind, lang, pm.To.Email, mail.Data{Given: pm.To.Firstname, Family: pm.To.Lastname, Args: []any{"pass", pm.Name, "until", pm.Until}, Details: details})
	if err != nil {
		return fmt.Errorf("pass mail: %w", err)
	}
	return m.mailer.Send(ctx, msg)
}

func (m *passMailer) SendCouponMail(ctx context.Context, cm coupon.Mail) error {
	lang := langOf(cm.To.Lang)
	c := cm.Coupon
	details := []mail.Detail{
		{Label: m.cat.T(lang, "mail.pass.name"), Value: c.Name},
		{Label: m.cat.T(lang, "mail.pass.boarding"), Value: pass.RangeIn(lang, c.AvailablePeriodToBoard)},
		{Label: m.cat.T(lang, "mail.coupon.passengers"), Value: m.cat.TN(lang, "mail.coupon.passenger_count", 1+len(c.Passengers))},
		{Label: m.cat.T(lang, "mail.coupon.total"), Value: i18n.FormatMoney(lang, c.PurchasedPrice, c.CurrencyCode)},
	}
	if cm.Kind == coupon.MailRefunded {
		details = append(details, mail.Detail{Label: m.cat.T(lang, "mail.coupon.refund"), Value: i18n.FormatMoney(lang, c.RefundAmount, c.CurrencyCode)})
	}
	msg, err := m.tpl.Standard(cm.Kind, lang, cm.To.Email, mail.Data{Given: c.Purchaser.Firstname, Family: c.Purchaser.Lastname, Args: []any{"pass", c.Name}, Details: details})
	if err != nil {
		return fmt.Errorf("coupon mail: %w", err)
	}
	return m.mailer.Send(ctx, msg)
}
