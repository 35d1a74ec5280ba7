package app

import (
	"context"
	"fmt"
	"net/http"

	"members/internal/api/notifyapi"
	"members/internal/httpapi"
	"members/internal/notify"
	"members/internal/store"
)

// Notify returns the notification settings service, built once: the
// unsubscribe links are signed with cfg.UnsubscribeKey (kept outside the
// database) when set, else with a key kept in the database; the previous
// keys of cfg.UnsubscribeKeyPrevious still verify.
func (a *App) Notify(ctx context.Context, cfg Config) (*notify.Service, error) {
	if a.notify != nil {
		return a.notify, nil
	}
	var keys [][]byte
	if cfg.UnsubscribeKey != "" {
		k, err := DecodeKey(cfg.UnsubscribeKey)
		if err != nil {
			return nil, fmt.Errorf("--unsubscribe-key: %w", err)
		}
		keys = append(keys, k)
	} else {
		k, err := a.Secret(ctx, "mail-unsubscribe")
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	for _, p := range cfg.UnsubscribeKeyPrevious {
		k, err := DecodeKey(p)
		if err != nil {
			return nil, fmt.Errorf("--unsubscribe-key-previous: %w", err)
		}
		keys = append(keys, k)
	}
	publicURL := cfg.PublicURL
	if publicURL == "" {
		publicURL = DefaultPublicURL
	}
	svc, err := notify.NewService(store.NewNotifyStore(a.DB), keys, publicURL, a.DB.Now, a.Logger)
	if err != nil {
		return nil, err
	}
	a.notify = svc
	return svc, nil
}

// wireNotify mounts the notification settings API and the one-click
// unsubscribe links of the optional mails (outside /api, no session).
func (a *App) wireNotify(ctx context.Context, cfg Config, f *Features) error {
	svc, err := a.Notify(ctx, cfg)
	if err != nil {
		return err
	}
	f.Mounts = append(f.Mounts, func(s *httpapi.Server, mux *http.ServeMux) {
		notifyapi.HandlerWithOptions(httpapi.NewNotifyHandlers(s, svc), notifyapi.StdHTTPServerOptions{
			BaseRouter: mux, ErrorHandlerFunc: s.ParamError,
		})
	})
	page := httpapi.Unsubscribe(svc, a.Catalog, a.Logger, a.unavailable)
	f.RootMounts = append(f.RootMounts, func(mux *http.ServeMux) {
		mux.Handle("GET "+notify.UnsubscribePath, page)
		mux.Handle("POST "+notify.UnsubscribePath, page)
	})
	return nil
}
