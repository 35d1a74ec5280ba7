package httpapi

import (
	"net/http"
	"strings"

	"members/internal/api/platformapi"
	"members/internal/auth"
	"members/internal/masters"
	"members/internal/platform"
)

// platformHandlers implements platformapi.ServerInterface: sessions,
// CSRF, masters and the operator switches.
type platformHandlers struct{ *Server }

var _ platformapi.ServerInterface = (*platformHandlers)(nil)

func (h *platformHandlers) CheckSession(w http.ResponseWriter, r *http.Request) {
	if _, ok := SessionFrom(r.Context()); !ok {
		h.writeNoSession(w, r)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *platformHandlers) Login(w http.ResponseWriter, r *http.Request) {
	var body platformapi.LoginJSONRequestBody
	if !h.DecodeJSON(w, r, &body) {
		return
	}
	// The credentials are checked first: a failed or malformed login
	// leaves the current session as it was.
	token, _, err := h.Auth.Login(r.Context(), auth.LoginInput{
		Email: body.Email, Password: body.Password, ClientAddr: h.clientAddr(r), UserAgent: r.UserAgent(),
	})
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.startSession(w, r, token)
}

// startSession ends the caller's current session, if any (a new login
// never reuses its id), sets the new session's cookie and answers 204.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, token string) {
	if old, ok := SessionFrom(r.Context()); ok {
		if err := s.Auth.Logout(r.Context(), old); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	s.setCookie(w, r, SessionCookie, token, int(auth.AbsoluteLifetime.Seconds()))
	s.setCookie(w, r, AnonCookie, "", -1)
	w.WriteHeader(http.StatusNoContent)
}

func (h *platformHandlers) Logout(w http.ResponseWriter, r *http.Request) {
	sess := session(r)
	if err := h.Auth.Logout(r.Context(), sess); err != nil {
		h.writeError(w, r, err)
		return
	}
	h.setCookie(w, r, SessionCookie, "", -1)
	w.WriteHeader(http.StatusNoContent)
}

func (h *platformHandlers) RefreshSession(w http.ResponseWriter, r *http.Request) {
	sess := session(r)
	if err := h.Auth.Refresh(r.Context(), sess); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *platformHandlers) GetSessionInfo(w http.ResponseWriter, r *http.Request) {
	if sess, ok := SessionFrom(r.Context()); ok {
		h.WriteJSON(w, http.StatusOK, platformapi.SessionInfo{SessionLogId: sess.LogID, LoggedIn: true})
		return
	}
	anon := h.ensureAnonCookie(w, r)
	info := platformapi.SessionInfo{SessionLogId: anonLogID(anon), LoggedIn: false}
	if ended, _ := r.Context().Value(keyEndedElsewhere).(bool); ended {
		info.SignedOutElsewhere = &ended
	}
	if why, ok := r.Context().Value(keySessionEnded).(string); ok {
		ended := platformapi.SessionInfoSessionEnded(why)
		info.SessionEnded = &ended
	}
	h.WriteJSON(w, http.StatusOK, info)
}

// ensureAnonCookie returns the visitor's pre-login cookie, setting one
// when missing: the CSRF token of the login form is bound to it.
func (h *platformHandlers) ensureAnonCookie(w http.ResponseWriter, r *http.Request) string {
	if v := h.cookie(r, AnonCookie); len(v) >= 32 {
		return v
	}
	v, err := auth.RandomToken()
	if err != nil {
		panic(err) // crypto/rand failing is not recoverable
	}
	h.setCookie(w, r, AnonCookie, v, 0)
	return v
}

func (h *platformHandlers) GetCsrfToken(w http.ResponseWriter, r *http.Request) {
	bound := h.csrfBinding(r)
	if _, ok := SessionFrom(r.Context()); !ok {
		bound = h.ensureAnonCookie(w, r)
	}
	h.WriteJSON(w, http.StatusOK, map[string]string{"csrfToken": h.csrfToken(bound)})
}

func (h *platformHandlers) ListLanguages(w http.ResponseWriter, r *http.Request) {
	h.WriteJSON(w, http.StatusOK, masters.Languages())
}

func (h *platformHandlers) ListAirports(w http.ResponseWriter, r *http.Request) {
	h.WriteJSON(w, http.StatusOK, masters.LocalizedAirports(Lang(r)))
}

func (h *platformHandlers) ListCountries(w http.ResponseWriter, r *http.Request) {
	h.WriteJSON(w, http.StatusOK, h.Countries.List(Lang(r)))
}

func (h *platformHandlers) ListRelations(w http.ResponseWriter, r *http.Request) {
	lang := Lang(r)
	h.WriteJSON(w, http.StatusOK, masters.Relations(func(key string) string { return h.Catalog.T(lang, key) }))
}

func (h *platformHandlers) ListCurrencies(w http.ResponseWriter, r *http.Request) {
	h.WriteJSON(w, http.StatusOK, masters.Currencies())
}

func (h *platformHandlers) GetCookieConsent(w http.ResponseWriter, r *http.Request) {
	v, err := h.Platform.CookieConsent(r.Context())
	h.reply(w, r, v, err)
}

func (h *platformHandlers) GetTopicBanner(w http.ResponseWriter, r *http.Request) {
	v, err := h.Platform.TopicBanner(r.Context())
	h.reply(w, r, v, err)
}

func (h *platformHandlers) GetGogoPassStatus(w http.ResponseWriter, r *http.Request) {
	v, err := h.Platform.GogoPassStatus(r.Context())
	h.reply(w, r, v, err)
}

func (h *platformHandlers) GetCouponTicketStatus(w http.ResponseWriter, r *http.Request) {
	v, err := h.Platform.CouponTicketStatus(r.Context())
	h.reply(w, r, v, err)
}

func (h *platformHandlers) RequestOriginAccess(w http.ResponseWriter, r *http.Request) {
	v, err := h.Platform.RequestOriginAccess(r.Context())
	h.reply(w, r, v, err)
}

func (h *platformHandlers) NotifyException(w http.ResponseWriter, r *http.Request) {
	var body platformapi.NotifyExceptionJSONRequestBody
	if !h.DecodeJSON(w, r, &body) {
		return
	}
	rep := platform.ExceptionReport{Name: body.Name, Message: body.Message, ClientAddr: h.clientAddr(r)}
	if body.Stack != nil {
		rep.Stack = *body.Stack
	}
	if body.Path != nil {
		p, _, _ := strings.Cut(*body.Path, "?")
		rep.Path = redactPath(p)
	}
	if err := h.Platform.Report(r.Context(), rep); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
