package app

import (
	"context"
	"errors"
	"net/http"

	"members/internal/api/passkeysapi"
	"members/internal/brand"
	"members/internal/httpapi"
	"members/internal/i18n"
	"members/internal/passkey"
	"members/internal/store"
)

// wirePasskeys mounts the member's passkeys and the sign-in with one. The
// relying party comes from the public URL unless --passkey-rp-id and
// --passkey-origins say otherwise. It needs the security centre (events,
// mails), so it is wired after wireSecurity.
func (a *App) wirePasskeys(_ context.Context, cfg Config, f *Features) error {
	publicURL := cfg.PublicURL
	if publicURL == "" {
		publicURL = DefaultPublicURL
	}
	rpID, origins, err := passkey.RelyingParty(publicURL)
	if err != nil && !errors.Is(err, passkey.ErrNoDomain) {
		return err
	}
	if cfg.PasskeyRPID != "" {
		rpID = cfg.PasskeyRPID
	}
	if len(cfg.PasskeyOrigins) > 0 {
		origins = cfg.PasskeyOrigins
	}
	b, err := brand.Load()
	if err != nil {
		return err
	}
	deps := passkey.Deps{
		Store:  store.NewPasskeyStore(a.DB),
		Config: passkey.Config{RPID: rpID, RPName: b.Name(i18n.EN), Origins: origins, ChallengeID: store.NewID},
		Auth:   a.Auth, Passwords: a.Auth.Hasher(), Counters: a.Counters, Notifier: a.Security,
		Now: a.DB.Now, Logger: a.Logger,
	}
	var svc *passkey.Service
	if rpID == "" {
		a.Logger.Warn("passkeys are off: the public URL names no domain; set --passkey-rp-id and --passkey-origins")
		svc = passkey.Disabled(deps)
	} else if svc, err = passkey.NewService(deps); err != nil {
		return err
	}
	f.Mounts = append(f.Mounts, func(s *httpapi.Server, mux *http.ServeMux) {
		passkeysapi.HandlerWithOptions(httpapi.NewPasskeyHandlers(s, svc), passkeysapi.StdHTTPServerOptions{
			BaseRouter: mux, ErrorHandlerFunc: s.ParamError,
		})
	})
	f.Anonymous = append(f.Anonymous, httpapi.PasskeyAnonymous...)
	return nil
}
