package gateway

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"
)

// maxBody bounds request bodies; the calls are small.
const maxBody = 64 << 10

// Handler serves the gateway under BasePath: the JSON API (/v1/…) and the
// customer pages.
func (g *Gateway) Handler() http.Handler {
	mux := http.NewServeMux()
	b := g.opt.BasePath
	mux.HandleFunc("OPTIONS "+b+"/v1/tokens", g.preflight)
	mux.HandleFunc("POST "+b+"/v1/tokens", g.limitTokenize(g.handleTokenize))
	mux.HandleFunc("GET "+b+"/v1/tokens/{token}", g.server(g.handleGetToken))
	mux.HandleFunc("DELETE "+b+"/v1/tokens/{token}", g.server(g.handleDeleteToken))
	mux.HandleFunc("POST "+b+"/v1/tokens/{token}/verify", g.server(g.handleVerifyToken))
	mux.HandleFunc("POST "+b+"/v1/payments", g.server(g.handleCreate))
	mux.HandleFunc("GET "+b+"/v1/payments", g.server(g.handleList))
	mux.HandleFunc("GET "+b+"/v1/payments/{id}", g.server(g.handleGet))
	mux.HandleFunc("POST "+b+"/v1/payments/{id}/authorize", g.server(g.handleAuthorize))
	mux.HandleFunc("POST "+b+"/v1/payments/{id}/capture", g.server(g.handleCapture))
	mux.HandleFunc("POST "+b+"/v1/payments/{id}/refund", g.server(g.handleRefund))
	mux.HandleFunc("POST "+b+"/v1/payments/{id}/cancel", g.server(g.handleCancel))
	g.pageRoutes(mux)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern == "" && strings.HasPrefix(r.URL.Path, b+"/v1/") {
			// Unknown API paths and wrong methods answer JSON.
			rec := &statusRecorder{header: http.Header{}}
			h.ServeHTTP(rec, r)
			if rec.code == http.StatusMethodNotAllowed {
				w.Header().Set("Allow", rec.header.Get("Allow"))
				writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "method not allowed")
				return
			}
			writeError(w, http.StatusNotFound, "not_found", "not found")
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// statusRecorder captures what the mux would answer for an unknown route.
type statusRecorder struct {
	header http.Header
	code   int
}

func (s *statusRecorder) Header() http.Header         { return s.header }
func (s *statusRecorder) Write(b []byte) (int, error) { return len(b), nil }
func (s *statusRecorder) WriteHeader(code int)        { s.code = code }

// errorBody is every non-validation error: a stable code and a message.
type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, `{"code":"internal","message":"internal error"}`, http.StatusInternalServerError)
		return
	}
	writeRaw(w, status, b)
}

func writeRaw(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, errorBody{Code: code, Message: msg})
}

// fail maps a service error to its answer; unknown errors are logged and
// answered without detail.
func (g *Gateway) fail(w http.ResponseWriter, r *http.Request, err error) {
	var fe FieldErrors
	switch {
	case errors.As(err, &fe):
		writeJSON(w, http.StatusBadRequest, map[string]any{"validationErrors": fe})
	case errors.Is(err, ErrNotFound):
		writeError(w, http.StatusNotFound, "not_found", "not found")
	case errors.Is(err, ErrIdempotency):
		writeError(w, http.StatusConflict, "idempotency_key_reused", "this Idempotency-Key was used with another request")
	case errors.Is(err, ErrState):
		writeError(w, http.StatusConflict, "invalid_state", "the payment's status does not allow this call")
	case errors.Is(err, ErrRefundTooLarge):
		writeError(w, http.StatusBadRequest, "amount_too_large", "refunds would exceed the captured amount")
	default:
		if r.Context().Err() == nil {
			g.log.Error("gateway", "method", r.Method, "path", r.URL.Path, "err", err)
		}
		writeError(w, http.StatusInternalServerError, "internal", "internal error")
	}
}

// decode reads a JSON body (bounded; an empty body is {}) and returns the
// raw bytes for the request hash.
func decode(w http.ResponseWriter, r *http.Request, v any) ([]byte, bool) {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", "request body too large")
		return nil, false
	}
	if len(strings.TrimSpace(string(raw))) == 0 {
		raw = []byte("{}")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		writeError(w, http.StatusBadRequest, "bad_json", "the body is not the expected JSON")
		return nil, false
	}
	return raw, true
}

// cors opens the tokenisation endpoint to the shop's pages on any origin,
// as a provider's browser library needs.
func cors(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Methods", "POST, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Content-Type")
	h.Set("Access-Control-Max-Age", "600")
}

func (g *Gateway) preflight(w http.ResponseWriter, _ *http.Request) {
	cors(w)
	w.WriteHeader(http.StatusNoContent)
}

func (g *Gateway) handleTokenize(w http.ResponseWriter, r *http.Request) {
	cors(w)
	var in CardInput
	if _, ok := decode(w, r, &in); !ok {
		return
	}
	t, err := g.Tokenize(r.Context(), in)
	if err != nil {
		g.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, t)
}

// server guards a server call: Authorization: Bearer <secret key>.
func (g *Gateway) server(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(g.keys.SecretKey)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="gateway"`)
			writeError(w, http.StatusUnauthorized, "unauthorized", "missing or wrong secret key")
			return
		}
		next(w, r)
	}
}

func (g *Gateway) handleGetToken(w http.ResponseWriter, r *http.Request) {
	t, err := g.GetToken(r.Context(), r.PathValue("token"))
	if err != nil {
		g.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, t)
}

func (g *Gateway) handleDeleteToken(w http.ResponseWriter, r *http.Request) {
	if err := g.DeleteToken(r.Context(), r.PathValue("token")); err != nil {
		g.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleVerifyToken is the zero-amount authorisation of a card about to be
// saved (Idempotency-Key required, as on every call that asks the issuer).
func (g *Gateway) handleVerifyToken(w http.ResponseWriter, r *http.Request) {
	raw, ok := decode(w, r, &emptyBody{})
	if !ok {
		return
	}
	key, hash, ok := idemKey(w, r, raw)
	if !ok {
		return
	}
	res, err := g.verifyCall(r.Context(), key, hash, r.PathValue("token"))
	g.answer(w, r, res, err)
}

// base is the gateway's URL as the customer's browser reaches it.
func (g *Gateway) base(r *http.Request) string {
	if g.opt.PublicURL != "" {
		return strings.TrimRight(g.opt.PublicURL, "/")
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + g.opt.BasePath
}

// idemKey returns the Idempotency-Key and the hash of the request it
// guards (method, path and body: the same key on another call or with
// another body is a conflict).
func idemKey(w http.ResponseWriter, r *http.Request, body []byte) (string, string, bool) {
	key := strings.TrimSpace(r.Header.Get("Idempotency-Key"))
	if key == "" || len(key) > 255 {
		writeError(w, http.StatusBadRequest, "idempotency_key_required", "an Idempotency-Key header (at most 255 characters) is required")
		return "", "", false
	}
	h := sha256.New()
	h.Write([]byte(r.Method + " " + r.URL.Path + "\n"))
	h.Write(body)
	return key, hex.EncodeToString(h.Sum(nil)), true
}

// answer writes an idempotent call's result.
func (g *Gateway) answer(w http.ResponseWriter, r *http.Request, res *result, err error) {
	if err != nil {
		g.fail(w, r, err)
		return
	}
	if res.replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	writeRaw(w, res.status, res.body)
}

func (g *Gateway) handleCreate(w http.ResponseWriter, r *http.Request) {
	var in PaymentInput
	raw, ok := decode(w, r, &in)
	if !ok {
		return
	}
	key, hash, ok := idemKey(w, r, raw)
	if !ok {
		return
	}
	res, err := g.createCall(r.Context(), key, hash, g.base(r), in)
	g.answer(w, r, res, err)
}

// emptyBody is the body of capture (none expected).
type emptyBody struct{}

// authorizeBody is the body of authorise: {"capture": "automatic"} captures
// a card that needs no customer step in the same call.
type authorizeBody struct {
	Capture string `json:"capture"`
}

func (g *Gateway) handleAuthorize(w http.ResponseWriter, r *http.Request) {
	var in authorizeBody
	raw, ok := decode(w, r, &in)
	if !ok {
		return
	}
	key, hash, ok := idemKey(w, r, raw)
	if !ok {
		return
	}
	res, err := g.authorizeCall(r.Context(), key, hash, g.base(r), r.PathValue("id"), in.Capture)
	if err == nil && !res.replayed && res.payment.behaviour == SlowAuthorize &&
		(res.payment.Status == StatusAuthorized || res.payment.Status == StatusCaptured) {
		// Card 0119: the authorisation is recorded (committed above) but the
		// answer comes only after the client has given up, so the outcome is
		// known only by a status query.
		select {
		case <-time.After(g.opt.SlowAuthorize):
		case <-r.Context().Done():
			return
		}
	}
	g.answer(w, r, res, err)
}

func (g *Gateway) handleCapture(w http.ResponseWriter, r *http.Request) {
	raw, ok := decode(w, r, &emptyBody{})
	if !ok {
		return
	}
	key, hash, ok := idemKey(w, r, raw)
	if !ok {
		return
	}
	res, err := g.captureCall(r.Context(), key, hash, g.base(r), r.PathValue("id"))
	g.answer(w, r, res, err)
}

// handleCancel cancels a payment waiting for its customer (409
// invalid_state once it is paid, failed or expired).
func (g *Gateway) handleCancel(w http.ResponseWriter, r *http.Request) {
	raw, ok := decode(w, r, &emptyBody{})
	if !ok {
		return
	}
	key, hash, ok := idemKey(w, r, raw)
	if !ok {
		return
	}
	res, err := g.cancelCall(r.Context(), key, hash, g.base(r), r.PathValue("id"))
	g.answer(w, r, res, err)
}

func (g *Gateway) handleRefund(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Amount int64 `json:"amount"`
	}
	raw, ok := decode(w, r, &in)
	if !ok {
		return
	}
	key, hash, ok := idemKey(w, r, raw)
	if !ok {
		return
	}
	res, err := g.refundCall(r.Context(), key, hash, g.base(r), r.PathValue("id"), in.Amount)
	g.answer(w, r, res, err)
}

func (g *Gateway) handleGet(w http.ResponseWriter, r *http.Request) {
	p, err := g.Payment(r.Context(), r.PathValue("id"), g.base(r))
	if err != nil {
		g.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (g *Gateway) handleList(w http.ResponseWriter, r *http.Request) {
	ref := r.URL.Query().Get("reference")
	if ref == "" {
		writeJSON(w, http.StatusBadRequest, map[string]any{"validationErrors": FieldErrors{"reference": {CodeRequired}}})
		return
	}
	ps, err := g.PaymentsByReference(r.Context(), ref, g.base(r))
	if err != nil {
		g.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"payments": ps})
}
