package payment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"members/internal/apperr"
	"members/internal/signature"
)

// Event is a gateway webhook event.
type Event struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Created int64  `json:"created"`
	Data    struct {
		Payment GatewayPayment `json:"payment"`
	} `json:"data"`
}

// ErrBusy is a webhook for a process another caller holds the lease of.
var ErrBusy = errors.New("payment: process busy, send the event again later")

// ErrBadSignature is a webhook whose signature or timestamp is wrong.
var ErrBadSignature = apperr.New(apperr.Forbidden, "error.forbidden")

// ErrMalformed is a well-signed webhook whose body is not an event.
var ErrMalformed = apperr.New(apperr.Invalid, "error.bad_request")

// SignatureReason names why a signature was refused, for the WARN line
// of each refusal: "stale" (a timestamp more than the tolerance from the
// server's clock, either way: a replay or a clock far off), "no
// signature" or "bad signature" (most often a wrong secret, after a
// rotation).
func SignatureReason(err error) string {
	switch {
	case errors.Is(err, signature.ErrStale):
		return "timestamp more than the tolerance from the server's clock"
	case errors.Is(err, ErrNotSigned):
		return "no signature header"
	}
	return "no valid signature under the webhook secrets"
}

// WriteWebhookReply answers a gateway's webhook with the outcome of
// handling it: 200 handled or ignored; badSignature (the gateway's own
// status for a signature refused) for ErrBadSignature; 400 a bad body; 409
// a process busy this instant and 503 anything else, both of which the
// gateway sends again. Any answer but 2xx makes a gateway retry.
func WriteWebhookReply(w http.ResponseWriter, err error, badSignature int, log *slog.Logger) {
	status, body := http.StatusOK, `{"received":true}`
	switch {
	case err == nil:
	case errors.Is(err, ErrBadSignature):
		status, body = badSignature, `{"message":"bad signature"}`
	case errors.Is(err, ErrBusy):
		status, body = http.StatusConflict, `{"message":"busy, send again later"}`
	case apperr.CodeOf(err) == apperr.Invalid:
		status, body = http.StatusBadRequest, `{"message":"malformed"}`
	default:
		log.Warn("payment: webhook not handled", "err", err)
		status, body = http.StatusServiceUnavailable, `{"message":"try again"}`
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// VerifySignature checks the header "t=<unix seconds>,v1=<hex HMAC-SHA256
// of "t.body">" with secret and that t is within tolerance of now; any
// failure is ErrBadSignature.
func VerifySignature(secret, body []byte, header string, now time.Time, tolerance time.Duration) error {
	if signature.Verify(secret, header, body, now, tolerance) != nil {
		return ErrBadSignature
	}
	return nil
}

// ErrNotSigned is a webhook without a signature header (the reason of a
// refusal; the caller answers ErrBadSignature).
var ErrNotSigned = errors.New("payment: webhook without a signature header")

// Sign returns the signature header for body at t (tests, the sandbox).
func Sign(secret, body []byte, t time.Time) string { return signature.Sign(secret, t, body) }

// verifyWebhook checks the signature against the current secret, then the
// previous ones (a change of secret in progress).
// A refused signature is logged at WARN with the reason.
func (e *Engine) verifyWebhook(body []byte, header string) error {
	var err error = ErrNotSigned
	if header != "" {
		for _, secret := range append([][]byte{e.cfg.WebhookSecret}, e.cfg.PreviousWebhookSecrets...) {
			err = signature.Verify(secret, header, body, e.now(), e.cfg.WebhookTolerance)
			if err == nil || errors.Is(err, signature.ErrStale) {
				// signed by this secret: its verdict is the reason
				break
			}
		}
	}
	if err != nil {
		e.log.Warn("payment: webhook signature refused", "reason", SignatureReason(err))
		return ErrBadSignature
	}
	return nil
}

// HandleWebhook verifies one gateway event and takes it as a hint: the
// payment it names is read from the gateway, and the process follows that
// record, never the event's own word. An event whose claim differs from
// the record (amount, currency, reference, or an end the record has not
// reached), or a record that differs from the process, settles nothing:
// it is alerted (ERROR) and recorded as a discrepancy, and acknowledged.
// Each event id is handled once; a replay is acknowledged without effect.
// An error means "not acknowledged": the gateway retries later.
func (e *Engine) HandleWebhook(ctx context.Context, body []byte, signature string) error {
	if err := e.verifyWebhook(body, signature); err != nil {
		return err
	}
	var ev Event
	if err := json.Unmarshal(body, &ev); err != nil {
		return ErrMalformed
	}
	return e.HandleEvent(ctx, ev)
}

// HandleEvent takes one verified gateway event as a hint, as
// HandleWebhook does (a gateway adapter that verifies its provider's own
// signatures, Stripe's, hands its events here): the event's claim is the
// payment as the event states it, with Reference the process id.
func (e *Engine) HandleEvent(ctx context.Context, ev Event) error {
	if ev.ID == "" || len(ev.ID) > 100 {
		return apperr.New(apperr.Invalid, "error.bad_request")
	}
	seen, err := e.store.SeenEvent(ctx, ev.ID)
	if err != nil {
		return fmt.Errorf("payment: webhook: %w", err)
	}
	if seen {
		return nil
	}
	claim := ev.Data.Payment
	p, err := e.store.Process(ctx, claim.Reference)
	switch {
	case errors.Is(err, ErrNotFound) || claim.Reference == "":
		e.log.Info("payment: webhook for an unknown process", "event", ev.ID)
		return e.recordEvent(ctx, ev)
	case err != nil:
		return fmt.Errorf("payment: webhook: %w", err)
	case p.GatewayPaymentID != "" && p.GatewayPaymentID != claim.ID:
		e.log.Warn("payment: webhook for another payment of the process", "event", ev.ID, "process", p.ID)
		return e.recordEvent(ctx, ev)
	case claim.ID == "" || len(claim.ID) > 100:
		return apperr.New(apperr.Invalid, "error.bad_request")
	case p.Status == Settled && claim.Status == GWCaptured && claim.RefundedAmount == p.RefundedAmount && claim.ID == p.GatewayPaymentID && len(recordDiffs(&p, claim)) == 0:
		// The usual end of a card purchase: the process settled on the
		// gateway's own answer for this payment, and the event claims
		// just what was recorded then. It has nothing to apply and
		// nothing that differs, so the record is not read again. (A
		// claim of a refund, partial ones too, is read in full.)
		return e.recordEvent(ctx, ev)
	}
	gp, err := e.gw.Payment(ctx, claim.ID)
	if errors.Is(err, ErrUnknownToken) {
		e.alert(ctx, &p, "webhook", ev.ID, claim.ID, []string{"the gateway does not know the event's payment"})
		return e.recordEvent(ctx, ev)
	}
	if err != nil {
		// the gateway's record is needed first: not acknowledged, sent again
		return fmt.Errorf("payment: webhook %s: gateway record: %w", ev.ID, err)
	}
	if diffs := append(eventDiffs(claim, gp), recordDiffs(&p, gp)...); len(diffs) > 0 {
		e.alert(ctx, &p, "webhook", ev.ID, claim.ID, diffs)
		return e.recordEvent(ctx, ev)
	}
	switch {
	case p.Status == Pending && p.LeaseUntil.After(e.now()) && !endsWithoutGateway(gp.Status):
		// a request or a worker is driving this process right now and the
		// event asks for a gateway call (a capture), which is the holder's
		// to make: not acknowledged, so the gateway sends it again later,
		// when the holder is done. A captured, failed or expired payment
		// needs no gateway call: it is applied at once (below) by the same
		// conditional move the holder makes, so one of them wins and the
		// goods are granted once; the event is not sent again.
		return ErrBusy
	default:
		if p.GatewayPaymentID == "" && p.Status == Pending {
			if err := e.store.Update(ctx, p.ID, Changes{GatewayPaymentID: &gp.ID}, e.now()); err != nil {
				return fmt.Errorf("payment: webhook: %w", err)
			}
			p.GatewayPaymentID = gp.ID
		}
		if err := e.apply(ctx, &p, gp); err != nil {
			return fmt.Errorf("payment: webhook %s: %w", ev.ID, err)
		}
	}
	return e.recordEvent(ctx, ev)
}

// recordEvent marks an event handled (a replay is then acknowledged
// without effect).
func (e *Engine) recordEvent(ctx context.Context, ev Event) error {
	if err := e.store.RecordEvent(ctx, ev.ID, ev.Type, e.now()); err != nil && !errors.Is(err, ErrConflict) {
		return fmt.Errorf("payment: webhook: %w", err)
	}
	return nil
}

// endsWithoutGateway reports whether a gateway payment in status ends its
// process with no further gateway call: settle (captured), fail or expire.
func endsWithoutGateway(status string) bool {
	return status == GWCaptured || status == GWFailed || status == GWExpired
}
