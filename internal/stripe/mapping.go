package stripe

import (
	"strings"
	"time"

	sapi "github.com/stripe/stripe-go/v85"

	"members/internal/payment"
)

// Payment maps a PaymentIntent to the engine's gateway payment:
//
//	requires_payment_method   created; failed with the refusal's code when it carries one
//	                          (expired when a konbini / wallet attempt ran out of time)
//	requires_confirmation     created
//	requires_action           requires_action, with the member's page (3-D Secure or wallet
//	                          redirect); a konbini slip is pending, with its numbers and deadline
//	processing                pending
//	requires_capture          authorized
//	succeeded                 captured (refunded once the whole amount is refunded)
//	canceled                  failed "canceled" (expired when Stripe abandoned it)
func Payment(pi *sapi.PaymentIntent) payment.GatewayPayment {
	gp := payment.GatewayPayment{
		ID: pi.ID, Amount: pi.Amount, Currency: strings.ToUpper(string(pi.Currency)),
		Reference: pi.Metadata["reference"], CreatedAt: time.Unix(pi.Created, 0).UTC(),
	}
	gp.UpdatedAt = gp.CreatedAt
	if len(pi.PaymentMethodTypes) > 0 {
		gp.Method = engineMethod(pi.PaymentMethodTypes[0])
	}
	if pm := pi.PaymentMethod; pm != nil {
		gp.Token = pm.ID
		if pm.Card != nil {
			gp.Brand, gp.Last4 = string(pm.Card.Brand), pm.Card.Last4
		}
		if pm.Type != "" {
			gp.Method = engineMethod(string(pm.Type))
		}
	}
	if ch := pi.LatestCharge; ch != nil {
		gp.RefundedAmount = ch.AmountRefunded
	}
	switch pi.Status {
	case sapi.PaymentIntentStatusRequiresPaymentMethod:
		gp.Status = payment.GWCreated
		if e := pi.LastPaymentError; e != nil {
			gp.Status, gp.FailureCode = payment.GWFailed, FailureCode(e)
			if e.Code == sapi.ErrorCodePaymentIntentPaymentAttemptExpired {
				gp.Status, gp.FailureCode = payment.GWExpired, ""
			}
		}
	case sapi.PaymentIntentStatusRequiresConfirmation:
		gp.Status = payment.GWCreated
	case sapi.PaymentIntentStatusRequiresAction:
		gp.Status = payment.GWRequiresAction
		nextAction(pi.NextAction, &gp)
	case sapi.PaymentIntentStatusProcessing:
		gp.Status = payment.GWPending
	case sapi.PaymentIntentStatusRequiresCapture:
		gp.Status = payment.GWAuthorized
	case sapi.PaymentIntentStatusSucceeded:
		gp.Status = payment.GWCaptured
		if gp.RefundedAmount >= gp.Amount && gp.Amount > 0 {
			gp.Status = payment.GWRefunded
		}
	case sapi.PaymentIntentStatusCanceled:
		gp.Status, gp.FailureCode = payment.GWFailed, "canceled"
		if pi.CancellationReason == sapi.PaymentIntentCancellationReasonAbandoned ||
			pi.CancellationReason == sapi.PaymentIntentCancellationReasonAutomatic {
			gp.Status, gp.FailureCode = payment.GWExpired, ""
		}
	default:
		gp.Status = payment.GWPending
	}
	return gp
}

// nextAction maps the member's step: a redirect (3-D Secure, PayPay),
// Alipay's redirect, WeChat Pay's hosted QR page, or a konbini slip (its
// hosted voucher page, confirmation number and payment code per store,
// and the deadline, days away).
func nextAction(na *sapi.PaymentIntentNextAction, gp *payment.GatewayPayment) {
	if na == nil {
		return
	}
	url := ""
	switch {
	case na.RedirectToURL != nil:
		url = na.RedirectToURL.URL
	case na.AlipayHandleRedirect != nil:
		url = na.AlipayHandleRedirect.URL
	case na.WeChatPayDisplayQRCode != nil:
		url = na.WeChatPayDisplayQRCode.HostedInstructionsURL
	case na.KonbiniDisplayDetails != nil:
		k := na.KonbiniDisplayDetails
		url = k.HostedVoucherURL
		gp.Status = payment.GWPending
		if k.ExpiresAt > 0 {
			at := time.Unix(k.ExpiresAt, 0).UTC()
			gp.ExpiresAt = &at
		}
		gp.Slip = konbiniSlip(k.Stores)
	}
	if url != "" {
		gp.NextAction = &payment.NextAction{Type: "redirect", URL: url}
	}
}

// konbiniSlip is the slip of a konbini payment: the confirmation number
// (the same at every chain that asks for one) and the payment code per
// chain.
func konbiniSlip(s *sapi.PaymentIntentNextActionKonbiniDisplayDetailsStores) *payment.Slip {
	slip := &payment.Slip{PaymentCodes: map[string]string{}}
	if s == nil {
		return slip
	}
	add := func(store, confirmation, code string) {
		if code != "" {
			slip.PaymentCodes[store] = code
		}
		if confirmation != "" && slip.ConfirmationNumber == "" {
			slip.ConfirmationNumber = confirmation
		}
	}
	if x := s.FamilyMart; x != nil {
		add("familymart", x.ConfirmationNumber, x.PaymentCode)
	}
	if x := s.Lawson; x != nil {
		add("lawson", x.ConfirmationNumber, x.PaymentCode)
	}
	if x := s.Ministop; x != nil {
		add("ministop", x.ConfirmationNumber, x.PaymentCode)
	}
	if x := s.Seicomart; x != nil {
		add("seicomart", x.ConfirmationNumber, x.PaymentCode)
	}
	return slip
}

// FailureCode maps Stripe's refusal to the failure codes the member's
// messages are written for (web payment locales "failure.*", eight
// languages): card_declined, insufficient_funds, expired_card,
// authentication_failed, payment_failed.
func FailureCode(e *sapi.Error) string {
	if e == nil {
		return "payment_failed"
	}
	switch e.DeclineCode {
	case sapi.DeclineCodeInsufficientFunds:
		return "insufficient_funds"
	case sapi.DeclineCodeExpiredCard:
		return "expired_card"
	case sapi.DeclineCodeAuthenticationRequired:
		return "authentication_failed"
	}
	switch e.Code {
	case sapi.ErrorCodeExpiredCard:
		return "expired_card"
	case sapi.ErrorCodeAuthenticationRequired, sapi.ErrorCodePaymentIntentAuthenticationFailure,
		sapi.ErrorCodeSetupIntentAuthenticationFailure:
		return "authentication_failed"
	case sapi.ErrorCodeCardDeclined, sapi.ErrorCodeIncorrectCVC, sapi.ErrorCodeIncorrectNumber,
		sapi.ErrorCodeInvalidCVC, sapi.ErrorCodeInvalidExpiryMonth, sapi.ErrorCodeInvalidExpiryYear,
		sapi.ErrorCodeInvalidNumber, sapi.ErrorCodeProcessingError, sapi.ErrorCodeCardDeclineRateLimitExceeded:
		return "card_declined"
	}
	if e.Type == sapi.ErrorTypeCard {
		return "card_declined"
	}
	return "payment_failed"
}
