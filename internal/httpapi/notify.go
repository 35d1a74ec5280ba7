package httpapi

import (
	"net/http"

	"members/internal/api/notifyapi"
	"members/internal/notify"
)

// NotifyHandlers implements notifyapi.ServerInterface: the member's
// notification settings.
type NotifyHandlers struct {
	*Server
	svc *notify.Service
}

var _ notifyapi.ServerInterface = (*NotifyHandlers)(nil)

// NewNotifyHandlers returns the handlers of the notification settings API.
func NewNotifyHandlers(s *Server, svc *notify.Service) *NotifyHandlers {
	return &NotifyHandlers{Server: s, svc: svc}
}

// notificationSettings is the API's view of the settings.
func notificationSettings(st notify.Settings) notifyapi.NotificationSettings {
	return notifyapi.NotificationSettings{
		FlightChanges: st.FlightChanges, PointsReminders: st.PointsReminders, SecurityAlerts: true,
		MailLang: notifyapi.NotificationSettingsMailLang(st.MailLang), MailLangChosen: st.MailLangChosen,
	}
}

func (h *NotifyHandlers) GetNotificationSettings(w http.ResponseWriter, r *http.Request) {
	st, err := h.svc.Get(r.Context(), member(r))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.WriteJSON(w, http.StatusOK, notificationSettings(st))
}

func (h *NotifyHandlers) UpdateNotificationSettings(w http.ResponseWriter, r *http.Request) {
	// Pointers: a missing switch is a field error, not "off".
	var in struct {
		FlightChanges   *bool  `json:"flightChanges"`
		PointsReminders *bool  `json:"pointsReminders"`
		SecurityAlerts  *bool  `json:"securityAlerts"`
		MailLang        string `json:"mailLang"`
	}
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	st, err := h.svc.Update(r.Context(), member(r), notify.Input{
		FlightChanges: in.FlightChanges, PointsReminders: in.PointsReminders, SecurityAlerts: in.SecurityAlerts, MailLang: in.MailLang,
	})
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.WriteJSON(w, http.StatusOK, notificationSettings(st))
}
