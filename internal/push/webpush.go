package push

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"
)

// WebPush sends pushes with github.com/SherClockHolmes/webpush-go: the
// payload encrypted to the device's keys (aes128gcm, RFC 8291), signed
// for the push service with the server's VAPID key (RFC 8292), over the
// endpoints' guarded client.
type WebPush struct {
	keys      *Keys
	endpoints *Endpoints
	client    *http.Client
}

// NewWebPush returns the transport of the pushes.
func NewWebPush(keys *Keys, endpoints *Endpoints) *WebPush {
	return &WebPush{keys: keys, endpoints: endpoints, client: endpoints.Client(sendTimeout)}
}

// Send encrypts and posts one push. The endpoint is checked again (a
// subscription stored before a change of the rules is not called).
func (w *WebPush) Send(ctx context.Context, sub Subscription, payload []byte, o Options) (Response, error) {
	if err := w.endpoints.Allowed(sub.Endpoint); err != nil {
		return Response{Status: http.StatusGone}, nil // never called: forgotten as a gone one is
	}
	res, err := webpush.SendNotificationWithContext(ctx, payload, &webpush.Subscription{
		Endpoint: sub.Endpoint, Keys: webpush.Keys{Auth: sub.Auth, P256dh: sub.P256dh},
	}, &webpush.Options{
		// the library writes the subject's mailto: itself
		HTTPClient: w.client, Subscriber: strings.TrimPrefix(w.keys.Subject, "mailto:"),
		VAPIDPublicKey: w.keys.Public, VAPIDPrivateKey: w.keys.Private,
		TTL: int(o.TTL / time.Second), Urgency: webpush.Urgency(o.Urgency), Topic: o.Topic,
	})
	if err != nil {
		if errors.Is(err, webpush.ErrMaxPadExceeded) {
			return Response{}, fmt.Errorf("payload too large: %w", err)
		}
		return Response{}, err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	out := Response{Status: res.StatusCode}
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && s > 0 {
		out.RetryAfter = min(time.Duration(s)*time.Second, maxBackoff)
	}
	return out, nil
}
