package httpapi

import (
	"net/http"

	"members/internal/api/pointsapi"
	"members/internal/points"
)

// PointHandlers implements pointsapi.ServerInterface: summary, search,
// one voucher, expiring amounts, the wallet timeline, reissue and exchange.
// Every call runs for the session's member; another member's voucher is a 404.
type PointHandlers struct {
	*Server
	svc *points.Service
}

var _ pointsapi.ServerInterface = (*PointHandlers)(nil)

// NewPointHandlers returns the handlers of the points API.
func NewPointHandlers(s *Server, svc *points.Service) *PointHandlers {
	return &PointHandlers{Server: s, svc: svc}
}

func (h *PointHandlers) SearchPeachpoints(w http.ResponseWriter, r *http.Request, p pointsapi.SearchPeachpointsParams) {
	in := points.SearchInput{CurrencyCode: str(p.CurrencyCode), ExpireDate: str(p.ExpireDate), TravelExpireDate: str(p.TravelExpireDate),
		HasBalance: p.HasBalance, IsOnlyActive: p.IsOnlyActive}
	if p.Page != nil {
		in.Page = *p.Page
		if in.Page == 0 {
			in.Page = -1 // given as 0: invalid, not the default
		}
	}
	res, err := h.svc.Search(r.Context(), member(r), Lang(r), in)
	h.reply(w, r, res, err)
}

func (h *PointHandlers) GetPeachpointSummary(w http.ResponseWriter, r *http.Request) {
	res, err := h.svc.Summary(r.Context(), member(r), Lang(r))
	h.reply(w, r, res, err)
}

func (h *PointHandlers) GetPeachpointsExpiredIn(w http.ResponseWriter, r *http.Request, p pointsapi.GetPeachpointsExpiredInParams) {
	res, err := h.svc.ExpiredIn(r.Context(), member(r), Lang(r), str(p.Month), str(p.CurrencyCode))
	h.reply(w, r, res, err)
}

func (h *PointHandlers) GetPeachpointTimeline(w http.ResponseWriter, r *http.Request) {
	res, err := h.svc.Timeline(r.Context(), member(r), Lang(r))
	h.reply(w, r, res, err)
}

func (h *PointHandlers) GetPeachpointSaleOptions(w http.ResponseWriter, r *http.Request) {
	h.WriteJSON(w, http.StatusOK, h.svc.SaleOptions())
}

func (h *PointHandlers) GetPeachpoint(w http.ResponseWriter, r *http.Request, pointNumber string) {
	res, err := h.svc.Get(r.Context(), member(r), pointNumber, Lang(r))
	h.reply(w, r, res, err)
}

func (h *PointHandlers) ValidatePeachpointReissue(w http.ResponseWriter, r *http.Request) {
	var in points.ReissueInput
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	res, err := h.svc.ValidateReissue(r.Context(), member(r), Lang(r), in)
	h.reply(w, r, res, err)
}

func (h *PointHandlers) ReissuePeachpoint(w http.ResponseWriter, r *http.Request) {
	var in points.ReissueInput
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	res, err := h.svc.Reissue(r.Context(), member(r), Lang(r), in)
	h.reply(w, r, res, err)
}

func (h *PointHandlers) ValidatePeachpointExchange(w http.ResponseWriter, r *http.Request) {
	var in points.ExchangeInput
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	res, err := h.svc.ValidateExchange(r.Context(), member(r), in)
	h.reply(w, r, res, err)
}

func (h *PointHandlers) ExchangePeachpoint(w http.ResponseWriter, r *http.Request) {
	var in points.ExchangeInput
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	res, err := h.svc.Exchange(r.Context(), member(r), Lang(r), in)
	h.reply(w, r, res, err)
}
