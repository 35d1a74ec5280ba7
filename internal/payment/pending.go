package payment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"members/internal/apperr"
	"members/internal/i18n"
	"members/internal/mail"
	"members/internal/notify"
)

// PendingPayment is one payment of the member's left for later (a slip to
// pay at a shop, an ATM or a bank; a QR payment; a card challenge): what
// it buys, the amount, the deadline, the slip's numbers and where to pay.
type PendingPayment struct {
	PaymentProcessID string    `json:"paymentProcessId"`
	ProductType      string    `json:"productType"`
	Description      string    `json:"description"`
	Amount           int64     `json:"amount"`
	Currency         string    `json:"currency"`
	PaymentMethod    string    `json:"paymentMethod"`
	OtherPaymentType string    `json:"otherPaymentType,omitempty"`
	Card             *CardView `json:"card,omitempty"`
	// PayURL is the gateway's page where the member pays (or shows the
	// slip); empty while the gateway has not answered yet.
	PayURL    string    `json:"payUrl,omitempty"`
	Slip      *Slip     `json:"slip,omitempty"`
	ExpiresAt time.Time `json:"expiresAt"`
	CreatedAt time.Time `json:"createdAt"`
}

// PendingList is the answer of GET /api/payments/pending.
type PendingList struct {
	Payments []PendingPayment `json:"payments"`
}

// PendingPayments lists the member's payments waiting to be paid, oldest
// first: one that blocks a new purchase (its first 30 minutes), and the
// slips left for later past that, each payable until its own deadline.
func (e *Engine) PendingPayments(ctx context.Context, memberID string) (PendingList, error) {
	out := PendingList{Payments: []PendingPayment{}}
	ps, err := e.store.PendingProcesses(ctx, memberID)
	if err != nil {
		return out, fmt.Errorf("payment: pending payments: %w", err)
	}
	for _, p := range ps {
		v := p.view()
		item := PendingPayment{
			PaymentProcessID: p.ID, ProductType: p.ProductType, Description: p.Description, Amount: p.Amount,
			Currency: p.Currency, PaymentMethod: p.PaymentMethod, OtherPaymentType: p.OtherPaymentType, Card: v.Card,
			Slip: v.Slip, ExpiresAt: p.ExpiresAt.UTC(), CreatedAt: p.CreatedAt.UTC(),
		}
		if v.NextAction != nil {
			item.PayURL = v.NextAction.URL
		}
		out.Payments = append(out.Payments, item)
	}
	return out, nil
}

var (
	// ErrNotCancelable: the payment has been made; it cannot be cancelled.
	ErrNotCancelable = apperr.New(apperr.Conflict, "payment.error.not_cancelable")
	// ErrCancelBusy: the payment is being worked on this instant.
	ErrCancelBusy = apperr.New(apperr.Conflict, "payment.error.busy")
)

// Cancel gives up a member's pending payment: the gateway payment is
// cancelled under the process's cancel key (a repeat, a double click or a
// second tab cancels once) and the process moves pending → failed with
// failure code "canceled". A payment the member made meanwhile is settled
// instead, and its goods granted. A payment already failed or expired
// answers as it stands; a settled one is ErrNotCancelable. Another
// member's process is a 404.
func (e *Engine) Cancel(ctx context.Context, memberID, id string) (View, error) {
	p, err := e.load(ctx, memberID, "", id)
	if err != nil {
		return View{}, err
	}
	switch p.Status {
	case Failed, Expired:
		return p.view(), nil
	case Settled, Refunded:
		return View{}, ErrNotCancelable
	case Prepared:
		// never sent to the gateway: it simply ends
		ok, err := e.store.Move(ctx, p.ID, Prepared, Expired, Changes{FailureCode: ptr(FailCanceled)}, e.now())
		if err != nil {
			return View{}, fmt.Errorf("payment: cancel: %w", err)
		}
		if !ok {
			return e.reload(ctx, p.ID)
		}
		return e.reload(ctx, p.ID)
	}
	now := e.now()
	owner := "c" + randomID()
	ok, err := e.store.ClaimOne(ctx, p.ID, owner, now, now.Add(e.cfg.Lease))
	if err != nil {
		return View{}, fmt.Errorf("payment: cancel: %w", err)
	}
	if !ok {
		return View{}, ErrCancelBusy
	}
	err = e.cancelAtGateway(ctx, &p)
	next := e.now().Add(e.cfg.Poll)
	if err != nil {
		next = e.now().Add(e.cfg.Retry)
	}
	if uerr := e.store.Update(ctx, p.ID, Changes{ReleaseLease: true, NextCheckAt: &next}, e.now()); uerr != nil {
		e.log.Warn("payment: release lease", "process", p.ID, "err", uerr)
	}
	if err != nil {
		return View{}, fmt.Errorf("payment: cancel %s: %w", p.ID, err)
	}
	v, err := e.reload(ctx, p.ID)
	if err == nil && (v.Status == Settled || v.Status == Refunded) {
		return v, ErrNotCancelable
	}
	return v, err
}

func ptr[T any](v T) *T { return &v }

// cancelAtGateway cancels the process's gateway payment (found by
// reference when its id was never recorded) and applies what the gateway
// says; with no payment at the gateway the process fails at once.
func (e *Engine) cancelAtGateway(ctx context.Context, p *Process) error {
	if p.GatewayPaymentID == "" {
		found, err := e.gw.PaymentsByReference(ctx, p.ID)
		if err != nil {
			return err
		}
		if len(found) == 0 {
			return e.fail(ctx, p, FailCanceled)
		}
		id := found[0].ID
		if err := e.store.Update(ctx, p.ID, Changes{GatewayPaymentID: &id}, e.now()); err != nil {
			return err
		}
		p.GatewayPaymentID = id
	}
	gp, err := e.gw.Cancel(ctx, idemKey(p.ID, "cancel"), p.GatewayPaymentID)
	if errors.Is(err, ErrGatewayRefused) {
		// paid, failed or expired meanwhile: apply what it is
		gp, err = e.gw.Payment(ctx, p.GatewayPaymentID)
	}
	if err != nil {
		return err
	}
	if gp.Status == GWFailed && gp.FailureCode == "" {
		gp.FailureCode = FailCanceled
	}
	return e.apply(ctx, p, gp)
}

// mailSlip sends the slip to the member in the language of the purchase.
// A mail that cannot be sent is logged: the slip stays on the pending
// payments page.
func (e *Engine) mailSlip(ctx context.Context, p Process, slip Slip) {
	err := e.mailAboutSlip(ctx, p, "payment_slip", "/payments/pending", e.describe, func(cat *i18n.Catalog, lang i18n.Lang) []mail.Detail { return slipDetails(cat, lang, slip) })
	if err != nil {
		e.log.Warn("payment: slip mail not sent", "kind", "payment_slip", "process", p.ID, "err", err)
	}
}

// mailSlipEnded tells the member that a slip ended unpaid, then marks the
// mail sent: it expired (payment_slip_expired) or they cancelled it
// (payment_slip_cancelled). The status change that ended it recorded the
// mail as owed (Changes.Notify), and only the caller whose change took
// effect sends it, so a repeat, a second tab or another instance sends
// none; a crash before it is sent, or a mail the outbox could not store,
// leaves it owed to the worker's sweep. A process without a slip (a card,
// a QR payment) ends on the page the member is on and is not mailed.
func (e *Engine) mailSlipEnded(ctx context.Context, p Process) {
	var slip Slip
	if len(p.Slip) > 0 && json.Unmarshal(p.Slip, &slip) == nil {
		kind := "payment_slip_expired"
		if p.Status == Failed {
			kind = "payment_slip_cancelled"
		}
		// the button opens the payment's result page, with its Start again
		// the item is named beside its amount ("Peach Points (JPY 3,000)")
		err := e.mailAboutSlip(ctx, p, kind, "/payment/"+p.ProductType+"/"+p.ID+"/result", e.itemName, func(cat *i18n.Catalog, lang i18n.Lang) []mail.Detail {
			// the receipt number is the one the member may have written down
			return slipDetails(cat, lang, Slip{ReceiptNumber: slip.ReceiptNumber})
		})
		if err != nil {
			e.log.Warn("payment: slip mail not stored, left to the worker's sweep", "kind", kind, "process", p.ID, "err", err)
			return
		}
	}
	e.storeFailed(ctx, "mark notified", p.ID, e.store.MarkNotified(ctx, p.ID))
}

// mailAboutSlip sends one of the slip's mails in the member's mail
// language: the item (written by item), the amount and the deadline, with details and a
// button to page (a path of the site). It returns an error only when the
// mail was not stored for a reason that may pass (the database); one
// stored and not delivered yet is the outbox's to retry, and one that can
// never be sent (no mailer, no member, a template that fails) is logged.
func (e *Engine) mailAboutSlip(ctx context.Context, p Process, kind, page string, item func(Process, i18n.Lang) string, details func(*i18n.Catalog, i18n.Lang) []mail.Detail) error {
	if e.cfg.Mailer == nil || e.cfg.MailTemplates == nil {
		return nil
	}
	to, given, family, chosen, err := e.store.Contact(ctx, p.MemberID)
	if errors.Is(err, ErrNotFound) {
		e.log.Warn("payment: slip mail: no member", "kind", kind, "process", p.ID)
		return nil
	}
	if err != nil {
		return fmt.Errorf("payment: slip mail contact: %w", err)
	}
	lang, ok := i18n.Parse(p.Lang)
	if !ok {
		lang = i18n.EN
	}
	lang = notify.MailLang(chosen, lang)
	cat := e.cfg.MailTemplates.Catalog()
	msg, err := e.cfg.MailTemplates.Standard(kind, lang, to, mail.Data{
		Given: given, Family: family,
		Args: []any{"item", item(p, lang), "amount", FormatMoney(p.Amount, p.Currency, lang),
			"deadline", FormatDeadline(cat, lang, p.ExpiresAt)},
		Details: details(cat, lang),
		// the link opens the page in the mail's language
		URL: e.cfg.ReturnBase + page + "?lang=" + string(lang),
	})
	if err != nil {
		e.log.Error("payment: render slip mail", "kind", kind, "process", p.ID, "err", err)
		return nil
	}
	err = e.cfg.Mailer.Send(ctx, msg)
	if errors.Is(err, mail.ErrNotSent) {
		e.log.Warn("payment: slip mail not sent", "kind", kind, "process", p.ID, "err", err)
		return nil
	}
	if err != nil {
		return fmt.Errorf("payment: slip mail %s: %w", kind, err)
	}
	return nil
}

func slipDetails(cat *i18n.Catalog, lang i18n.Lang, s Slip) []mail.Detail {
	var out []mail.Detail
	add := func(key, v string) {
		if v != "" {
			// read out at the shop's till: never broken in the HTML part
			out = append(out, mail.Detail{Label: cat.T(lang, "payment.slip."+key), Value: v, Number: true})
		}
	}
	add("receipt_number", s.ReceiptNumber)
	add("confirmation_number", s.ConfirmationNumber)
	add("institution_number", s.InstitutionNumber)
	add("customer_number", s.CustomerNumber)
	for _, store := range []string{"familymart", "lawson", "ministop", "seicomart"} {
		add("payment_code."+store, s.PaymentCodes[store])
	}
	return out
}

// FormatDeadline writes a deadline in Japan time in lang's date form with
// the time and a label saying it is Japan time.
func FormatDeadline(cat *i18n.Catalog, lang i18n.Lang, t time.Time) string {
	j := t.In(jst)
	return cat.T(lang, "payment.slip.deadline_jst", "date", i18n.FormatDate(lang, j, false), "time", j.Format("15:04"))
}

// FormatMoney writes an amount in minor units with its currency the
// language's one way ("JPY 47,600"; "47,600円" in Japanese): i18n.FormatMoney.
func FormatMoney(minor int64, currency string, lang i18n.Lang) string {
	return i18n.FormatMoney(lang, minor, currency)
}
