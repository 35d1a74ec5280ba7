package httpapi

import (
	"fmt"
	"net/http"
	"strconv"

	"members/internal/api/securityapi"
	"members/internal/apperr"
	"members/internal/calendar"
	"members/internal/privacy"
	"members/internal/security"
)

// SecurityHandlers implements securityapi.ServerInterface: the calendar
// (booking .ics files, the private subscription), and the member's own
// security and data pages. Every call but the feed runs for the session's
// member; the feed is opened by its secret token alone.
type SecurityHandlers struct {
	*Server
	calendar *calendar.Service
	privacy  *privacy.Service
	centre   *security.Service
}

var _ securityapi.ServerInterface = (*SecurityHandlers)(nil)

// SecurityAnonymous are the calls of the security API that work without a
// session: the subscription feed (calendar apps have no cookie).
var SecurityAnonymous = []string{"GET " + calendar.FeedPath}

// NewSecurityHandlers returns the handlers of the security API.
func NewSecurityHandlers(s *Server, cal *calendar.Service, priv *privacy.Service, centre *security.Service) *SecurityHandlers {
	return &SecurityHandlers{Server: s, calendar: cal, privacy: priv, centre: centre}
}

// ics writes an iCalendar document; attachment names the download.
func (h *SecurityHandlers) ics(w http.ResponseWriter, r *http.Request, body, attachment string, err error) {
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	if attachment != "" {
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", attachment))
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Header().Set("Cache-Control", "private, no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(body)) // #nosec G705 -- an iCalendar file the server wrote, served as text/calendar with nosniff
}

func (h *SecurityHandlers) GetReservationCalendar(w http.ResponseWriter, r *http.Request, pnr string) {
	f, err := h.calendar.Booking(r.Context(), member(r), pnr, Lang(r))
	h.ics(w, r, f.Body, f.Name, err)
}

func (h *SecurityHandlers) GetCalendarSubscription(w http.ResponseWriter, r *http.Request) {
	res, err := h.calendar.Status(r.Context(), member(r))
	h.reply(w, r, res, err)
}

func (h *SecurityHandlers) RenewCalendarSubscription(w http.ResponseWriter, r *http.Request) {
	res, err := h.calendar.Renew(r.Context(), member(r), Lang(r))
	h.reply(w, r, res, err)
}

func (h *SecurityHandlers) DeleteCalendarSubscription(w http.ResponseWriter, r *http.Request) {
	if err := h.calendar.Stop(r.Context(), member(r)); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *SecurityHandlers) GetCalendarFeed(w http.ResponseWriter, r *http.Request, p securityapi.GetCalendarFeedParams) {
	body, err := h.calendar.Subscription(r.Context(), p.Token, Lang(r))
	h.ics(w, r, body, "", err)
}

func (h *SecurityHandlers) ExportMyData(w http.ResponseWriter, r *http.Request) {
	res, err := h.privacy.Export(r.Context(), member(r))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.centre.Changed(r.Context(), member(r), security.KindDataExported, "")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", res.FileName()))
	h.WriteJSON(w, http.StatusOK, res)
}

func (h *SecurityHandlers) RequestAccountDeletion(w http.ResponseWriter, r *http.Request) {
	var body privacy.DeletionRequest
	if !h.DecodeJSON(w, r, &body) {
		return
	}
	res, err := h.privacy.RequestDeletion(r.Context(), member(r), body, Lang(r))
	h.reply(w, r, res, err)
}

func (h *SecurityHandlers) ValidateAccountDeletion(w http.ResponseWriter, r *http.Request) {
	var body securityapi.DeletionToken
	if !h.DecodeJSON(w, r, &body) {
		return
	}
	h.noContent(w, r, h.privacy.ValidateDeletion(r.Context(), member(r), body.Token))
}

func (h *SecurityHandlers) GetAccountDeletionLosses(w http.ResponseWriter, r *http.Request) {
	res, err := h.privacy.Losses(r.Context(), member(r), Lang(r))
	h.reply(w, r, res, err)
}

func (h *SecurityHandlers) ConfirmAccountDeletion(w http.ResponseWriter, r *http.Request) {
	var body privacy.Confirmation
	if !h.DecodeJSON(w, r, &body) {
		return
	}
	if len(body.Acknowledged) > 200 {
		h.writeError(w, r, apperr.New(apperr.Invalid, "error.bad_request"))
		return
	}
	if err := h.privacy.Delete(r.Context(), member(r), body, Lang(r)); err != nil {
		h.writeError(w, r, err)
		return
	}
	// The session row is gone; the cookie goes too.
	h.setCookie(w, r, SessionCookie, "", -1)
	w.WriteHeader(http.StatusNoContent)
}

func (h *SecurityHandlers) noContent(w http.ResponseWriter, r *http.Request, err error) {
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *SecurityHandlers) ListSecuritySessions(w http.ResponseWriter, r *http.Request) {
	sess := session(r)
	list, err := h.centre.Sessions(r.Context(), sess)
	h.reply(w, r, map[string]any{"sessions": list}, err)
}

func (h *SecurityHandlers) EndOtherSecuritySessions(w http.ResponseWriter, r *http.Request) {
	sess := session(r)
	h.noContent(w, r, h.centre.EndOthers(r.Context(), sess))
}

func (h *SecurityHandlers) EndSecuritySession(w http.ResponseWriter, r *http.Request, id string) {
	sess := session(r)
	h.noContent(w, r, h.centre.EndSession(r.Context(), sess, id))
}

func (h *SecurityHandlers) ListSecurityEvents(w http.ResponseWriter, r *http.Request) {
	list, err := h.centre.Events(r.Context(), member(r))
	h.reply(w, r, map[string]any{"events": list}, err)
}
