package httpapi

import (
	"encoding/json"
	"net/http"

	"members/internal/api/passkeysapi"
	"members/internal/apperr"
	"members/internal/passkey"
)

// PasskeyHandlers implements passkeysapi.ServerInterface: the member's
// passkeys and the sign-in with one.
type PasskeyHandlers struct {
	*Server
	passkeys *passkey.Service
}

var _ passkeysapi.ServerInterface = (*PasskeyHandlers)(nil)

// PasskeyAnonymous are the passkey calls that work without a session (the
// sign-in); like every non-GET they need the CSRF token of the pre-login
// cookie.
var PasskeyAnonymous = []string{"POST /api/passkeys/login/options", "POST /api/passkeys/login"}

// NewPasskeyHandlers returns the handlers of the passkeys API.
func NewPasskeyHandlers(s *Server, p *passkey.Service) *PasskeyHandlers {
	return &PasskeyHandlers{Server: s, passkeys: p}
}

func (h *PasskeyHandlers) client(r *http.Request) passkey.Client {
	return passkey.Client{Addr: h.clientAddr(r), UserAgent: r.UserAgent()}
}

// rawCredential is the browser's credential JSON, handed to go-webauthn's
// parser as it came.
func rawCredential(m map[string]any) ([]byte, error) {
	if len(m) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, apperr.New(apperr.Invalid, "passkey.ceremony_failed")
	}
	return b, nil
}

func (h *PasskeyHandlers) ListPasskeys(w http.ResponseWriter, r *http.Request) {
	list, err := h.passkeys.List(r.Context(), member(r))
	h.reply(w, r, map[string]any{"passkeys": list}, err)
}

func (h *PasskeyHandlers) BeginPasskeyRegistration(w http.ResponseWriter, r *http.Request) {
	o, err := h.passkeys.BeginRegistration(r.Context(), member(r))
	h.reply(w, r, o, err)
}

func (h *PasskeyHandlers) FinishPasskeyRegistration(w http.ResponseWriter, r *http.Request) {
	var body passkeysapi.FinishPasskeyRegistrationJSONRequestBody
	if !h.DecodeJSON(w, r, &body) {
		return
	}
	cred, err := rawCredential(body.Credential)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	v, err := h.passkeys.FinishRegistration(r.Context(), member(r), passkey.RegisterInput{
		ChallengeID: body.ChallengeId, Name: str(body.Name), Credential: cred,
	}, h.client(r))
	h.replyStatus(w, r, http.StatusCreated, v, err)
}

func (h *PasskeyHandlers) RenamePasskey(w http.ResponseWriter, r *http.Request, id string) {
	var body passkeysapi.RenamePasskeyJSONRequestBody
	if !h.DecodeJSON(w, r, &body) {
		return
	}
	v, err := h.passkeys.Rename(r.Context(), member(r), id, body.Name)
	h.reply(w, r, v, err)
}

func (h *PasskeyHandlers) BeginPasskeyReauth(w http.ResponseWriter, r *http.Request) {
	o, err := h.passkeys.BeginReauth(r.Context(), member(r))
	h.reply(w, r, o, err)
}

func (h *PasskeyHandlers) RemovePasskey(w http.ResponseWriter, r *http.Request, id string) {
	var body passkeysapi.RemovePasskeyJSONRequestBody
	if !h.DecodeJSON(w, r, &body) {
		return
	}
	in := passkey.RemoveInput{CurrentPassword: str(body.CurrentPassword)}
	if body.Assertion != nil {
		cred, err := rawCredential(body.Assertion.Credential)
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		in.Assertion = &passkey.Assertion{ChallengeID: body.Assertion.ChallengeId, Credential: cred}
	}
	if err := h.passkeys.Remove(r.Context(), member(r), id, in, h.client(r)); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *PasskeyHandlers) BeginPasskeyLogin(w http.ResponseWriter, r *http.Request) {
	o, err := h.passkeys.BeginLogin(r.Context(), h.clientAddr(r))
	h.reply(w, r, o, err)
}

func (h *PasskeyHandlers) FinishPasskeyLogin(w http.ResponseWriter, r *http.Request) {
	var body passkeysapi.FinishPasskeyLoginJSONRequestBody
	if !h.DecodeJSON(w, r, &body) {
		return
	}
	cred, err := rawCredential(body.Credential)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	// The assertion is checked first: a failed sign-in leaves the current
	// session as it was.
	token, _, err := h.passkeys.Login(r.Context(), passkey.LoginInput{
		Assertion:  passkey.Assertion{ChallengeID: body.ChallengeId, Credential: cred},
		ClientAddr: h.clientAddr(r), UserAgent: r.UserAgent(),
	})
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.startSession(w, r, token)
}
