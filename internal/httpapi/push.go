package httpapi

import (
	"net/http"

	"members/internal/api/pushapi"
	"members/internal/push"
	"members/internal/security"
)

// PushHandlers implements pushapi.ServerInterface: the flight change
// alerts switched on and off per device (Web Push), for the session's
// member.
type PushHandlers struct {
	*Server
	svc *push.Service
}

var _ pushapi.ServerInterface = (*PushHandlers)(nil)

// NewPushHandlers returns the handlers of the Web Push API.
func NewPushHandlers(s *Server, svc *push.Service) *PushHandlers {
	return &PushHandlers{Server: s, svc: svc}
}

func pushDevice(d push.Device) pushapi.PushDevice {
	dev := security.ParseDevice(d.UserAgent)
	out := pushapi.PushDevice{Id: d.ID, Current: d.Current, SwitchedOnAt: d.CreatedAt,
		Device: pushapi.SecurityDevice{Browser: dev.Browser, Os: dev.OS, Kind: pushapi.SecurityDeviceKind(dev.Kind)}}
	if !d.LastPushAt.IsZero() {
		at := d.LastPushAt
		out.LastPushAt = &at
	}
	return out
}

func (h *PushHandlers) GetPushVapidKey(w http.ResponseWriter, r *http.Request) {
	key, err := h.svc.PublicKey()
	h.reply(w, r, pushapi.PushVapidKey{PublicKey: key}, err)
}

func (h *PushHandlers) PutPushSubscription(w http.ResponseWriter, r *http.Request, p pushapi.PutPushSubscriptionParams) {
	var in pushapi.PushSubscriptionInput
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	d, err := h.svc.Subscribe(r.Context(), session(r), push.Input{Endpoint: in.Endpoint, P256dh: in.Keys.P256dh, Auth: in.Keys.Auth},
		p.Renew != nil && *p.Renew)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.WriteJSON(w, http.StatusOK, pushDevice(d))
}

func (h *PushHandlers) DeletePushSubscription(w http.ResponseWriter, r *http.Request) {
	var in pushapi.PushSubscriptionEndpoint
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	if err := h.svc.Unsubscribe(r.Context(), member(r), in.Endpoint); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *PushHandlers) ListPushDevices(w http.ResponseWriter, r *http.Request) {
	list, err := h.svc.Devices(r.Context(), session(r))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	out := pushapi.PushDeviceList{Devices: make([]pushapi.PushDevice, 0, len(list))}
	for _, d := range list {
		out.Devices = append(out.Devices, pushDevice(d))
	}
	h.WriteJSON(w, http.StatusOK, out)
}

func (h *PushHandlers) DeletePushDevice(w http.ResponseWriter, r *http.Request, id string) {
	if err := h.svc.RemoveDevice(r.Context(), member(r), id); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
