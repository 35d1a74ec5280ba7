package httpapi

import (
	"errors"
	"net/http"

	"members/internal/api/oidcapi"
	"members/internal/apperr"
	"members/internal/auth"
	"members/internal/oidcprovider"
)

// OIDCBrowserCookie binds an authorization request to the browser that
// made it: set at /oidc/authorize, checked by the login step, the connect
// page's calls and the callback, so a request started elsewhere cannot be
// approved in this browser (or the other way round).
const OIDCBrowserCookie = "members_oidc"

// oidcBrowserMaxAge is the binding cookie's life, beyond a request's.
const oidcBrowserMaxAge = 12 * 60 * 60

// MountOIDC serves the OpenID Connect provider at the root: discovery and
// /oidc/… (the library's endpoints, with the browser's binding, session
// and address in the context), and the login step (LoginPath). With p nil
// (no signing key configured) they answer 503 not_configured.
func MountOIDC(p *oidcprovider.Provider) func(s *Server, root *http.ServeMux) {
	return func(s *Server, root *http.ServeMux) {
		if p == nil {
			off := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Cache-Control", "no-store")
				s.WriteJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "not_configured"})
			})
			root.Handle(oidcprovider.DiscoveryPath, off)
			root.Handle("/oidc/", off)
			return
		}
		h := p.Handler()
		serve := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx := r.Context()
			browser := s.cookie(r, OIDCBrowserCookie)
			if browser == "" && r.URL.Path == oidcprovider.AuthorizePath {
				token, err := auth.RandomToken()
				if err != nil {
					s.writeError(w, r, err)
					return
				}
				browser = token
				s.setCookie(w, r, OIDCBrowserCookie, browser, oidcBrowserMaxAge)
			}
			ctx = oidcprovider.WithBrowser(ctx, browser)
			ctx = oidcprovider.WithClientAddr(ctx, s.clientAddr(r))
			if sess, ok := s.liveSession(r); ok {
				ctx = oidcprovider.WithSession(ctx, sess)
			}
			w.Header().Set("Cache-Control", "no-store")
			h.ServeHTTP(w, r.WithContext(ctx))
		})
		root.Handle(oidcprovider.DiscoveryPath, h)
		root.Handle("/oidc/", serve)
		root.HandleFunc("GET "+oidcprovider.LoginPath, func(w http.ResponseWriter, r *http.Request) {
			var sess *auth.Session
			if ss, ok := s.liveSession(r); ok {
				sess = &ss
			}
			to, err := p.Resume(r.Context(), r.URL.Query().Get("id"), s.cookie(r, OIDCBrowserCookie), sess)
			if err != nil {
				s.writeError(w, r, err)
				return
			}
			w.Header().Set("Cache-Control", "no-store")
			http.Redirect(w, r, to, http.StatusFound) // #nosec G710 -- the provider's answer: a path of this site, or the client's registered redirect URI (matched exactly at /oidc/authorize) with an error
		})
	}
}

// liveSession is the caller's live session, for handlers outside /api
// (which have no session middleware); a dead cookie counts as none.
func (s *Server) liveSession(r *http.Request) (auth.Session, bool) {
	token := s.cookie(r, SessionCookie)
	if token == "" {
		return auth.Session{}, false
	}
	sess, err := s.Auth.Authenticate(r.Context(), token)
	if err != nil {
		return auth.Session{}, false
	}
	return sess, true
}

// oidcError maps the provider's not-found to a 404 (unknown, run out,
// done, or another browser's request).
func oidcError(err error) error {
	if errors.Is(err, oidcprovider.ErrNotFound) {
		return apperr.New(apperr.NotFound, "error.not_found")
	}
	return err
}

// OIDCHandlers implements oidcapi.ServerInterface: the connect page's
// calls and the security centre's "Sites that use your account", for the
// session's member.
type OIDCHandlers struct {
	*Server
	p *oidcprovider.Provider
}

var _ oidcapi.ServerInterface = (*OIDCHandlers)(nil)

// NewOIDCHandlers returns the handlers; p nil (no provider) answers 404.
func NewOIDCHandlers(s *Server, p *oidcprovider.Provider) *OIDCHandlers {
	return &OIDCHandlers{Server: s, p: p}
}

var errNoProvider = apperr.New(apperr.NotFound, "error.not_found")

func (h *OIDCHandlers) GetOidcRequest(w http.ResponseWriter, r *http.Request, id string) {
	if h.p == nil {
		h.writeError(w, r, errNoProvider)
		return
	}
	v, err := h.p.View(r.Context(), id, h.cookie(r, OIDCBrowserCookie), session(r))
	if err != nil {
		h.writeError(w, r, oidcError(err))
		return
	}
	h.WriteJSON(w, http.StatusOK, oidcapi.OidcRequest{ClientName: v.ClientName, FirstParty: v.FirstParty,
		Scopes: scopesOut(v.Scopes), ConsentNeeded: v.ConsentNeeded})
}

func (h *OIDCHandlers) DecideOidcRequest(w http.ResponseWriter, r *http.Request, id string) {
	var body oidcapi.OidcDecision
	if !h.DecodeJSON(w, r, &body) {
		return
	}
	if h.p == nil {
		h.writeError(w, r, errNoProvider)
		return
	}
	to, err := h.p.Decide(r.Context(), id, h.cookie(r, OIDCBrowserCookie), session(r), body.Approve)
	if err != nil {
		h.writeError(w, r, oidcError(err))
		return
	}
	h.WriteJSON(w, http.StatusOK, oidcapi.OidcRedirect{RedirectTo: to})
}

func (h *OIDCHandlers) ListConnectedSites(w http.ResponseWriter, r *http.Request) {
	out := oidcapi.ConnectedSiteList{Sites: []oidcapi.ConnectedSite{}}
	if h.p != nil {
		sites, err := h.p.Sites(r.Context(), member(r))
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		for _, s := range sites {
			out.Sites = append(out.Sites, oidcapi.ConnectedSite{ClientId: s.ClientID, Name: s.Name, FirstParty: s.FirstParty,
				Scopes: scopesOut(s.Scopes), GrantedAt: s.GrantedAt, LastUsedAt: s.LastUsedAt})
		}
	}
	h.WriteJSON(w, http.StatusOK, out)
}

func (h *OIDCHandlers) RevokeConnectedSite(w http.ResponseWriter, r *http.Request, clientID string) {
	if h.p == nil {
		h.writeError(w, r, errNoProvider)
		return
	}
	if err := h.p.RevokeSite(r.Context(), member(r), clientID); err != nil {
		h.writeError(w, r, oidcError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func scopesOut(in []string) []oidcapi.OidcScope {
	out := make([]oidcapi.OidcScope, 0, len(in))
	for _, s := range in {
		out = append(out, oidcapi.OidcScope(s))
	}
	return out
}
