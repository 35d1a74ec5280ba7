package httpapi

import (
	"net/http"

	"members/internal/api/passapi"
	"members/internal/coupon"
	"members/internal/pass"
)

// PassHandlers implements passapi.ServerInterface: the unlimited pass
// (catalogue, lottery entry, exchange, the member's passes) and the coupon
// pass (products, prepared ticket, the member's coupons, refund). Purchases
// go through the payment engine's generic buy endpoints.
type PassHandlers struct {
	*Server
	passes  *pass.Service
	coupons *coupon.Service
}

var _ passapi.ServerInterface = (*PassHandlers)(nil)

// NewPassHandlers returns the handlers of the pass API.
func NewPassHandlers(s *Server, passes *pass.Service, coupons *coupon.Service) *PassHandlers {
	return &PassHandlers{Server: s, passes: passes, coupons: coupons}
}

func (h *PassHandlers) GetGogoPassCatalogue(w http.ResponseWriter, r *http.Request) {
	v, err := h.passes.Catalogue(r.Context(), member(r), string(Lang(r)))
	h.reply(w, r, v, err)
}

func (h *PassHandlers) GetGogoPassApplicable(w http.ResponseWriter, r *http.Request) {
	v, err := h.passes.Applicable(r.Context(), member(r), string(Lang(r)))
	h.reply(w, r, v, err)
}

func (h *PassHandlers) ValidateGogoPassEntry(w http.ResponseWriter, r *http.Request) {
	var in pass.Selection
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	v, err := h.passes.ValidateEntry(r.Context(), member(r), string(Lang(r)), in)
	h.reply(w, r, v, err)
}

func (h *PassHandlers) ApplyGogoPassLottery(w http.ResponseWriter, r *http.Request) {
	var in pass.Selection
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	e, err := h.passes.Apply(r.Context(), member(r), string(Lang(r)), in)
	h.reply(w, r, map[string]any{"entry": e}, err)
}

func (h *PassHandlers) ValidateGogoPassExchange(w http.ResponseWriter, r *http.Request) {
	var in pass.ExchangeInput
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	v, err := h.passes.ValidateExchange(r.Context(), member(r), string(Lang(r)), in)
	h.reply(w, r, v, err)
}

func (h *PassHandlers) ExchangeGogoPass(w http.ResponseWriter, r *http.Request) {
	var in pass.ExchangeInput
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	p, err := h.passes.Exchange(r.Context(), member(r), string(Lang(r)), in)
	h.reply(w, r, map[string]any{"purchasedGogoPass": p}, err)
}

func (h *PassHandlers) GetUserGogoPass(w http.ResponseWriter, r *http.Request) {
	ctx, m, lang := r.Context(), member(r), string(Lang(r))
	ps, err := h.passes.Passes(ctx, m, lang)
	if err != nil {
		h.WriteError(w, r, err)
		return
	}
	es, err := h.passes.Entries(ctx, m, lang)
	h.reply(w, r, map[string]any{"gogoPasses": ps, "entries": es}, err)
}

func (h *PassHandlers) GetCouponTickets(w http.ResponseWriter, r *http.Request, p passapi.GetCouponTicketsParams) {
	if p.RequestId != nil {
		t, err := h.coupons.Prepared(r.Context(), member(r), string(Lang(r)), *p.RequestId)
		h.reply(w, r, map[string]any{"couponTicket": t}, err)
		return
	}
	ps, err := h.coupons.Products(r.Context(), string(Lang(r)))
	h.reply(w, r, map[string]any{"couponTickets": ps}, err)
}

func (h *PassHandlers) PrepareCouponTicket(w http.ResponseWriter, r *http.Request) {
	var in coupon.PrepareInput
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	t, err := h.coupons.Prepare(r.Context(), member(r), string(Lang(r)), in)
	h.reply(w, r, map[string]any{"couponTicket": t}, err)
}

func (h *PassHandlers) GetUserCouponTickets(w http.ResponseWriter, r *http.Request) {
	cs, err := h.coupons.Coupons(r.Context(), member(r), string(Lang(r)))
	h.reply(w, r, map[string]any{"couponTickets": cs}, err)
}

func (h *PassHandlers) RefundCouponTicket(w http.ResponseWriter, r *http.Request) {
	var in struct {
		ID string `json:"id"`
	}
	if !h.DecodeJSON(w, r, &in) {
		return
	}
	c, err := h.coupons.Refund(r.Context(), member(r), string(Lang(r)), in.ID)
	h.reply(w, r, map[string]any{"couponTicket": c}, err)
}
