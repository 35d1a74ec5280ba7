package stripe

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	sapi "github.com/stripe/stripe-go/v85"

	"members/internal/apperr"
	"members/internal/payment"
	"members/internal/signature"
)

// WebhookPath is where Stripe sends its events.
const WebhookPath = "/webhooks/stripe"

// Tolerance is how old a signed event may be.
const Tolerance = 5 * time.Minute

// Events are the events the endpoint takes (configured in Stripe's
// dashboard, docs/gateways.md "Connecting Stripe").
var Events = []string{
	"payment_intent.succeeded", "payment_intent.payment_failed", "payment_intent.canceled",
	"payment_intent.processing", "payment_intent.requires_action", "payment_intent.amount_capturable_updated",
	"charge.refunded", "refund.updated", "setup_intent.succeeded", "setup_intent.setup_failed",
}

// Hints is what takes a verified event: the engine (payment.Engine).
type Hints interface {
	HandleEvent(ctx context.Context, ev payment.Event) error
}

// SetupHints saves the card of a check that succeeded while its member
// never came back (payment.Cards).
type SetupHints interface {
	SetupSucceeded(ctx context.Context, setupID string) error
}

// Webhooks receives Stripe's events at WebhookPath.
type Webhooks struct {
	gw      *Gateway
	hints   Hints
	setups  SetupHints
	secrets []string
	now     func() time.Time
	log     *slog.Logger
}

// NewWebhooks returns the receiver; secrets are the current signing
// secret, then the previous one during a rotation; now is the server's
// clock the signatures' timestamps are held against.
func NewWebhooks(gw *Gateway, hints Hints, setups SetupHints, secrets []string, now func() time.Time, log *slog.Logger) *Webhooks {
	var s []string
	for _, x := range secrets {
		if x != "" {
			s = append(s, x)
		}
	}
	return &Webhooks{gw: gw, hints: hints, setups: setups, secrets: s, now: now, log: log}
}

// Verify checks Stripe-Signature over body with each secret in turn, as
// Stripe documents it: "t=<unix seconds>,v1=<hex HMAC-SHA256 of
// "t.body">", the scheme internal/signature implements, with t at most
// Tolerance from the server's clock in either direction (stripe-go's
// webhook.ConstructEvent takes any timestamp in the future, and reads the
// machine's clock). A refused signature is logged at WARN with the reason
// (a wrong secret after a rotation shows there) and is
// payment.ErrBadSignature. A body that is signed but is no event is
// payment.ErrMalformed. The API version of the event is not checked: the
// account's version decides it.
func (w *Webhooks) Verify(body []byte, header string) (sapi.Event, error) {
	err := signature.ErrBad
	if header == "" {
		err = payment.ErrNotSigned
	}
	for _, s := range w.secrets {
		if header == "" {
			break
		}
		e := signature.Verify([]byte(s), header, body, w.now(), Tolerance)
		if e == nil || errors.Is(e, signature.ErrStale) {
			// signed by this secret: its verdict is the reason
			err = e
			break
		}
	}
	if err != nil {
		w.log.Warn("stripe: webhook signature refused", "reason", payment.SignatureReason(err))
		return sapi.Event{}, payment.ErrBadSignature
	}
	var ev sapi.Event
	if err := json.Unmarshal(body, &ev); err != nil || ev.ID == "" || ev.Object != "event" {
		return sapi.Event{}, payment.ErrMalformed
	}
	return ev, nil
}

// Handle takes one verified event as a hint. A PaymentIntent's event is
// the engine's: its claim (the PaymentIntent as the event states it) is
// checked against the PaymentIntent read from Stripe and against the
// process (amount, currency, metadata.reference), and only Stripe's own
// record is applied; a difference is the engine's discrepancy alert. A
// refund's event names its PaymentIntent, which is read. A SetupIntent
// that succeeded saves its card. Other events are acknowledged.
func (w *Webhooks) Handle(ctx context.Context, ev sapi.Event) error {
	var claim payment.GatewayPayment
	switch {
	case strings.HasPrefix(string(ev.Type), "payment_intent."):
		var pi sapi.PaymentIntent
		if err := json.Unmarshal(ev.Data.Raw, &pi); err != nil || pi.ID == "" {
			return apperr.New(apperr.Invalid, "error.bad_request")
		}
		claim = Payment(&pi)
	case ev.Type == "charge.refunded":
		var ch sapi.Charge
		if err := json.Unmarshal(ev.Data.Raw, &ch); err != nil || ch.PaymentIntent == nil {
			return apperr.New(apperr.Invalid, "error.bad_request")
		}
		gp, err := w.gw.Payment(ctx, ch.PaymentIntent.ID)
		if errors.Is(err, payment.ErrUnknownToken) {
			w.log.Warn("stripe: refund event for an unknown payment", "event", ev.ID)
			return nil
		}
		if err != nil {
			return err
		}
		claim = gp
	case ev.Type == "refund.updated":
		// a refund's event names its PaymentIntent, read as for a charge
		var re sapi.Refund
		if err := json.Unmarshal(ev.Data.Raw, &re); err != nil || re.PaymentIntent == nil {
			return apperr.New(apperr.Invalid, "error.bad_request")
		}
		gp, err := w.gw.Payment(ctx, re.PaymentIntent.ID)
		if errors.Is(err, payment.ErrUnknownToken) {
			w.log.Warn("stripe: refund event for an unknown payment", "event", ev.ID)
			return nil
		}
		if err != nil {
			return err
		}
		claim = gp
	case ev.Type == "setup_intent.succeeded":
		var si sapi.SetupIntent
		if err := json.Unmarshal(ev.Data.Raw, &si); err != nil || si.ID == "" {
			return apperr.New(apperr.Invalid, "error.bad_request")
		}
		if w.setups == nil {
			return nil
		}
		return w.setups.SetupSucceeded(ctx, si.ID)
	default:
		// setup_intent.setup_failed and the rest: the member sees the
		// refusal on return; nothing is kept
		return nil
	}
	e := payment.Event{ID: ev.ID, Type: string(ev.Type), Created: ev.Created}
	e.Data.Payment = claim
	return w.hints.HandleEvent(ctx, e)
}

// ServeHTTP answers Stripe: 200 handled or ignored, 400 a bad signature
// or body (Stripe shows it and retries), 409 a process busy this instant
// and 503 anything else (Stripe retries).
func (w *Webhooks) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	var ev sapi.Event
	body, err := io.ReadAll(http.MaxBytesReader(rw, r.Body, 256<<10))
	if err != nil {
		err = apperr.New(apperr.Invalid, "error.bad_request")
	} else if ev, err = w.Verify(body, r.Header.Get("Stripe-Signature")); err == nil {
		err = w.Handle(r.Context(), ev)
	}
	payment.WriteWebhookReply(rw, err, http.StatusBadRequest, w.log.With("event", ev.ID))
}
