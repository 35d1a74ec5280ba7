package payment

// Other payment types and the gateway method for the convenience
// store / ATM / net banking slip.
const (
	OtherRakutenPay = "rakuten_pay"
	OtherPayPay     = "paypay"
	OtherDPayment   = "d_payment"
	OtherWeChat     = "wechat"
	OtherAlipay     = "alipay"
	OtherUnionPay   = "unionpay"
	gatewayKonbini  = "konbini"
)

// Availability is the answer of GET /api/payment_availability: the card
// brands that pay and that may be registered for a currency, the other
// payment types and whether the convenience-store slip is offered.
type Availability struct {
	CreditCard         []string `json:"creditCard"`
	RegisterCreditCard []string `json:"registerCreditCard"`
	OtherPayment       []string `json:"otherPayment"`
	ConvenienceStore   bool     `json:"convenienceStore"`
	// Gateway names the configured gateway ("ndhk" for the sandbox,
	// "stripe"); PublishableKey is Stripe's publishable key for the
	// browser (empty for other gateways).
	Gateway        string `json:"gateway"`
	PublishableKey string `json:"publishableKey,omitempty"`
}

// availability is what the configured gateway offers for currency.
func (e *Engine) availability(currency string) Availability {
	return GatewayAvailability(e.gw, currency)
}

// GatewayAvailability is AvailabilityFor narrowed by gw (an Offering).
func GatewayAvailability(gw Gateway, currency string) Availability {
	a := AvailabilityFor(currency)
	a.Gateway = gw.Name()
	if o, ok := gw.(Offering); ok {
		a = o.Offer(currency, a)
	}
	return a
}

// AvailabilityFor answers for a currency. Every product sells the same
// way, so productType only has to be a registered product (the caller
// checks). Domestic wallets (Rakuten Pay, PayPay, d払い) and the
// convenience-store slip take yen; WeChat Pay and Alipay take yuan;
// UnionPay cards pay in every currency.
func AvailabilityFor(currency string) Availability {
	a := Availability{
		CreditCard:         append([]string(nil), brandOrder...),
		RegisterCreditCard: append([]string(nil), brandOrder...),
	}
	switch currency {
	case "JPY":
		a.OtherPayment = []string{OtherRakutenPay, OtherPayPay, OtherDPayment, OtherUnionPay}
		a.ConvenienceStore = true
	case "CNY":
		a.OtherPayment = []string{OtherWeChat, OtherAlipay, OtherUnionPay}
	default:
		a.OtherPayment = []string{OtherUnionPay}
	}
	return a
}

func (a Availability) otherAllowed(t string) bool {
	for _, x := range a.OtherPayment {
		if x == t {
			return true
		}
	}
	return false
}

func (a Availability) brandAllowed(b string) bool {
	for _, x := range a.CreditCard {
		if x == b {
			return true
		}
	}
	return false
}
