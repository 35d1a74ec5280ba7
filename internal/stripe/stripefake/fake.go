// Package stripefake is a stateful stand-in for the part of Stripe's API
// the members server uses, answering with Stripe's shapes: customers,
// card PaymentMethods (Stripe's test ids: pm_card_visa, …), SetupIntents,
// PaymentIntents (card with 3-D Secure, konbini, PayPay, Alipay, WeChat
// Pay), refunds, search by metadata, and signed webhooks. stripe-mock
// checks the request shapes but keeps no state; this keeps state so the
// flows can run end to end in tests and in browser tests (cmd/stripefake).
// The member's pages (3-D Secure challenge, wallet, konbini voucher) are
// small pages of its own under /fake/.
package stripefake

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/stripe/stripe-go/v85/webhook"

	"members/internal/urlquery"
)

// Options configure the stand-in.
type Options struct {
	// Now is its clock (nil: time.Now).
	Now func() time.Time
	// WebhookURL receives signed events (empty: none), signed with
	// WebhookSecret.
	WebhookURL    string
	WebhookSecret string
	// PublicURL is where the member's browser reaches the stand-in's pages
	// (empty: the Host of each request).
	PublicURL string
	// Slow is how late the answer for pm_card_visa_slow comes (zero: 3 s).
	Slow time.Duration
}

// card is a test card behind a PaymentMethod id.
type card struct {
	brand, last4 string
	decline      string // "" pays; else the decline code
	challenge    bool   // 3-D Secure required
	slow         bool   // the confirmation's answer is late
}

// Cards are Stripe's test PaymentMethod ids the stand-in knows.
var Cards = map[string]card{
	"pm_card_visa":                            {brand: "visa", last4: "4242"},
	"pm_card_mastercard":                      {brand: "mastercard", last4: "4444"},
	"pm_card_jcb":                             {brand: "jcb", last4: "0000"},
	"pm_card_amex":                            {brand: "amex", last4: "8431"},
	"pm_card_threeDSecureRequired":            {brand: "visa", last4: "3184", challenge: true},
	"pm_card_chargeDeclined":                  {brand: "visa", last4: "0002", decline: "generic_decline"},
	"pm_card_chargeDeclinedInsufficientFunds": {brand: "visa", last4: "9995", decline: "insufficient_funds"},
	"pm_card_chargeDeclinedExpiredCard":       {brand: "visa", last4: "0069", decline: "expired_card"},
	// the stand-in's own, not Stripe's: paid, but the answer of its
	// confirmation comes Options.Slow late (crash tests: a call whose
	// outcome the caller does not learn)
	"pm_card_visa_slow": {brand: "visa", last4: "0119", slow: true},
}

type obj = map[string]any

type pm struct {
	ID, Type, Customer, Holder, Email string
	Card                              card
	Created                           int64
}

type intent struct {
	ID, Kind, Status, Currency, Description, Customer, PM, Method, Capture, SetupFuture string
	Amount, Refunded, Created                                                           int64
	Metadata                                                                            map[string]string
	NextAction                                                                          obj
	LastError                                                                           obj
	CancelReason, Charge, ReturnURL, Usage                                              string
}

// Fake is the stand-in; it is an http.Handler.
type Fake struct {
	opt  Options
	mu   sync.Mutex
	pms  map[string]*pm
	pis  map[string]*intent
	sis  map[string]*intent
	cus  map[string]obj
	idem map[string]reply
	// Calls counts requests by "METHOD /path pattern" (tests).
	calls map[string]int
	mux   *http.ServeMux
	wg    sync.WaitGroup
	// late is set by a handler whose answer is held back (slow card)
	late bool
	// lose are the patterns whose answers are lost: the call is made
	// (and its answer kept under its idempotency key), then the
	// connection is cut before the answer
	lose map[string]bool
}

// LoseAnswers makes every call matching pattern ("POST /v1/refunds") do
// its work and then cut the connection without answering, as a network
// that fails after Stripe acted does; on false answers again.
func (f *Fake) LoseAnswers(pattern string, on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.lose == nil {
		f.lose = map[string]bool{}
	}
	f.lose[pattern] = on
}

type reply struct {
	status int
	body   []byte
}

// New returns an empty stand-in.
func New(o Options) *Fake {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Slow == 0 {
		o.Slow = 3 * time.Second
	}
	f := &Fake{opt: o, pms: map[string]*pm{}, pis: map[string]*intent{}, sis: map[string]*intent{},
		cus: map[string]obj{}, idem: map[string]reply{}, calls: map[string]int{}, mux: http.NewServeMux()}
	f.routes()
	return f
}

func newID(prefix string) string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func (f *Fake) routes() {
	api := func(pattern string, h func(r *http.Request, form url.Values) (int, obj)) {
		f.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) { f.serveAPI(w, r, pattern, h) })
	}
	api("POST /v1/customers", f.createCustomer)
	api("GET /v1/payment_methods/{id}", f.getPM)
	api("POST /v1/payment_methods/{id}/detach", f.detachPM)
	api("POST /v1/setup_intents", f.createSI)
	api("GET /v1/setup_intents/{id}", f.getSI)
	api("POST /v1/setup_intents/{id}/confirm", f.confirmSI)
	api("POST /v1/payment_intents", f.createPI)
	api("GET /v1/payment_intents/search", f.searchPI)
	api("GET /v1/payment_intents/{id}", f.getPI)
	api("POST /v1/payment_intents/{id}/confirm", f.confirmPI)
	api("POST /v1/payment_intents/{id}/capture", f.capturePI)
	api("POST /v1/payment_intents/{id}/cancel", f.cancelPI)
	api("POST /v1/refunds", f.createRefund)
	f.mux.HandleFunc("GET /fake/step/{id}", f.stepPage)
	f.mux.HandleFunc("POST /fake/step/{id}", f.stepDone)
}

// ServeHTTP serves the API and the member's pages.
func (f *Fake) ServeHTTP(w http.ResponseWriter, r *http.Request) { f.mux.ServeHTTP(w, r) }

// Calls reports how many requests matched pattern ("POST /v1/refunds").
func (f *Fake) Calls(pattern string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[pattern]
}

// SetWebhook sends the events from now on to url, signed with secret.
func (f *Fake) SetWebhook(url, secret string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.opt.WebhookURL, f.opt.WebhookSecret = url, secret
}

// PaymentIntent is a PaymentIntent's state (tests): status, amount and
// the amount refunded.
func (f *Fake) PaymentIntent(id string) (status string, amount, refunded int64, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	pi := f.pis[id]
	if pi == nil {
		return "", 0, 0, false
	}
	return pi.Status, pi.Amount, pi.Refunded, true
}

// Wait waits for the webhooks sent so far.
func (f *Fake) Wait() { f.wg.Wait() }

func (f *Fake) serveAPI(w http.ResponseWriter, r *http.Request, pattern string, h func(*http.Request, url.Values) (int, obj)) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", newID("req_"))
	if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer sk_") && !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer rk_") {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write(mustJSON(obj{"error": obj{"type": "invalid_request_error", "message": "Invalid API Key provided"}}))
		return
	}
	if err := r.ParseForm(); err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	rep, late := f.answer(r, pattern, h)
	if late {
		time.Sleep(f.opt.Slow)
	}
	f.mu.Lock()
	lost := f.lose[pattern]
	f.mu.Unlock()
	if lost {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	}
	w.WriteHeader(rep.status)
	_, _ = w.Write(rep.body)
}

// answer handles one API call under the lock: a repeated idempotency key
// answers the first answer again.
func (f *Fake) answer(r *http.Request, pattern string, h func(*http.Request, url.Values) (int, obj)) (reply, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[pattern]++
	key := r.Header.Get("Idempotency-Key")
	if key != "" && r.Method == http.MethodPost {
		if rep, ok := f.idem[key]; ok {
			return rep, false
		}
	}
	f.late = false
	status, body := h(r, r.Form)
	rep := reply{status, mustJSON(body)}
	if key != "" && r.Method == http.MethodPost && status < 500 {
		f.idem[key] = rep
	}
	return rep, f.late
}

// ByReference counts the PaymentIntents of a reference and those paid.
func (f *Fake) ByReference(ref string) (count, succeeded int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, pi := range f.pis {
		if pi.Metadata["reference"] == ref {
			count++
			if pi.Status == "succeeded" {
				succeeded++
			}
		}
	}
	return count, succeeded
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func apiError(status int, typ, code, msg string, extra obj) (int, obj) {
	e := obj{"type": typ, "message": msg}
	if code != "" {
		e["code"] = code
	}
	for k, v := range extra {
		e[k] = v
	}
	return status, obj{"error": e}
}

func missing(what, id string) (int, obj) {
	return apiError(http.StatusNotFound, "invalid_request_error", "resource_missing", "No such "+what+": '"+id+"'", obj{"param": "id"})
}

// metadata reads metadata[k]=v.
func metadata(form url.Values) map[string]string {
	m := map[string]string{}
	for k, v := range form {
		if strings.HasPrefix(k, "metadata[") && strings.HasSuffix(k, "]") {
			m[k[len("metadata["):len(k)-1]] = v[0]
		}
	}
	return m
}

func (f *Fake) base(r *http.Request) string {
	if f.opt.PublicURL != "" {
		return strings.TrimRight(f.opt.PublicURL, "/")
	}
	return "http://" + r.Host
}

func (f *Fake) createCustomer(r *http.Request, form url.Values) (int, obj) {
	c := obj{"id": newID("cus_"), "object": "customer", "created": f.opt.Now().Unix(), "metadata": metadata(form), "livemode": false}
	f.cus[c["id"].(string)] = c
	return 200, c
}

// pmByID returns a PaymentMethod: one made here, or a test card id.
func (f *Fake) pmByID(id string) *pm {
	if p, ok := f.pms[id]; ok {
		return p
	}
	if c, ok := Cards[id]; ok {
		p := &pm{ID: id, Type: "card", Card: c, Holder: "TARO PEACH", Created: f.opt.Now().Unix()}
		f.pms[id] = p
		return p
	}
	return nil
}

func (f *Fake) pmJSON(p *pm) obj {
	o := obj{"id": p.ID, "object": "payment_method", "type": p.Type, "created": p.Created, "livemode": false,
		"billing_details": obj{"name": nilIfEmpty(p.Holder), "email": nilIfEmpty(p.Email)}, "customer": nilIfEmpty(p.Customer),
		"metadata": obj{}}
	if p.Type == "card" {
		exp := f.opt.Now().AddDate(3, 0, 0)
		o["card"] = obj{"brand": p.Card.brand, "last4": p.Card.last4, "exp_month": int(exp.Month()), "exp_year": exp.Year(),
			"country": "JP", "funding": "credit"}
	} else {
		o[p.Type] = obj{}
	}
	return o
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (f *Fake) getPM(r *http.Request, form url.Values) (int, obj) {
	p := f.pmByID(r.PathValue("id"))
	if p == nil {
		return missing("PaymentMethod", r.PathValue("id"))
	}
	return 200, f.pmJSON(p)
}

func (f *Fake) detachPM(r *http.Request, form url.Values) (int, obj) {
	p := f.pmByID(r.PathValue("id"))
	if p == nil {
		return missing("PaymentMethod", r.PathValue("id"))
	}
	if p.Customer == "" {
		return apiError(400, "invalid_request_error", "payment_method_unexpected_state",
			"The payment method you provided is not attached to a customer so detachment is impossible.", nil)
	}
	p.Customer = ""
	return 200, f.pmJSON(p)
}

// attach attaches p to customer; a test card id is first copied to a
// PaymentMethod of its own, as Stripe does.
func (f *Fake) attach(p *pm, customer string) *pm {
	if customer == "" {
		return p
	}
	if _, test := Cards[p.ID]; test {
		c := *p
		c.ID = newID("pm_")
		f.pms[c.ID] = &c
		p = &c
	}
	p.Customer = customer
	return p
}

// ---- SetupIntents ----

func (f *Fake) createSI(r *http.Request, form url.Values) (int, obj) {
	si := &intent{ID: newID("seti_"), Kind: "setup_intent", Status: "requires_payment_method", Customer: form.Get("customer"),
		Metadata: metadata(form), Created: f.opt.Now().Unix(), Usage: form.Get("usage")}
	if si.Usage == "" {
		si.Usage = "off_session"
	}
	if si.Customer != "" && f.cus[si.Customer] == nil {
		return missing("customer", si.Customer)
	}
	if id := form.Get("payment_method"); id != "" {
		p := f.pmByID(id)
		if p == nil {
			return missing("PaymentMethod", id)
		}
		si.PM = id
		si.Status = "requires_confirmation"
	}
	f.sis[si.ID] = si
	if form.Get("confirm") == "true" {
		return f.doConfirmSI(r, si, form)
	}
	return 200, f.siJSON(si)
}

func (f *Fake) siJSON(si *intent) obj {
	o := obj{"id": si.ID, "object": "setup_intent", "status": si.Status, "customer": nilIfEmpty(si.Customer),
		"metadata": si.Metadata, "payment_method": nilIfEmpty(si.PM), "payment_method_types": []string{"card"},
		"created": si.Created, "usage": si.Usage, "livemode": false, "client_secret": si.ID + "_secret_fake",
		"next_action": nil, "last_setup_error": nil}
	if si.NextAction != nil {
		o["next_action"] = si.NextAction
	}
	if si.LastError != nil {
		o["last_setup_error"] = si.LastError
	}
	return o
}

func (f *Fake) getSI(r *http.Request, form url.Values) (int, obj) {
	si := f.sis[r.PathValue("id")]
	if si == nil {
		return missing("setup_intent", r.PathValue("id"))
	}
	return 200, f.siJSON(si)
}

func (f *Fake) confirmSI(r *http.Request, form url.Values) (int, obj) {
	return f.confirm(r, form, f.sis, "setup_intent",
		func(*intent) string { return "You cannot confirm this SetupIntent because it has already succeeded." },
		func(si *intent) (int, obj) { return f.doConfirmSI(r, si, form) })
}

func (f *Fake) doConfirmSI(r *http.Request, si *intent, form url.Values) (int, obj) {
	p := f.pmByID(si.PM)
	if p == nil {
		return apiError(400, "invalid_request_error", "parameter_missing", "payment_method is required", nil)
	}
	si.ReturnURL = form.Get("return_url")
	si.LastError, si.NextAction = nil, nil
	switch {
	case p.Card.decline != "":
		return f.declined(si, p.Card.decline, "setup_intent.setup_failed")
	case p.Card.challenge:
		si.Status = "requires_action"
		si.NextAction = obj{"type": "redirect_to_url", "redirect_to_url": obj{"url": f.base(r) + "/fake/step/" + si.ID, "return_url": si.ReturnURL}}
	default:
		f.succeedSI(si)
	}
	return 200, f.siJSON(si)
}

func (f *Fake) succeedSI(si *intent) {
	p := f.attach(f.pmByID(si.PM), si.Customer)
	si.PM, si.Status, si.NextAction = p.ID, "succeeded", nil
	f.event("setup_intent.succeeded", f.siJSON(si))
}

// confirm answers a confirm request: it finds the intent the path names,
// takes the request's payment_method (Stripe keeps it even when it then
// refuses), refuses an intent past confirmation (message says why) and
// confirms the others with do.
func (f *Fake) confirm(r *http.Request, form url.Values, intents map[string]*intent, kind string,
	message func(*intent) string, do func(*intent) (int, obj)) (int, obj) {
	it := intents[r.PathValue("id")]
	if it == nil {
		return missing(kind, r.PathValue("id"))
	}
	if id := form.Get("payment_method"); id != "" {
		it.PM = id
	}
	if it.Status != "requires_confirmation" && it.Status != "requires_payment_method" {
		return apiError(400, "invalid_request_error", kind+"_unexpected_state", message(it), obj{kind: f.asJSON(it)})
	}
	return do(it)
}

// asJSON is the intent as Stripe shows it, without expansions.
func (f *Fake) asJSON(it *intent) obj {
	if it.Kind == "setup_intent" {
		return f.siJSON(it)
	}
	return f.piJSON(it, nil)
}

// declined records a card's refusal of the intent (its error and the
// event) and answers 402 with the intent in the error, as Stripe does.
func (f *Fake) declined(it *intent, decline, event string) (int, obj) {
	it.Status = "requires_payment_method"
	it.LastError = declineError(decline)
	f.event(event, f.asJSON(it))
	e := copyObj(it.LastError)
	e[it.Kind] = f.asJSON(it)
	return http.StatusPaymentRequired, obj{"error": e}
}

func declineError(decline string) obj {
	code := "card_declined"
	msg := "Your card was declined."
	switch decline {
	case "expired_card":
		code, msg = "expired_card", "Your card has expired."
	case "insufficient_funds":
		msg = "Your card has insufficient funds."
	}
	return obj{"type": "card_error", "code": code, "decline_code": decline, "message": msg}
}

func copyObj(o obj) obj {
	c := obj{}
	for k, v := range o {
		c[k] = v
	}
	return c
}

// ---- PaymentIntents ----

func (f *Fake) createPI(r *http.Request, form url.Values) (int, obj) {
	amount, err := strconv.ParseInt(form.Get("amount"), 10, 64)
	if err != nil || amount <= 0 {
		return apiError(400, "invalid_request_error", "parameter_missing", "Missing required param: amount.", obj{"param": "amount"})
	}
	pi := &intent{ID: newID("pi_"), Kind: "payment_intent", Status: "requires_payment_method", Amount: amount,
		Currency: strings.ToLower(form.Get("currency")), Description: form.Get("description"), Customer: form.Get("customer"),
		Metadata: metadata(form), Created: f.opt.Now().Unix(), Capture: form.Get("capture_method"),
		SetupFuture: form.Get("setup_future_usage"), Method: form.Get("payment_method_types[0]")}
	if pi.Capture == "" {
		pi.Capture = "automatic"
	}
	if pi.Method == "" {
		pi.Method = "card"
	}
	if pi.Customer != "" && f.cus[pi.Customer] == nil {
		return missing("customer", pi.Customer)
	}
	switch {
	case form.Get("payment_method") != "":
		p := f.pmByID(form.Get("payment_method"))
		if p == nil {
			return missing("PaymentMethod", form.Get("payment_method"))
		}
		if p.Customer != "" && p.Customer != pi.Customer {
			return apiError(400, "invalid_request_error", "", "The provided PaymentMethod was previously attached to a Customer.", nil)
		}
		pi.PM, pi.Status = p.ID, "requires_confirmation"
	case form.Get("payment_method_data[type]") != "":
		t := form.Get("payment_method_data[type]")
		if t == "konbini" && (form.Get("payment_method_data[billing_details][email]") == "" || form.Get("payment_method_data[billing_details][name]") == "") {
			return apiError(400, "invalid_request_error", "parameter_missing", "konbini needs billing_details[name] and [email]", nil)
		}
		p := &pm{ID: newID("pm_"), Type: t, Holder: form.Get("payment_method_data[billing_details][name]"),
			Email: form.Get("payment_method_data[billing_details][email]"), Created: pi.Created}
		f.pms[p.ID] = p
		pi.PM, pi.Method, pi.Status = p.ID, t, "requires_confirmation"
	}
	f.pis[pi.ID] = pi
	if form.Get("confirm") == "true" {
		return f.doConfirmPI(r, pi, form)
	}
	return 200, f.piJSON(pi, form)
}

// piJSON is a PaymentIntent; latest_charge and payment_method are
// expanded when the request asks (expand[]).
// piUnexpected is Stripe's refusal of a step pi's status does not allow:
// refusal, then the status, and the PaymentIntent as it stands.
func (f *Fake) piUnexpected(pi *intent, refusal string) (int, obj) {
	return apiError(400, "invalid_request_error", "payment_intent_unexpected_state",
		refusal+" because it has a status of "+pi.Status+".", obj{"payment_intent": f.piJSON(pi, nil)})
}

func (f *Fake) piJSON(pi *intent, form url.Values) obj {
	expand := map[string]bool{}
	for k, v := range form {
		if strings.HasPrefix(k, "expand[") {
			expand[v[0]] = true
		}
	}
	o := obj{"id": pi.ID, "object": "payment_intent", "amount": pi.Amount, "currency": pi.Currency, "status": pi.Status,
		"description": pi.Description, "metadata": pi.Metadata, "payment_method_types": []string{pi.Method},
		"capture_method": pi.Capture, "created": pi.Created, "customer": nilIfEmpty(pi.Customer), "livemode": false,
		"client_secret": pi.ID + "_secret_fake", "next_action": nil, "last_payment_error": nil,
		"cancellation_reason": nilIfEmpty(pi.CancelReason), "setup_future_usage": nilIfEmpty(pi.SetupFuture),
		"payment_method": nilIfEmpty(pi.PM), "latest_charge": nilIfEmpty(pi.Charge), "amount_received": 0}
	if pi.Status == "succeeded" {
		o["amount_received"] = pi.Amount
	}
	if pi.NextAction != nil {
		o["next_action"] = pi.NextAction
	}
	if pi.LastError != nil {
		o["last_payment_error"] = pi.LastError
	}
	if expand["payment_method"] && pi.PM != "" {
		if p := f.pmByID(pi.PM); p != nil {
			o["payment_method"] = f.pmJSON(p)
		}
	}
	if expand["latest_charge"] && pi.Charge != "" {
		o["latest_charge"] = f.chargeJSON(pi)
	}
	return o
}

func (f *Fake) chargeJSON(pi *intent) obj {
	return obj{"id": pi.Charge, "object": "charge", "amount": pi.Amount, "amount_refunded": pi.Refunded,
		"refunded": pi.Refunded >= pi.Amount, "currency": pi.Currency, "payment_intent": pi.ID, "status": "succeeded",
		"metadata": pi.Metadata, "paid": true, "captured": true, "created": pi.Created, "livemode": false}
}

func (f *Fake) getPI(r *http.Request, form url.Values) (int, obj) {
	pi := f.pis[r.PathValue("id")]
	if pi == nil {
		return missing("payment_intent", r.PathValue("id"))
	}
	return 200, f.piJSON(pi, form)
}

func (f *Fake) searchPI(r *http.Request, form url.Values) (int, obj) {
	q := form.Get("query")
	const prefix = "metadata['reference']:'"
	if !strings.HasPrefix(q, prefix) || !strings.HasSuffix(q, "'") {
		return apiError(400, "invalid_request_error", "", "this stand-in searches by metadata['reference'] only", nil)
	}
	ref := q[len(prefix) : len(q)-1]
	data := []obj{}
	for _, pi := range f.pis {
		if pi.Metadata["reference"] == ref {
			data = append(data, f.piJSON(pi, form))
		}
	}
	return 200, obj{"object": "search_result", "data": data, "has_more": false, "url": "/v1/payment_intents/search", "next_page": nil}
}

func (f *Fake) confirmPI(r *http.Request, form url.Values) (int, obj) {
	return f.confirm(r, form, f.pis, "payment_intent",
		func(pi *intent) string {
			return "This PaymentIntent's status is " + pi.Status + ", so it cannot be confirmed."
		},
		func(pi *intent) (int, obj) {
			if c := form.Get("capture_method"); c != "" {
				pi.Capture = c
			}
			return f.doConfirmPI(r, pi, form)
		})
}

func (f *Fake) doConfirmPI(r *http.Request, pi *intent, form url.Values) (int, obj) {
	p := f.pmByID(pi.PM)
	if p == nil {
		return apiError(400, "invalid_request_error", "payment_intent_unexpected_state", "You must provide a payment_method.", nil)
	}
	pi.ReturnURL = form.Get("return_url")
	if pi.ReturnURL == "" {
		pi.ReturnURL = pi.Metadata["return_url"]
	}
	pi.LastError, pi.NextAction = nil, nil
	step := f.base(r) + "/fake/step/" + pi.ID
	switch p.Type {
	case "konbini":
		pi.Status = "requires_action"
		n := pi.ID[len(pi.ID)-8:]
		pi.NextAction = obj{"type": "konbini_display_details", "konbini_display_details": obj{
			"expires_at": f.opt.Now().Add(72 * time.Hour).Unix(), "hosted_voucher_url": step,
			"stores": obj{
				"familymart": obj{"confirmation_number": "33" + n[:4], "payment_code": "1" + n},
				"lawson":     obj{"confirmation_number": "33" + n[:4], "payment_code": "2" + n},
				"ministop":   obj{"confirmation_number": "33" + n[:4], "payment_code": "3" + n},
				"seicomart":  obj{"confirmation_number": "33" + n[:4], "payment_code": "4" + n},
			}}}
		f.event("payment_intent.requires_action", f.piJSON(pi, nil))
	case "alipay":
		pi.Status = "requires_action"
		pi.NextAction = obj{"type": "alipay_handle_redirect", "alipay_handle_redirect": obj{"url": step, "return_url": pi.ReturnURL}}
	case "wechat_pay":
		pi.Status = "requires_action"
		pi.NextAction = obj{"type": "wechat_pay_display_qr_code", "wechat_pay_display_qr_code": obj{
			"hosted_instructions_url": step, "data": "weixin://fake/" + pi.ID, "image_data_url": "", "image_url_png": step, "image_url_svg": step}}
	case "paypay":
		pi.Status = "requires_action"
		pi.NextAction = obj{"type": "redirect_to_url", "redirect_to_url": obj{"url": step, "return_url": pi.ReturnURL}}
	default:
		switch {
		case p.Card.decline != "":
			return f.declined(pi, p.Card.decline, "payment_intent.payment_failed")
		case p.Card.challenge:
			pi.Status = "requires_action"
			pi.NextAction = obj{"type": "redirect_to_url", "redirect_to_url": obj{"url": step, "return_url": pi.ReturnURL}}
			f.event("payment_intent.requires_action", f.piJSON(pi, nil))
		default:
			f.paid(pi)
			f.late = p.Card.slow
		}
	}
	return 200, f.piJSON(pi, form)
}

// paid moves a confirmed payment on: captured (automatic capture) or
// authorised; a card saved for later is attached to the customer.
func (f *Fake) paid(pi *intent) {
	pi.NextAction = nil
	if pi.SetupFuture != "" && pi.Customer != "" {
		if p := f.pmByID(pi.PM); p != nil && p.Customer == "" {
			if _, test := Cards[p.ID]; !test {
				p.Customer = pi.Customer
			}
		}
	}
	pi.Charge = "ch_" + pi.ID[3:]
	if pi.Capture == "manual" {
		pi.Status = "requires_capture"
		f.event("payment_intent.amount_capturable_updated", f.piJSON(pi, nil))
		return
	}
	pi.Status = "succeeded"
	f.event("payment_intent.succeeded", f.piJSON(pi, nil))
}

func (f *Fake) capturePI(r *http.Request, form url.Values) (int, obj) {
	pi := f.pis[r.PathValue("id")]
	if pi == nil {
		return missing("payment_intent", r.PathValue("id"))
	}
	if pi.Status != "requires_capture" {
		return f.piUnexpected(pi, "This PaymentIntent could not be captured")
	}
	pi.Status = "succeeded"
	f.event("payment_intent.succeeded", f.piJSON(pi, nil))
	return 200, f.piJSON(pi, form)
}

func (f *Fake) cancelPI(r *http.Request, form url.Values) (int, obj) {
	pi := f.pis[r.PathValue("id")]
	if pi == nil {
		return missing("payment_intent", r.PathValue("id"))
	}
	switch pi.Status {
	case "succeeded", "canceled", "processing":
		return f.piUnexpected(pi, "You cannot cancel this PaymentIntent")
	}
	pi.Status, pi.NextAction = "canceled", nil
	pi.CancelReason = form.Get("cancellation_reason")
	if pi.CancelReason == "" {
		pi.CancelReason = "requested_by_customer"
	}
	f.event("payment_intent.canceled", f.piJSON(pi, nil))
	return 200, f.piJSON(pi, form)
}

func (f *Fake) createRefund(r *http.Request, form url.Values) (int, obj) {
	pi := f.pis[form.Get("payment_intent")]
	if pi == nil {
		return missing("payment_intent", form.Get("payment_intent"))
	}
	if pi.Status != "succeeded" {
		return apiError(400, "invalid_request_error", "charge_not_refundable", "This PaymentIntent has no successful charge to refund.", nil)
	}
	amount := pi.Amount - pi.Refunded
	if a := form.Get("amount"); a != "" {
		n, err := strconv.ParseInt(a, 10, 64)
		if err != nil || n <= 0 {
			return apiError(400, "invalid_request_error", "parameter_invalid_integer", "Invalid amount", obj{"param": "amount"})
		}
		amount = n
	}
	if amount <= 0 || pi.Refunded+amount > pi.Amount {
		return apiError(400, "invalid_request_error", "charge_already_refunded",
			fmt.Sprintf("Refund amount (%d) is greater than unrefunded amount on charge (%d)", amount, pi.Amount-pi.Refunded), nil)
	}
	pi.Refunded += amount
	f.event("charge.refunded", f.chargeJSON(pi))
	return 200, obj{"id": newID("re_"), "object": "refund", "amount": amount, "currency": pi.Currency, "payment_intent": pi.ID,
		"charge": pi.Charge, "status": "succeeded", "created": f.opt.Now().Unix(), "metadata": obj{}}
}

// ---- the member's pages ----

// stepPage is the member's page of a customer step: a 3-D Secure
// challenge, a wallet's approval or a konbini voucher, with the buttons
// that end it.
func (f *Fake) stepPage(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	title, body := "", ""
	id := r.PathValue("id")
	if si := f.sis[id]; si != nil && si.Status == "requires_action" {
		title = "3-D Secure (test)"
	} else if pi := f.pis[id]; pi != nil && pi.Status == "requires_action" {
		switch pi.Method {
		case "konbini":
			title = "Konbini voucher (test)"
			d := pi.NextAction["konbini_display_details"].(obj)
			for store, v := range d["stores"].(obj) {
				s := v.(obj)
				body += fmt.Sprintf("<p>%s: payment code <b>%s</b>, confirmation number <b>%s</b></p>", store, s["payment_code"], s["confirmation_number"])
			}
		case "card":
			title = "3-D Secure (test)"
		default:
			title = pi.Method + " (test)"
		}
		body += fmt.Sprintf("<p>%s %d</p>", strings.ToUpper(pi.Currency), pi.Amount)
	}
	f.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if title == "" {
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte("<!doctype html><title>Stripe stand-in</title><p>Nothing to do here.</p>"))
		return
	}
	a := html.EscapeString("/fake/step/" + id)
	_, _ = fmt.Fprintf(w, `<!doctype html><html><head><meta charset="utf-8"><title>%s</title></head><body><h1>%s</h1>%s
<form method="post" action="%s"><button name="outcome" value="complete">Complete</button> <button name="outcome" value="fail">Fail</button></form></body></html>`,
		html.EscapeString(title), html.EscapeString(title), body, a)
}

// stepDone ends a customer step (outcome complete or fail) and sends the
// member back to the return page, as Stripe does.
func (f *Fake) stepDone(w http.ResponseWriter, r *http.Request) {
	back, ok := f.Step(r.PathValue("id"), r.FormValue("outcome") != "fail")
	if !ok {
		http.NotFound(w, r)
		return
	}
	if back == "" {
		_, _ = w.Write([]byte("done"))
		return
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
}

// Step ends the customer step of a SetupIntent or PaymentIntent: done
// (the challenge passed, the wallet approved, the slip paid at the shop)
// or not (the challenge failed, the wallet declined, the slip ran out).
// It returns the page the member goes back to.
func (f *Fake) Step(id string, done bool) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if si := f.sis[id]; si != nil && si.Status == "requires_action" {
		if done {
			f.succeedSI(si)
		} else {
			si.Status, si.NextAction = "requires_payment_method", nil
			si.LastError = obj{"type": "invalid_request_error", "code": "setup_intent_authentication_failure",
				"message": "The latest attempt to set up the payment method has failed because authentication failed."}
			f.event("setup_intent.setup_failed", f.siJSON(si))
		}
		return si.ReturnURL, true
	}
	pi := f.pis[id]
	if pi == nil || pi.Status != "requires_action" {
		return "", false
	}
	back := ""
	if pi.ReturnURL != "" {
		back = urlquery.With(pi.ReturnURL, "payment_intent", pi.ID)
	}
	if done {
		f.paid(pi)
		return back, true
	}
	pi.Status, pi.NextAction = "requires_payment_method", nil
	switch pi.Method {
	case "card":
		pi.LastError = obj{"type": "invalid_request_error", "code": "payment_intent_authentication_failure",
			"message": "The provided PaymentMethod has failed authentication."}
	case "konbini":
		pi.LastError = obj{"type": "invalid_request_error", "code": "payment_intent_payment_attempt_expired",
			"message": "The payment attempt expired."}
	default:
		pi.LastError = obj{"type": "invalid_request_error", "code": "payment_intent_payment_attempt_failed",
			"message": "The customer declined the payment."}
	}
	f.event("payment_intent.payment_failed", f.piJSON(pi, nil))
	return back, true
}

// ---- webhooks ----

// event sends a signed event to the webhook URL (in the background; Wait
// waits for them). Called with f.mu held.
func (f *Fake) event(typ string, object obj) {
	if f.opt.WebhookURL == "" {
		return
	}
	now := f.opt.Now()
	payload := mustJSON(obj{"id": newID("evt_"), "object": "event", "type": typ, "created": now.Unix(),
		"api_version": "2025-10-29.clover", "livemode": false, "pending_webhooks": 1,
		"data": obj{"object": object}})
	sig := webhook.ComputeSignature(now, payload, f.opt.WebhookSecret)
	header := fmt.Sprintf("t=%d,v1=%s", now.Unix(), hex.EncodeToString(sig))
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		for range 3 {
			req, err := http.NewRequest(http.MethodPost, f.opt.WebhookURL, strings.NewReader(string(payload)))
			if err != nil {
				return
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Stripe-Signature", header)
			res, err := http.DefaultClient.Do(req)
			if err == nil {
				_ = res.Body.Close()
				if res.StatusCode < 300 {
					return
				}
			}
			time.Sleep(200 * time.Millisecond)
		}
	}()
}
