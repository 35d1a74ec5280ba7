package oidcprovider

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"slices"
	"time"

	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"members/internal/auth"
	"members/internal/i18n"
)

// The members' area's pages of the flow (the web app's routes).
const (
	// ConnectPath shows a client's request to the member: it asks for
	// consent, or goes straight on (the web app's connect page).
	ConnectPath = "/connect"
	loginPage   = "/login"
)

// Resume is LoginPath: where the browser goes after /oidc/authorize. It
// answers where to go next:
//   - signed in here, and the client first-party or already granted what
//     it asks: straight back to the client with a code (the callback);
//   - prompt=none and not signed in (or the hint names someone else):
//     back to the client with login_required; consent missing:
//     consent_required;
//   - otherwise the login page (with login_hint as the e-mail), then the
//     connect page, which asks for consent when it is needed.
//
// A request unknown, run out or made in another browser goes to the
// connect page too, which says it has expired.
func (p *Provider) Resume(ctx context.Context, id, browser string, sess *auth.Session) (string, error) {
	r, c, err := p.request(ctx, id, browser)
	if errors.Is(err, ErrNotFound) {
		return connectURL(id, ""), nil
	}
	if err != nil {
		return "", err
	}
	if r.MemberID != "" {
		return callbackURL(r.ID), nil
	}
	none := slices.Contains(r.Params.Prompt, oidc.PromptNone)
	lang := p.lang(ctx, r, sess)
	if sess == nil || !p.fresh(r, *sess) {
		if none || sess != nil {
			// Signed in too long ago for max_age or prompt=login: the
			// member signs in again here, then on the client.
			return p.errorURL(r, oidc.ErrLoginRequired().WithDescription("the member is not signed in"))
		}
		return loginURL(r, lang), nil
	}
	if none && r.Params.HintSubject != "" && r.Params.HintSubject != sess.MemberID {
		return p.errorURL(r, oidc.ErrLoginRequired().WithDescription("another member is signed in"))
	}
	needs, err := p.needsConsent(ctx, r, c, sess.MemberID)
	if err != nil {
		return "", err
	}
	if needs {
		if none {
			return p.errorURL(r, (&oidc.Error{ErrorType: "consent_required"}).WithDescription("the member has not granted this yet"))
		}
		return connectURL(r.ID, lang), nil
	}
	return p.approve(ctx, r, *sess)
}

// maxMaxAge bounds a request's max_age (a year, beyond any session's life).
const maxMaxAge uint = 365 * 24 * 60 * 60

// fresh reports whether the session meets the request's max_age (and
// prompt=login, which the library turns into max_age 0): a session
// signed in during the request always does.
func (p *Provider) fresh(r Request, sess auth.Session) bool {
	if r.Params.MaxAge == nil || !sess.CreatedAt.Before(r.CreatedAt) {
		return true
	}
	maxAge := min(*r.Params.MaxAge, maxMaxAge)
	return p.cfg.Now().Sub(sess.CreatedAt) <= time.Duration(maxAge)*time.Second // #nosec G115 -- clamped to maxMaxAge, far below int64's range
}

// request loads a live request of this browser and its client.
func (p *Provider) request(ctx context.Context, id, browser string) (Request, Client, error) {
	if id == "" || browser == "" {
		return Request{}, Client{}, ErrNotFound
	}
	r, err := p.store.Request(ctx, id, p.cfg.Now())
	if err != nil {
		return Request{}, Client{}, err
	}
	if r.BrowserHash != Hash(browser) || r.CodeUsed || !r.CodeExpiresAt.IsZero() {
		return Request{}, Client{}, ErrNotFound
	}
	c, err := p.store.Client(ctx, r.ClientID)
	if err != nil {
		return Request{}, Client{}, err
	}
	return r, c, nil
}

// needsConsent: a first-party client never asks; another asks unless the
// member granted every scope it asks for before (and it does not ask with
// prompt=consent).
func (p *Provider) needsConsent(ctx context.Context, r Request, c Client, memberID string) (bool, error) {
	if c.FirstParty {
		return false, nil
	}
	if slices.Contains(r.Params.Prompt, oidc.PromptConsent) {
		return true, nil
	}
	g, err := p.store.Grant(ctx, memberID, c.ID)
	if errors.Is(err, ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	for _, s := range r.Params.Scopes {
		if !slices.Contains(g.Scopes, s) {
			return true, nil
		}
	}
	return false, nil
}

func (p *Provider) approve(ctx context.Context, r Request, sess auth.Session) (string, error) {
	err := p.store.Approve(ctx, r.ID, sess.MemberID, sess.IDHash, sess.CreatedAt, p.cfg.Now())
	if errors.Is(err, ErrNotFound) {
		return connectURL(r.ID, ""), nil
	}
	if err != nil {
		return "", fmt.Errorf("approve: %w", err)
	}
	return callbackURL(r.ID), nil
}

// errorURL is the client's redirect URI with an error (and the state).
func (p *Provider) errorURL(r Request, e *oidc.Error) (string, error) {
	e.State = r.Params.State
	u, err := op.AuthResponseURL(r.Params.RedirectURI, oidc.ResponseType(r.Params.ResponseType), oidc.ResponseMode(r.Params.ResponseMode), e, p.op.Encoder())
	if err != nil {
		return "", fmt.Errorf("error redirect: %w", err)
	}
	return u, nil
}

// lang is the language of the pages: ui_locales when one maps, else the
// member's own.
func (p *Provider) lang(ctx context.Context, r Request, sess *auth.Session) string {
	if l, ok := i18n.FromLocales(r.Params.UILocales); ok {
		return string(l)
	}
	if sess != nil {
		if m, err := p.store.Member(ctx, sess.MemberID); err == nil {
			if l, ok := i18n.Parse(m.Lang); ok {
				return string(l)
			}
		}
	}
	return ""
}

func callbackURL(id string) string {
	return CallbackPath + "?" + url.Values{"id": {id}}.Encode()
}

func connectURL(id, lang string) string {
	q := url.Values{"request": {id}}
	if lang != "" {
		q.Set("lang", lang)
	}
	return ConnectPath + "?" + q.Encode()
}

// loginURL is the login page, back to the connect page after: login_hint
// fills in the e-mail when it is an address.
func loginURL(r Request, lang string) string {
	q := url.Values{"redirect": {connectURL(r.ID, "")}}
	if lang != "" {
		q.Set("lang", lang)
	}
	if a, err := mail.ParseAddress(r.Params.LoginHint); err == nil && a.Address == r.Params.LoginHint {
		q.Set("email", a.Address)
	}
	return loginPage + "?" + q.Encode()
}

// RequestView is a request as the connect page shows it.
type RequestView struct {
	ClientName string
	FirstParty bool
	// Scopes are what the client asks for, in the provider's order.
	Scopes []string
	// ConsentNeeded: the page asks; otherwise it goes straight on.
	ConsentNeeded bool
}

// View is the connect page's request (ErrNotFound: unknown, run out, done,
// or made in another browser).
func (p *Provider) View(ctx context.Context, id, browser string, sess auth.Session) (RequestView, error) {
	r, c, err := p.request(ctx, id, browser)
	if err != nil {
		return RequestView{}, err
	}
	needs, err := p.needsConsent(ctx, r, c, sess.MemberID)
	if err != nil {
		return RequestView{}, err
	}
	var scopes []string
	for _, s := range Scopes {
		if slices.Contains(r.Params.Scopes, s) {
			scopes = append(scopes, s)
		}
	}
	return RequestView{ClientName: c.Name, FirstParty: c.FirstParty, Scopes: scopes, ConsentNeeded: needs}, nil
}

// Decide is the member's answer on the connect page: approve goes on to
// the client with a code (through the callback), a refusal back to the
// client with access_denied. It returns where the browser goes.
func (p *Provider) Decide(ctx context.Context, id, browser string, sess auth.Session, approve bool) (string, error) {
	r, _, err := p.request(ctx, id, browser)
	if err != nil {
		return "", err
	}
	if r.MemberID != "" {
		return callbackURL(r.ID), nil
	}
	if !approve {
		return p.errorURL(r, oidc.ErrAccessDenied().WithDescription("the member declined"))
	}
	if !p.fresh(r, sess) {
		return p.errorURL(r, oidc.ErrLoginRequired().WithDescription("the member is not signed in"))
	}
	return p.approve(ctx, r, sess)
}
