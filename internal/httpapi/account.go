package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"

	"members/internal/account"
	"members/internal/account/postal"
	"members/internal/api/accountapi"
	"members/internal/apperr"
)

// accountHandlers implements accountapi.ServerInterface: the profile,
// password change and reset, saved passengers, postal codes and the mail
// domain suggestions.
type accountHandlers struct {
	*Server
	svc    *account.Service
	postal *postal.Table
}

var _ accountapi.ServerInterface = (*accountHandlers)(nil)

// AccountHandlers returns the account API handlers for a feature mount.
func AccountHandlers(s *Server, svc *account.Service, table *postal.Table) accountapi.ServerInterface {
	return &accountHandlers{Server: s, svc: svc, postal: table}
}

// AccountAnonymous are the account calls that work without a session.
var AccountAnonymous = []string{
	"POST /api/user/reset_password", "PUT /api/user/reset_password", "POST /api/user/reset_password/validate",
	"POST /api/email_change/confirm", "POST /api/email_change/undo",
}

type userSaved struct {
	User        account.Profile       `json:"user"`
	MailSent    bool                  `json:"mailSent"`
	EmailChange *account.PendingEmail `json:"emailChange,omitempty"`
}

type mailResult struct {
	MailSent bool `json:"mailSent"`
}

type passengerSaved struct {
	Passenger account.Passenger `json:"passenger"`
	MailSent  bool              `json:"mailSent"`
}

func (h *accountHandlers) GetUser(w http.ResponseWriter, r *http.Request, _ accountapi.GetUserParams) {
	p, err := h.svc.Profile(r.Context(), member(r), Lang(r))
	h.reply(w, r, p, err)
}

func (h *accountHandlers) UpdateUser(w http.ResponseWriter, r *http.Request) {
	var in account.ProfileInput
	if !h.decodeDocument(w, r, profileReadOnly, &in) {
		return
	}
	saved, err := h.svc.UpdateProfile(r.Context(), member(r), in, Lang(r))
	h.reply(w, r, userSaved{User: saved.Profile, MailSent: saved.MailSent, EmailChange: saved.EmailChange}, err)
}

func (h *accountHandlers) RegisterOnlineShop(w http.ResponseWriter, r *http.Request) {
	status, err := h.svc.RegisterOnlineShop(r.Context(), member(r))
	h.reply(w, r, map[string]string{"onlineShopAccountStatus": status}, err)
}

func (h *accountHandlers) ChangePassword(w http.ResponseWriter, r *http.Request) {
	var in account.PasswordChange
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	sess := session(r)
	sent, err := h.svc.ChangePassword(r.Context(), sess, in, Lang(r))
	h.reply(w, r, mailResult{MailSent: sent}, err)
}

func (h *accountHandlers) ListPassengers(w http.ResponseWriter, r *http.Request) {
	list, err := h.svc.Passengers(r.Context(), member(r), Lang(r))
	h.reply(w, r, map[string]any{"passengers": list}, err)
}

func (h *accountHandlers) AddPassenger(w http.ResponseWriter, r *http.Request) {
	var in account.PassengerInput
	if !h.decodeDocument(w, r, passengerReadOnly, &in) {
		return
	}
	p, sent, err := h.svc.AddPassenger(r.Context(), member(r), in, Lang(r))
	h.reply(w, r, passengerSaved{Passenger: p, MailSent: sent}, err)
}

func (h *accountHandlers) GetPassenger(w http.ResponseWriter, r *http.Request, id string) {
	p, err := h.svc.Passenger(r.Context(), member(r), id, Lang(r))
	h.reply(w, r, p, err)
}

func (h *accountHandlers) UpdatePassenger(w http.ResponseWriter, r *http.Request, id string) {
	var in account.PassengerInput
	if !h.decodeDocument(w, r, passengerReadOnly, &in) {
		return
	}
	p, sent, err := h.svc.UpdatePassenger(r.Context(), member(r), id, in, Lang(r))
	h.reply(w, r, passengerSaved{Passenger: p, MailSent: sent}, err)
}

func (h *accountHandlers) DeletePassenger(w http.ResponseWriter, r *http.Request, id string) {
	sent, err := h.svc.DeletePassenger(r.Context(), member(r), id, Lang(r))
	h.reply(w, r, mailResult{MailSent: sent}, err)
}

func (h *accountHandlers) RequestPasswordReset(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Email string `json:"email"`
	}
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	if err := h.svc.RequestReset(r.Context(), in.Email, h.clientAddr(r), Lang(r)); err != nil {
		h.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *accountHandlers) ValidatePasswordReset(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Token string `json:"token"`
	}
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	if err := h.svc.ValidateReset(r.Context(), in.Token); err != nil {
		h.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *accountHandlers) ResetPassword(w http.ResponseWriter, r *http.Request) {
	var in account.ResetInput
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	sent, err := h.svc.ResetPassword(r.Context(), in, Lang(r))
	h.reply(w, r, mailResult{MailSent: sent}, err)
}

func (h *accountHandlers) LookupPostalCode(w http.ResponseWriter, r *http.Request, p accountapi.LookupPostalCodeParams) {
	a, ok, err := h.postal.Lookup(p.Country, p.Zip)
	if err != nil {
		h.WriteError(w, r, err)
		return
	}
	if !ok {
		h.WriteError(w, r, apperr.New(apperr.NotFound, "account.postal_not_found"))
		return
	}
	h.WriteJSON(w, http.StatusOK, a.In(string(Lang(r))))
}

func (h *accountHandlers) GetMailSuggests(w http.ResponseWriter, r *http.Request, p accountapi.GetMailSuggestsParams) {
	email := ""
	if p.Email != nil {
		email = *p.Email
	}
	h.WriteJSON(w, http.StatusOK, account.SuggestMail(email))
}

// The e-mail change: the pending change of the account page, its
// cancellation, and the two links mailed to the new and the old address
// (they work without a session: the token is the proof).

type emailChangeState struct {
	Pending *account.PendingEmail `json:"pending"`
}

type emailChangeDone struct {
	Email string `json:"email"`
}

type linkToken struct {
	Token string `json:"token"`
}

func (h *accountHandlers) GetEmailChange(w http.ResponseWriter, r *http.Request) {
	p, err := h.svc.PendingEmailChange(r.Context(), member(r))
	h.reply(w, r, emailChangeState{Pending: p}, err)
}

func (h *accountHandlers) CancelEmailChange(w http.ResponseWriter, r *http.Request) {
	if err := h.svc.CancelEmailChange(r.Context(), member(r)); err != nil {
		h.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *accountHandlers) ConfirmEmailChange(w http.ResponseWriter, r *http.Request) {
	var in linkToken
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	email, err := h.svc.ConfirmEmailChange(r.Context(), in.Token)
	h.reply(w, r, emailChangeDone{Email: email}, err)
}

func (h *accountHandlers) UndoEmailChange(w http.ResponseWriter, r *http.Request) {
	var in linkToken
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	email, err := h.svc.UndoEmailChange(r.Context(), in.Token)
	if err != nil {
		h.WriteError(w, r, err)
		return
	}
	// Every session of the member ended, this browser's too.
	h.setCookie(w, r, SessionCookie, "", -1)
	h.WriteJSON(w, http.StatusOK, emailChangeDone{Email: email})
}

// readOnlyFields are the fields of a GET document that its PUT does not
// change (profileId, memberships, flags, country names, a passenger's
// id…): the JSON fields of doc that input does not have.
func readOnlyFields(doc, input reflect.Type) map[string]bool {
	tags := func(t reflect.Type) map[string]bool {
		out := map[string]bool{}
		for _, f := range reflect.VisibleFields(t) {
			if f.Anonymous {
				continue
			}
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
				out[name] = true
			}
		}
		return out
	}
	ro := tags(doc)
	for name := range tags(input) {
		delete(ro, name)
	}
	return ro
}

var (
	profileReadOnly   = readOnlyFields(reflect.TypeFor[account.Profile](), reflect.TypeFor[account.ProfileInput]())
	passengerReadOnly = readOnlyFields(reflect.TypeFor[account.Passenger](), reflect.TypeFor[account.PassengerInput]())
)

// decodeDocument reads a PUT (or POST) body that may be the document the
// matching GET returns: its read-only fields are ignored; any other
// unknown field, or one of the wrong type, is refused by name.
func (h *accountHandlers) decodeDocument(w http.ResponseWriter, r *http.Request, readOnly map[string]bool, in any) bool {
	var doc map[string]json.RawMessage
	if !h.DecodeJSON(w, r, &doc) {
		return false
	}
	if doc == nil {
		h.writeMessage(w, r, http.StatusBadRequest, "error.bad_request")
		return false
	}
	for name := range doc {
		if readOnly[name] {
			delete(doc, name)
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		h.writeMessage(w, r, http.StatusBadRequest, "error.bad_request")
		return false
	}
	return h.decodeStrict(w, r, bytes.NewReader(b), in)
}
