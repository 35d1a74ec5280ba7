package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"

	"members/internal/api/paymentapi"
	"members/internal/apperr"
	"members/internal/payment"
)

// PaymentHandlers implements paymentapi.ServerInterface: saved cards,
// payment availability and, for every product, the buy paths. The buy
// handlers are one generic set over the product type; a product nobody
// registered with the engine is a 404.
type PaymentHandlers struct {
	*Server
	engine *payment.Engine
	cards  *payment.Cards
}

var _ paymentapi.ServerInterface = (*PaymentHandlers)(nil)

// NewPaymentHandlers returns the handlers of the payment API.
func NewPaymentHandlers(s *Server, e *payment.Engine, c *payment.Cards) *PaymentHandlers {
	return &PaymentHandlers{Server: s, engine: e, cards: c}
}

func (h *PaymentHandlers) GetPaymentAvailability(w http.ResponseWriter, r *http.Request, p paymentapi.GetPaymentAvailabilityParams) {
	res, err := h.engine.Availability(p.Currency, str(p.ProductType))
	h.reply(w, r, res, err)
}

func (h *PaymentHandlers) ListCreditCards(w http.ResponseWriter, r *http.Request) {
	res, err := h.cards.List(r.Context(), member(r))
	h.reply(w, r, res, err)
}

func (h *PaymentHandlers) RegisterCreditCard(w http.ResponseWriter, r *http.Request) {
	var body paymentapi.RegisterCreditCardJSONRequestBody
	if !h.DecodeJSON(w, r, &body) {
		return
	}
	res, err := h.cards.Register(r.Context(), member(r), Lang(r), payment.RegisterInput{
		Token: body.Token, Gateway: str(body.Gateway), Currency: body.Currency,
	})
	h.reply(w, r, res, err)
}

// DeleteCreditCard answers 200 when the confirmation mail was sent and 204
// when it was not (spec §4).
func (h *PaymentHandlers) DeleteCreditCard(w http.ResponseWriter, r *http.Request, token string, p paymentapi.DeleteCreditCardParams) {
	sent, err := h.cards.Delete(r.Context(), member(r), Lang(r), token, p.Gateway)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	if !sent {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (h *PaymentHandlers) GetPendingPayment(w http.ResponseWriter, r *http.Request) {
	res, err := h.engine.Pending(r.Context(), member(r))
	h.reply(w, r, res, err)
}

// ListPendingPayments lists the member's payments left for later.
func (h *PaymentHandlers) ListPendingPayments(w http.ResponseWriter, r *http.Request) {
	res, err := h.engine.PendingPayments(r.Context(), member(r))
	h.reply(w, r, res, err)
}

// CancelPendingPayment cancels the member's pending payment (404 for
// another member's, 409 once it has been paid).
func (h *PaymentHandlers) CancelPendingPayment(w http.ResponseWriter, r *http.Request, id string) {
	res, err := h.engine.Cancel(r.Context(), member(r), id)
	h.reply(w, r, res, err)
}

func (h *PaymentHandlers) GetPaymentProcessStatus(w http.ResponseWriter, r *http.Request, id string) {
	res, err := h.engine.Status(r.Context(), member(r), "", id)
	h.reply(w, r, res, err)
}

// purchaseBody reads a purchase body: any JSON object (the product checks
// its own fields, the engine the payment fields).
func (h *PaymentHandlers) purchaseBody(w http.ResponseWriter, r *http.Request) (json.RawMessage, bool) {
	var body map[string]json.RawMessage
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
	if err != nil || json.Unmarshal(b, &body) != nil || body == nil {
		h.writeMessage(w, r, http.StatusBadRequest, "error.bad_request")
		return nil, false
	}
	return b, true
}

func (h *PaymentHandlers) validate(w http.ResponseWriter, r *http.Request, product string) {
	body, ok := h.purchaseBody(w, r)
	if !ok {
		return
	}
	res, err := h.engine.Validate(r.Context(), member(r), Lang(r), product, body)
	h.reply(w, r, res, err)
}

func (h *PaymentHandlers) buy(w http.ResponseWriter, r *http.Request, product string) {
	body, ok := h.purchaseBody(w, r)
	if !ok {
		return
	}
	res, err := h.engine.Buy(r.Context(), member(r), Lang(r), product, body)
	h.reply(w, r, res, err)
}

func (h *PaymentHandlers) cont(w http.ResponseWriter, r *http.Request, product, id string) {
	res, err := h.engine.Continue(r.Context(), member(r), product, id)
	h.reply(w, r, res, err)
}

func (h *PaymentHandlers) status(w http.ResponseWriter, r *http.Request, product, id string) {
	res, err := h.engine.Status(r.Context(), member(r), product, id)
	h.reply(w, r, res, err)
}

// PreapplyPeachpointsPurchase answers before the purchase form is filled:
// 409 payment_pending while a payment of the member is pending, else the
// currencies, amounts and ways to pay the form offers.
func (h *PaymentHandlers) PreapplyPeachpointsPurchase(w http.ResponseWriter, r *http.Request) {
	res, err := h.engine.Preapply(r.Context(), member(r), "peachpoints")
	h.reply(w, r, res, err)
}

func (h *PaymentHandlers) ValidatePeachpointsPurchase(w http.ResponseWriter, r *http.Request) {
	h.validate(w, r, "peachpoints")
}
func (h *PaymentHandlers) BuyPeachpoints(w http.ResponseWriter, r *http.Request) {
	h.buy(w, r, "peachpoints")
}
func (h *PaymentHandlers) ContinuePeachpointsPurchase(w http.ResponseWriter, r *http.Request, id string) {
	h.cont(w, r, "peachpoints", id)
}
func (h *PaymentHandlers) GetPeachpointsPurchaseStatus(w http.ResponseWriter, r *http.Request, id string) {
	h.status(w, r, "peachpoints", id)
}
func (h *PaymentHandlers) ValidateGogoPassPurchase(w http.ResponseWriter, r *http.Request) {
	h.validate(w, r, "gogo_pass")
}
func (h *PaymentHandlers) BuyGogoPass(w http.ResponseWriter, r *http.Request) {
	h.buy(w, r, "gogo_pass")
}
func (h *PaymentHandlers) ContinueGogoPassPurchase(w http.ResponseWriter, r *http.Request, id string) {
	h.cont(w, r, "gogo_pass", id)
}
func (h *PaymentHandlers) GetGogoPassPurchaseStatus(w http.ResponseWriter, r *http.Request, id string) {
	h.status(w, r, "gogo_pass", id)
}
func (h *PaymentHandlers) ValidateCouponTicketPurchase(w http.ResponseWriter, r *http.Request) {
	h.validate(w, r, "coupon_ticket")
}
func (h *PaymentHandlers) BuyCouponTicket(w http.ResponseWriter, r *http.Request) {
	h.buy(w, r, "coupon_ticket")
}
func (h *PaymentHandlers) ContinueCouponTicketPurchase(w http.ResponseWriter, r *http.Request, id string) {
	h.cont(w, r, "coupon_ticket", id)
}
func (h *PaymentHandlers) GetCouponTicketPurchaseStatus(w http.ResponseWriter, r *http.Request, id string) {
	h.status(w, r, "coupon_ticket", id)
}

// PaymentWebhook is the gateway's webhook receiver (POST /webhooks/gateway,
// outside /api: no session, no CSRF token; the signature and its
// timestamp authenticate it). 2xx acknowledges; anything else makes the
// gateway retry.
func PaymentWebhook(e *payment.Engine, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 256<<10))
		if err != nil {
			http.Error(w, `{"message":"bad request"}`, http.StatusBadRequest)
			return
		}
		err = e.HandleWebhook(r.Context(), body, r.Header.Get("Gateway-Signature"))
		w.Header().Set("Content-Type", "application/json")
		switch {
		case err == nil:
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"received":true}`))
		case errors.Is(err, payment.ErrBadSignature):
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"message":"bad signature"}`))
		case errors.Is(err, payment.ErrBusy):
			w.WriteHeader(http.StatusConflict)
			_, _ = w.Write([]byte(`{"message":"busy, send again later"}`))
		case apperr.CodeOf(err) == apperr.Invalid:
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"message":"bad request"}`))
		default:
			log.Warn("payment: webhook not handled", "err", err)
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"message":"try again"}`))
		}
	})
}
