package app

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"members/internal/api/pushapi"
	"members/internal/httpapi"
	"members/internal/mail"
	"members/internal/push"
	"members/internal/store"
)

// pushEvery is how often the sender looks for pushes owed: a flight
// change reaches the lock screen within seconds.
const pushEvery = 3 * time.Second

// demoVAPIDSetting keeps a --demo server's own VAPID key, made once, so a
// restart keeps its subscriptions working.
const demoVAPIDSetting = "secret:vapid-demo"

// PushKeys returns the server's VAPID keys: from cfg.VAPIDPrivateKey (the
// secret store), or for --demo a key made once and kept in the database;
// nil when neither (push is not offered).
func (a *App) PushKeys(ctx context.Context, cfg Config) (*push.Keys, error) {
	private := strings.TrimSpace(cfg.VAPIDPrivateKey)
	if private == "" && cfg.Demo {
		made, err := push.NewPrivateKey()
		if err != nil {
			return nil, err
		}
		if err := a.Settings.SetIfMissing(ctx, demoVAPIDSetting, made, &private); err != nil {
			return nil, err
		}
	}
	if private == "" {
		return nil, nil
	}
	keys, err := push.ParseKeys(private, vapidSubject(cfg))
	if err != nil {
		return nil, fmt.Errorf("--vapid-private-key: %w", err)
	}
	return keys, nil
}

// vapidSubject is the operator's contact in the VAPID claim: the flag's,
// else the public URL when it is https, else the mail sender's address.
func vapidSubject(cfg Config) string {
	if s := strings.TrimSpace(cfg.VAPIDSubject); s != "" {
		return s
	}
	if strings.HasPrefix(cfg.PublicURL, "https://") {
		return strings.TrimRight(cfg.PublicURL, "/")
	}
	return "mailto:" + mail.DefaultFrom
}

// PushSender is the sender of the pushes owed (the server's background
// job; tests call SendDue). nil keys: no sender.
func (a *App) PushSender(cfg Config, keys *push.Keys) (*push.Sender, error) {
	endpoints, err := push.NewEndpoints(cfg.TestPushService)
	if err != nil {
		return nil, err
	}
	public := cfg.PublicURL
	if public == "" {
		public = DefaultPublicURL
	}
	return push.NewSender(observedPush{store.NewPushStore(a.DB), a.metrics}, push.NewWebPush(keys, endpoints), a.Catalog, public,
		a.DB.Now, a.Logger), nil
}

// wirePush mounts the Web Push API (the devices' flight change alerts)
// and, when the server has a VAPID key, starts the sender.
func (a *App) wirePush(ctx context.Context, cfg Config, f *Features) error {
	keys, err := a.PushKeys(ctx, cfg)
	if err != nil {
		return err
	}
	endpoints, err := push.NewEndpoints(cfg.TestPushService)
	if err != nil {
		return err
	}
	svc := push.NewService(observedPush{store.NewPushStore(a.DB), a.metrics}, endpoints, keys, store.NewID, a.DB.Now)
	f.Mounts = append(f.Mounts, func(s *httpapi.Server, mux *http.ServeMux) {
		pushapi.HandlerWithOptions(httpapi.NewPushHandlers(s, svc), pushapi.StdHTTPServerOptions{
			BaseRouter: mux, ErrorHandlerFunc: s.ParamError,
		})
	})
	if keys == nil {
		a.Logger.Info("web push off: no --vapid-private-key (MEMBERS_VAPID_PRIVATE_KEY); flight change alerts go by mail only")
		return nil
	}
	sender, err := a.PushSender(cfg, keys)
	if err != nil {
		return err
	}
	f.Background = append(f.Background, func(ctx context.Context) { sender.Run(ctx, pushEvery) })
	return nil
}
