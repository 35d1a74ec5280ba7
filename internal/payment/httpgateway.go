package payment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// HTTPGateway speaks the sandbox gateway's wire API (docs/gateways.md).
type HTTPGateway struct {
	base   string // …/gateway, without the trailing slash
	key    string
	client *http.Client
}

// NewHTTPGateway returns the adapter for the gateway at baseURL (the
// /gateway prefix included) with the server's secret key. timeout bounds
// each call; a call that runs out is ErrGatewayUnavailable.
func NewHTTPGateway(baseURL, key string, timeout time.Duration) *HTTPGateway {
	return &HTTPGateway{
		base: strings.TrimRight(baseURL, "/"), key: key,
		client: &http.Client{Timeout: timeout, Transport: &http.Transport{
			MaxIdleConnsPerHost: 128, IdleConnTimeout: 90 * time.Second,
		}},
	}
}

// Name is the sandbox's gateway name.
func (g *HTTPGateway) Name() string { return "ndhk" }

// do sends one call and decodes a 2xx answer into out.
func (g *HTTPGateway) do(ctx context.Context, method, path, key string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("gateway %s %s: %w", method, path, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, g.base+path, body)
	if err != nil {
		return fmt.Errorf("gateway %s %s: %w", method, path, err)
	}
	req.Header.Set("Authorization", "Bearer "+g.key)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := g.client.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %s %s: %v", ErrGatewayUnavailable, method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("%w: %s %s: read: %v", ErrGatewayUnavailable, method, path, err)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("%w: %s %s: 404", ErrUnknownToken, method, path)
	case resp.StatusCode >= 500:
		return fmt.Errorf("%w: %s %s: %d", ErrGatewayUnavailable, method, path, resp.StatusCode)
	case resp.StatusCode >= 400:
		return fmt.Errorf("%w: %s %s: %d %s", ErrGatewayRefused, method, path, resp.StatusCode, truncate(b, 200))
	}
	if out == nil || resp.StatusCode == http.StatusNoContent {
		return nil
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%w: %s %s: decode: %v", ErrGatewayUnavailable, method, path, err)
	}
	return nil
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
	}
	return string(b)
}

func (g *HTTPGateway) Token(ctx context.Context, token string) (GatewayToken, error) {
	var t GatewayToken
	err := g.do(ctx, http.MethodGet, "/v1/tokens/"+url.PathEscape(token), "", nil, &t)
	return t, err
}

func (g *HTTPGateway) DeleteToken(ctx context.Context, token string) error {
	err := g.do(ctx, http.MethodDelete, "/v1/tokens/"+url.PathEscape(token), "", nil, nil)
	if errors.Is(err, ErrUnknownToken) {
		return nil
	}
	return err
}

func (g *HTTPGateway) VerifyCard(ctx context.Context, key, token string) (CardVerification, error) {
	var v CardVerification
	err := g.do(ctx, http.MethodPost, "/v1/tokens/"+url.PathEscape(token)+"/verify", key, struct{}{}, &v)
	return v, err
}

func (g *HTTPGateway) CreatePayment(ctx context.Context, key string, in CreatePayment) (GatewayPayment, error) {
	var p GatewayPayment
	err := g.do(ctx, http.MethodPost, "/v1/payments", key, in, &p)
	return p, err
}

func (g *HTTPGateway) step(ctx context.Context, key, id, step string, in any) (GatewayPayment, error) {
	var p GatewayPayment
	if in == nil {
		in = struct{}{}
	}
	err := g.do(ctx, http.MethodPost, "/v1/payments/"+url.PathEscape(id)+"/"+step, key, in, &p)
	return p, err
}

func (g *HTTPGateway) Authorize(ctx context.Context, key, id string, autoCapture bool) (GatewayPayment, error) {
	if autoCapture {
		return g.step(ctx, key, id, "authorize", map[string]string{"capture": "automatic"})
	}
	return g.step(ctx, key, id, "authorize", nil)
}

func (g *HTTPGateway) Capture(ctx context.Context, key, id string) (GatewayPayment, error) {
	return g.step(ctx, key, id, "capture", nil)
}

func (g *HTTPGateway) Refund(ctx context.Context, key, id string, amount int64) (GatewayPayment, error) {
	return g.step(ctx, key, id, "refund", map[string]int64{"amount": amount})
}

func (g *HTTPGateway) Cancel(ctx context.Context, key, id string) (GatewayPayment, error) {
	return g.step(ctx, key, id, "cancel", nil)
}

func (g *HTTPGateway) Payment(ctx context.Context, id string) (GatewayPayment, error) {
	var p GatewayPayment
	err := g.do(ctx, http.MethodGet, "/v1/payments/"+url.PathEscape(id), "", nil, &p)
	return p, err
}

func (g *HTTPGateway) PaymentsByReference(ctx context.Context, ref string) ([]GatewayPayment, error) {
	var out struct {
		Payments []GatewayPayment `json:"payments"`
	}
	err := g.do(ctx, http.MethodGet, "/v1/payments?reference="+url.QueryEscape(ref), "", nil, &out)
	return out.Payments, err
}
