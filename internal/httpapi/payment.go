package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"

	"members/internal/api/paymentapi"
	"members/internal/apperr"
	"members/internal/coupon"
	"members/internal/pass"
	"members/internal/payment"
	"members/internal/points"
)

// PaymentHandlers implements paymentapi.ServerInterface: saved cards,
// payment availability and, for every product, the buy paths. The buy
// handlers are one generic set over the product type; a product nobody
// registered with the engine is a 404.
type PaymentHandlers struct {
	*Server
	engine    *payment.Engine
	cards     *payment.Cards
	checkouts *Checkouts
}

// Checkouts are the products' checkouts the purchase endpoints buy
// through, each typed by its product's fields: a body handed to the wrong
// product does not build. The products register after the payment API is
// wired (they are handed the engine), so the app fills these in before the
// server is built.
type Checkouts struct {
	Points *payment.Checkout[points.PurchaseInput]
	Pass   *payment.Checkout[pass.Selection]
	Coupon *payment.Checkout[coupon.Selection]
}

var _ paymentapi.ServerInterface = (*PaymentHandlers)(nil)

// NewPaymentHandlers returns the handlers of the payment API.
func NewPaymentHandlers(s *Server, e *payment.Engine, c *payment.Cards, checkouts *Checkouts) *PaymentHandlers {
	return &PaymentHandlers{Server: s, engine: e, cards: c, checkouts: checkouts}
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

// CompleteCreditCardRegistration saves the card of a registration whose
// check needed the member (Stripe's 3-D Secure), once the member is back.
func (h *PaymentHandlers) CompleteCreditCardRegistration(w http.ResponseWriter, r *http.Request, setupID string) {
	res, err := h.cards.CompleteSetup(r.Context(), member(r), Lang(r), setupID)
	h.reply(w, r, res, err)
}

// DeleteCreditCard answers 200 when the confirmation mail was sent and 204
// when it was not.
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
	res, err := h.engine.PendingPaymentsIn(r.Context(), member(r), Lang(r))
	h.reply(w, r, res, err)
}

// CancelPendingPayment cancels the member's pending payment (404 for
// another member's, 409 once it has been paid).
func (h *PaymentHandlers) CancelPendingPayment(w http.ResponseWriter, r *http.Request, id string) {
	res, err := h.engine.Cancel(r.Context(), member(r), id)
	h.replyView(w, r, res, err)
}

func (h *PaymentHandlers) GetPaymentProcessStatus(w http.ResponseWriter, r *http.Request, id string) {
	res, err := h.engine.Status(r.Context(), member(r), "", id)
	h.replyView(w, r, res, err)
}

// decodePurchase reads a purchase body once, into T, the product's type
// in the API description, and splits it into the engine's and the
// product's fields (split). Anything but a JSON object is a 400. A value of
// the wrong JSON type is answered as before the body was typed: a payment
// field's at once, a product field's together with the payment fields'
// own errors (so on that path only, the payment fields are read again to
// tell which side it is).
func decodePurchase[B, P any](h *PaymentHandlers, w http.ResponseWriter, r *http.Request, split func(B) payment.Purchase[P]) (payment.Purchase[P], bool) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
	if t := bytes.TrimLeft(b, " \t\r\n"); err != nil || len(t) == 0 || t[0] != '{' {
		h.writeMessage(w, r, http.StatusBadRequest, "error.bad_request")
		return payment.Purchase[P]{}, false
	}
	var body B
	err = json.Unmarshal(b, &body)
	var typeErr *json.UnmarshalTypeError
	switch {
	case err == nil:
		return split(body), true
	case !errors.As(err, &typeErr):
		h.writeMessage(w, r, http.StatusBadRequest, "error.bad_request")
		return payment.Purchase[P]{}, false
	}
	var f payment.Fields
	if perr := json.Unmarshal(b, &f); perr != nil {
		return payment.Purchase[P]{PaymentErr: apperr.FromDecode(perr)}, true
	}
	return payment.Purchase[P]{Payment: f, ProductErr: apperr.FromDecode(err)}, true
}

// paymentFields are the engine's fields of a purchase body (each product's
// generated type has its own enum types for the method fields).
func paymentFields[M, O ~string](method *M, other *O, token, gateway *string, save *bool, requestID *string) payment.Fields {
	return payment.Fields{PaymentMethod: str(method), OtherPaymentType: str(other), CreditCardToken: str(token),
		CreditCardGateway: str(gateway), SaveCard: save != nil && *save, RequestID: str(requestID)}
}

// purchaseOf is the Purchase of body b, with Canonical, b written back
// from its generated type without requestId (b is the handler's own copy;
// requestID points at its field): the generated fields are in the order of
// their JSON names, so it is the sorted-key form the engine has always
// hashed.
func purchaseOf[B, P any](b *B, requestID **string, pay payment.Fields, product P) payment.Purchase[P] {
	*requestID = nil
	canonical, _ := json.Marshal(b)
	return payment.Purchase[P]{Payment: pay, Product: product, Canonical: canonical}
}

// val is an optional generated field's value (its zero when absent).
func val[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

func pointsPurchase(b paymentapi.PurchasePeachpoints) payment.Purchase[points.PurchaseInput] {
	return purchaseOf(&b, &b.RequestId,
		paymentFields(b.PaymentMethod, b.OtherPaymentType, b.CreditCardToken, b.CreditCardGateway, b.SaveCard, b.RequestId),
		points.PurchaseInput{Nominee: str(b.Nominee), CurrencyCode: str(b.CurrencyCode), Amount: val(b.Amount)})
}

func passPurchase(b paymentapi.PurchaseGogoPass) payment.Purchase[pass.Selection] {
	return purchaseOf(&b, &b.RequestId,
		paymentFields(b.PaymentMethod, b.OtherPaymentType, b.CreditCardToken, b.CreditCardGateway, b.SaveCard, b.RequestId),
		pass.Selection{PlanID: str(b.PlanId), PeriodID: str(b.PeriodId), FareType: str(b.FareType)})
}

func couponPurchase(b paymentapi.PurchaseCouponTicket) payment.Purchase[coupon.Selection] {
	sel := coupon.Selection{ProductID: str(b.ProductId), PeriodID: str(b.PeriodId), FareType: str(b.FareType),
		AgreeTerms: val(b.AgreeTerms)}
	if b.AdditionalPassengers != nil {
		sel.AdditionalPassengers = make([]coupon.Passenger, len(*b.AdditionalPassengers))
		for i, p := range *b.AdditionalPassengers {
			sel.AdditionalPassengers[i] = coupon.Passenger{PassengerType: str(p.PassengerType), Lastname: str(p.Lastname),
				Firstname: str(p.Firstname), Gender: str(p.Gender), DateOfBirth: str(p.DateOfBirth),
				NationalityCode: str(p.NationalityCode), PassportNo: str(p.PassportNo), DateOfEntry: str(p.DateOfEntry),
				InboundTransportMethod: str(p.InboundTransportMethod), InboundFlightNo: str(p.InboundFlightNo)}
		}
	}
	return purchaseOf(&b, &b.RequestId,
		paymentFields(b.PaymentMethod, b.OtherPaymentType, b.CreditCardToken, b.CreditCardGateway, b.SaveCard, b.RequestId),
		sel)
}

// validatePurchase answers …/buy/validate for a product whose body is a B
// and whose fields are a P.
func validatePurchase[B, P any](h *PaymentHandlers, w http.ResponseWriter, r *http.Request, c *payment.Checkout[P], split func(B) payment.Purchase[P]) {
	pur, ok := decodePurchase(h, w, r, split)
	if !ok {
		return
	}
	res, err := c.Validate(r.Context(), member(r), Lang(r), pur)
	h.reply(w, r, res, err)
}

// buyPurchase answers …/buy for a product whose body is a B and whose
// fields are a P.
func buyPurchase[B, P any](h *PaymentHandlers, w http.ResponseWriter, r *http.Request, c *payment.Checkout[P], split func(B) payment.Purchase[P]) {
	pur, ok := decodePurchase(h, w, r, split)
	if !ok {
		return
	}
	res, err := c.Buy(r.Context(), member(r), Lang(r), pur)
	h.replyView(w, r, res, err)
}

func (h *PaymentHandlers) cont(w http.ResponseWriter, r *http.Request, product, id string) {
	res, err := h.engine.Continue(r.Context(), member(r), product, id)
	h.replyView(w, r, res, err)
}

func (h *PaymentHandlers) status(w http.ResponseWriter, r *http.Request, product, id string) {
	res, err := h.engine.Status(r.Context(), member(r), product, id)
	h.replyView(w, r, res, err)
}

// replyView answers a payment process with its item named in the
// request's language (the page's), whatever the language it was bought in.
func (h *PaymentHandlers) replyView(w http.ResponseWriter, r *http.Request, v payment.View, err error) {
	if err == nil {
		v = h.engine.InLang(Lang(r), v)
	}
	h.reply(w, r, v, err)
}

// PreapplyPeachpointsPurchase answers before the purchase form is filled:
// 409 payment_pending while a payment of the member is pending, else the
// currencies, amounts and ways to pay the form offers.
func (h *PaymentHandlers) PreapplyPeachpointsPurchase(w http.ResponseWriter, r *http.Request) {
	res, err := h.engine.Preapply(r.Context(), member(r), points.ProductType)
	h.reply(w, r, res, err)
}

func (h *PaymentHandlers) ValidatePeachpointsPurchase(w http.ResponseWriter, r *http.Request) {
	validatePurchase(h, w, r, h.checkouts.Points, pointsPurchase)
}
func (h *PaymentHandlers) BuyPeachpoints(w http.ResponseWriter, r *http.Request) {
	buyPurchase(h, w, r, h.checkouts.Points, pointsPurchase)
}
func (h *PaymentHandlers) ContinuePeachpointsPurchase(w http.ResponseWriter, r *http.Request, id string) {
	h.cont(w, r, points.ProductType, id)
}
func (h *PaymentHandlers) GetPeachpointsPurchaseStatus(w http.ResponseWriter, r *http.Request, id string) {
	h.status(w, r, points.ProductType, id)
}
func (h *PaymentHandlers) ValidateGogoPassPurchase(w http.ResponseWriter, r *http.Request) {
	validatePurchase(h, w, r, h.checkouts.Pass, passPurchase)
}
func (h *PaymentHandlers) BuyGogoPass(w http.ResponseWriter, r *http.Request) {
	buyPurchase(h, w, r, h.checkouts.Pass, passPurchase)
}
func (h *PaymentHandlers) ContinueGogoPassPurchase(w http.ResponseWriter, r *http.Request, id string) {
	h.cont(w, r, pass.ProductType, id)
}
func (h *PaymentHandlers) GetGogoPassPurchaseStatus(w http.ResponseWriter, r *http.Request, id string) {
	h.status(w, r, pass.ProductType, id)
}
func (h *PaymentHandlers) ValidateCouponTicketPurchase(w http.ResponseWriter, r *http.Request) {
	validatePurchase(h, w, r, h.checkouts.Coupon, couponPurchase)
}
func (h *PaymentHandlers) BuyCouponTicket(w http.ResponseWriter, r *http.Request) {
	buyPurchase(h, w, r, h.checkouts.Coupon, couponPurchase)
}
func (h *PaymentHandlers) ContinueCouponTicketPurchase(w http.ResponseWriter, r *http.Request, id string) {
	h.cont(w, r, coupon.ProductType, id)
}
func (h *PaymentHandlers) GetCouponTicketPurchaseStatus(w http.ResponseWriter, r *http.Request, id string) {
	h.status(w, r, coupon.ProductType, id)
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
		payment.WriteWebhookReply(w, err, http.StatusUnauthorized, log)
	})
}
