package gateway

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"time"

	qr "github.com/piglig/go-qr"

	"members/internal/i18n"
)

// The customer pages: small server-rendered HTML that works on a phone,
// in the language of the ?lang= query. Each step ends with a redirect to
// the payment's returnUrl with ?paymentId=ID.

// pageRoutes registers the customer pages. Their POSTs are refused
// cross-site (the payment id in the URL is the only credential).
func (g *Gateway) pageRoutes(mux *http.ServeMux) {
	b := g.opt.BasePath
	cop := http.NewCrossOriginProtection()
	mux.HandleFunc("GET "+b+"/challenge/{id}", g.challengePage)
	mux.Handle("POST "+b+"/challenge/{id}", cop.Handler(http.HandlerFunc(g.challengeStep)))
	mux.HandleFunc("GET "+b+"/pay/{id}", g.payPage)
	mux.Handle("POST "+b+"/pay/{id}", cop.Handler(http.HandlerFunc(g.payStep)))
	mux.HandleFunc("GET "+b+"/pay/{id}/qr.png", g.qrImage)
	mux.HandleFunc("GET "+b+"/pay/{id}/state", g.payState)
}

// pageData feeds the page template.
type pageData struct {
	Lang      string
	Kind      string // challenge, qr, slip, status, notfound
	Title     string
	Intro     string
	Action    string // form action
	Payment   *Payment
	Amount    string
	Method    string
	Deadline  string
	QR        string
	State     string // the QR page polls this URL for the payment's state
	Slip      slip
	Message   string
	ReturnURL string
	text      pageText // set by render
}

// brandNames are the card brands as printed on the cards.
var brandNames = map[string]string{Visa: "Visa", Mastercard: "Mastercard", JCB: "JCB", Amex: "American Express",
	Diners: "Diners Club", Discover: "Discover"}

// BrandName is the payment card's brand as printed on it.
func (d pageData) BrandName() string { return brandNames[d.Payment.Brand] }

// HTMLLang is the page's language as a BCP 47 tag.
func (d pageData) HTMLLang() string { return htmlLang[d.Lang] }

// T translates key into the page's language.
func (d pageData) T(key string) string { return d.text.t(d.Lang, key) }

// slip holds the numbers of a payment slip, derived from the payment id so
// they need no storage and stay the same on every visit.
type slip struct {
	Receipt, Biller, Customer, Confirm string
}

func slipFor(id string) slip {
	h := sha256.Sum256([]byte("slip:" + id))
	n := new(big.Int).SetBytes(h[:]).String()
	return slip{
		Receipt:  n[0:4] + "-" + n[4:8] + "-" + n[8:12],
		Biller:   "58191",
		Customer: n[12:24],
		Confirm:  n[24:30],
	}
}

// returnTo is where the customer goes after the step.
func returnTo(p *Payment) string {
	if p.returnURL == "" {
		return ""
	}
	u, err := url.Parse(p.returnURL)
	if err != nil {
		return ""
	}
	q := u.Query()
	q.Set("paymentId", p.ID)
	u.RawQuery = q.Encode()
	return u.String()
}

// pageHeaders: no caching, no framing, forms may post here and be
// redirected to the shop.
func pageHeaders(w http.ResponseWriter, p *Payment) {
	formAction := "'self'"
	if p != nil {
		if u, err := url.Parse(p.returnURL); err == nil && u.Host != "" {
			formAction += " " + u.Scheme + "://" + u.Host
		}
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; script-src "+pollScriptHash+
		"; connect-src 'self'; form-action "+formAction+"; frame-ancestors 'none'; base-uri 'none'")
}

func (g *Gateway) render(w http.ResponseWriter, status int, d pageData) {
	d.text = g.text
	if d.Payment != nil {
		// money as the product writes it in the language ("4,321円" in Japanese)
		lang, _ := i18n.Parse(d.Lang)
		d.Amount = i18n.FormatMoney(lang, d.Payment.Amount, d.Payment.Currency)
		if d.Payment.ExpiresAt != nil {
			d.Deadline = g.deadline(d.Lang, *d.Payment.ExpiresAt)
		}
		d.ReturnURL = returnTo(d.Payment)
	}
	pageHeaders(w, d.Payment)
	w.WriteHeader(status)
	if err := pageTemplate.Execute(w, d); err != nil {
		g.log.Warn("gateway page", "err", err)
	}
}

// jst is Japan time, in which the sandbox shows deadlines (a fixed zone:
// no tzdata needed).
var jst = time.FixedZone("JST", 9*60*60)

// deadline writes a step's deadline in Japan time the way the language
// writes dates (the one date rule of the product: Thai with the
// Buddhist-era year), with the time and the zone named: "Nov 23, 2026
// 15:00 (Japan time)", "2026年11月23日 15:00（日本時間）".
func (g *Gateway) deadline(l string, at time.Time) string {
	t := at.In(jst)
	return g.text.t(l, "deadline.value", "date", i18n.FormatDate(i18n.Lang(l), t, false), "time", t.Format("15:04"))
}

// statusMessage is what the pages say about a payment no longer waiting
// for the customer.
func (g *Gateway) statusMessage(l string, p *Payment) string {
	switch p.Status {
	case StatusCaptured, StatusAuthorized, StatusRefunded:
		return g.text.t(l, "status.done")
	case StatusFailed:
		return g.text.t(l, "status.failed")
	case StatusExpired:
		return g.text.t(l, "status.expired")
	}
	return g.text.t(l, "status.other")
}

// loadForPage reads the payment of a page, answering 404 itself.
func (g *Gateway) loadForPage(w http.ResponseWriter, r *http.Request) (*Payment, string, bool) {
	l := lang(r.URL.Query().Get("lang"))
	p, err := g.getPayment(r.Context(), g.db, r.PathValue("id"))
	if errors.Is(err, ErrNotFound) {
		g.render(w, http.StatusNotFound, pageData{Lang: l, Kind: "notfound", Title: g.text.t(l, "status.title"), Message: g.text.t(l, "notfound")})
		return nil, l, false
	}
	if err != nil {
		g.log.Error("gateway page", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return nil, l, false
	}
	return p, l, true
}

// statusPage tells a customer who comes back to a finished step where the
// payment stands.
func (g *Gateway) statusPage(w http.ResponseWriter, l string, p *Payment) {
	g.render(w, http.StatusOK, pageData{Lang: l, Kind: "status", Title: g.text.t(l, "status.title"), Message: g.statusMessage(l, p), Payment: p})
}

func (g *Gateway) challengePage(w http.ResponseWriter, r *http.Request) {
	p, l, ok := g.loadForPage(w, r)
	if !ok {
		return
	}
	if p.Status != StatusRequiresAction {
		g.statusPage(w, l, p)
		return
	}
	g.render(w, http.StatusOK, pageData{Lang: l, Kind: "challenge", Title: g.text.t(l, "challenge.title"), Intro: g.text.t(l, "challenge.intro"),
		Action: g.opt.BasePath + "/challenge/" + p.ID + "?lang=" + l, Payment: p})
}

func (g *Gateway) payPage(w http.ResponseWriter, r *http.Request) {
	p, l, ok := g.loadForPage(w, r)
	if !ok {
		return
	}
	if p.Status != StatusPending {
		g.statusPage(w, l, p)
		return
	}
	d := pageData{Lang: l, Action: g.opt.BasePath + "/pay/" + p.ID + "?lang=" + l, Payment: p}
	if IsQR(p.Method) {
		d.Kind, d.Method = "qr", g.text.methodName(l, p.Method)
		d.Title = g.text.t(l, "qr.title", "method", d.Method)
		d.Intro = g.text.t(l, "qr.intro", "method", d.Method)
		d.QR = g.opt.BasePath + "/pay/" + p.ID + "/qr.png?lang=" + l
		d.State = g.opt.BasePath + "/pay/" + p.ID + "/state?lang=" + l
	} else {
		d.Kind, d.Title, d.Intro, d.Slip = "slip", g.text.t(l, "slip.title"), g.text.t(l, "slip.intro"), slipFor(p.ID)
	}
	g.render(w, http.StatusOK, d)
}

// finish sends the customer back to the shop (or shows the status when
// the payment has no returnUrl).
func (g *Gateway) finish(w http.ResponseWriter, r *http.Request, l string, p *Payment) {
	if to := returnTo(p); to != "" {
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	g.statusPage(w, l, p)
}

// step runs a customer step; a step already done (a double click, the back
// button) just goes back to the shop.
func (g *Gateway) step(w http.ResponseWriter, r *http.Request, approve bool) {
	p, l, ok := g.loadForPage(w, r)
	if !ok {
		return
	}
	done, err := g.CustomerStep(r.Context(), p.ID, approve)
	switch {
	case errors.Is(err, ErrState):
		done = p
	case err != nil:
		g.log.Error("gateway step", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	g.finish(w, r, l, done)
}

func (g *Gateway) challengeStep(w http.ResponseWriter, r *http.Request) {
	if r.PostFormValue("action") == "approve" {
		g.step(w, r, true)
		return
	}
	g.step(w, r, false)
}

func (g *Gateway) payStep(w http.ResponseWriter, r *http.Request) {
	switch r.PostFormValue("action") {
	case "pay":
		g.step(w, r, true)
	case "cancel":
		g.step(w, r, false)
	default: // later: back to the shop, the payment stays pending
		p, l, ok := g.loadForPage(w, r)
		if ok {
			g.finish(w, r, l, p)
		}
	}
}

// payState answers the QR page's polling: the payment's status and what
// the page then says, in the page's language. The QR is scanned and paid
// on another device, so the page in front of the customer learns of the
// outcome (paid, failed, expired) without being reloaded.
func (g *Gateway) payState(w http.ResponseWriter, r *http.Request) {
	l := lang(r.URL.Query().Get("lang"))
	p, err := g.getPayment(r.Context(), g.db, r.PathValue("id"))
	if errors.Is(err, ErrNotFound) {
		http.NotFound(w, r)
		return
	}
	if err != nil {
		g.log.Error("gateway state", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	out := struct {
		Status  string `json:"status"`
		Message string `json:"message,omitempty"`
	}{Status: p.Status}
	if p.Status != StatusPending {
		out.Message = g.statusMessage(l, p)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(out)
}

// qrImage is the code the customer scans: the pay page's own URL (in the
// page's language), so a phone that scans it opens the page.
func (g *Gateway) qrImage(w http.ResponseWriter, r *http.Request) {
	p, err := g.getPayment(r.Context(), g.db, r.PathValue("id"))
	if err != nil || !IsQR(p.Method) {
		http.NotFound(w, r)
		return
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	base := scheme + "://" + r.Host + g.opt.BasePath
	if g.opt.PublicURL != "" {
		base = strings.TrimRight(g.opt.PublicURL, "/")
	}
	target := base + "/pay/" + p.ID
	if l := r.URL.Query().Get("lang"); l != "" {
		target += "?lang=" + lang(l)
	}
	png, err := qrPNG(target)
	if err != nil {
		g.log.Error("gateway qr", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(png) // #nosec G705 -- a PNG the gateway drew itself, served as image/png with nosniff
}

// The page and its one script are files of their own (templates/), embedded.
// The script asks the QR page's state URL every few seconds and, once the
// payment no longer waits, swaps the code for what happened (paid, failed,
// expired) and the way back to the shop. The page's policy allows exactly
// this script, by its hash.
//
//go:embed templates/page.html.tmpl templates/poll.js
var pageFiles embed.FS

// pollScript is templates/poll.js without its final newline: the text the
// page carries between its script tags, which the hash must match.
var pollScript = strings.TrimRight(mustRead(pageFiles, "templates/poll.js"), "\n")

// pollScriptHash is the script's hash for the Content-Security-Policy.
var pollScriptHash = func() string {
	h := sha256.Sum256([]byte(pollScript))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}()

var pageTemplate = template.Must(template.Must(template.New("page").
	Parse(mustRead(pageFiles, "templates/page.html.tmpl"))).
	New("poll.js").Parse(pollScript)).Lookup("page")

// mustRead reads an embedded file; a missing one is a build mistake.
func mustRead(fsys embed.FS, name string) string {
	b, err := fsys.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// qrPNG draws text as a QR code (error correction level M) about 320
// pixels wide, with the standard quiet zone of four modules.
func qrPNG(text string) ([]byte, error) {
	code, err := qr.EncodeText(text, qr.Medium)
	if err != nil {
		return nil, fmt.Errorf("gateway qr: %w", err)
	}
	const border = 4
	scale := max(1, 320/(code.Size()+2*border))
	png, err := code.ToPNGBytes(qr.NewQrCodeImgConfig(scale, border))
	if err != nil {
		return nil, fmt.Errorf("gateway qr: %w", err)
	}
	return png, nil
}
