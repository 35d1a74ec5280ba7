package pass

import (
	"context"
	"fmt"

	"members/internal/apperr"
	"members/internal/validate"
)

// plans returns the plans with their names in lang and only the periods
// still on sale today.
func (s *Service) plans(ctx context.Context, lang string, keep func(Period) bool) ([]Plan, error) {
	all, err := s.d.Store.Plans(ctx)
	if err != nil {
		return nil, fmt.Errorf("pass plans: %w", err)
	}
	today := TodayJST(s.d.Now())
	for i := range all {
		all[i].Name, all[i].NameAlt = s.d.Translate(lang, all[i].Name), s.d.Translate(lang, all[i].NameAlt)
	}
	return KeepPeriods(all, func(p *Plan) *[]Period { return &p.Periods }, func(pe *Period) bool {
		return pe.OnSale(today) && (keep == nil || keep(*pe))
	}), nil
}

// KeepPeriods is the catalogue filter of the pass and the coupon pass: each
// item keeps only the periods keep accepts (keep may change a period, to
// word it), and an item left without periods is dropped.
func KeepPeriods[I, P any](items []I, periods func(*I) *[]P, keep func(*P) bool) []I {
	out := []I{}
	for _, it := range items {
		ps := periods(&it)
		kept := []P{}
		for _, pe := range *ps {
			if keep(&pe) {
				kept = append(kept, pe)
			}
		}
		if len(kept) > 0 {
			*ps = kept
			out = append(out, it)
		}
	}
	return out
}

// Catalogue is the purchase page: the plans on sale and what the member
// may do now.
type Catalogue struct {
	GogoPasses []Plan `json:"gogoPasses"`
	// Purchasable is true when the member may buy now (sale open, or a
	// lottery winner inside the buying window, and no maintenance).
	Purchasable bool `json:"purchasable"`
	Maintenance bool `json:"maintenance"`
	// Wins are the member's winning entries still inside the buying window.
	Wins []Entry `json:"wins"`
}

// Catalogue lists the plans on sale. Not found unless the pass is public.
func (s *Service) Catalogue(ctx context.Context, memberID, lang string) (Catalogue, error) {
	st, err := s.public(ctx)
	if err != nil {
		return Catalogue{}, err
	}
	plans, err := s.plans(ctx, lang, nil)
	if err != nil {
		return Catalogue{}, err
	}
	wins, err := s.wins(ctx, memberID, lang)
	if err != nil {
		return Catalogue{}, err
	}
	c := Catalogue{GogoPasses: plans, Maintenance: st.IsGogoPassMaintenance, Wins: wins}
	c.Purchasable = !c.Maintenance && st.IsGogoPassPurchasable && (!st.IsGogoPassLotteryPhase || len(wins) > 0)
	return c, nil
}

// wins are the member's won entries whose buying window is still open.
func (s *Service) wins(ctx context.Context, memberID, lang string) ([]Entry, error) {
	entries, err := s.entries(ctx, memberID, lang)
	if err != nil {
		return nil, err
	}
	now := s.d.Now()
	out := []Entry{}
	for _, e := range entries {
		if e.Result == ResultWon && e.BuyUntil != nil && now.Before(*e.BuyUntil) {
			out = append(out, e)
		}
	}
	return out, nil
}

// Passes returns the member's passes (always readable, whatever the flags).
func (s *Service) Passes(ctx context.Context, memberID, lang string) ([]Pass, error) {
	ps, err := s.d.Store.Passes(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("passes: %w", err)
	}
	for i := range ps {
		ps[i].Name, ps[i].NameAlt = s.d.Translate(lang, ps[i].Name), s.d.Translate(lang, ps[i].NameAlt)
	}
	return ps, nil
}

// Selection is a plan, period and fare type chosen by the member (entry
// and purchase bodies).
type Selection struct {
	PlanID   string `json:"planId"`
	PeriodID string `json:"periodId"`
	FareType string `json:"fareType"`
}

// resolve checks a selection against the plans on sale (keep narrows the
// periods) and returns the plan and period. Field errors are 400.
func (s *Service) resolve(ctx context.Context, lang string, in Selection, keep func(Period) bool) (Plan, Period, error) {
	f := validate.Errors{}
	f.Required("planId", in.PlanID)
	f.Required("periodId", in.PeriodID)
	if f.Required("fareType", in.FareType) {
		f.Check("fareType", ValidFare(in.FareType), "pass.validation.choice")
	}
	if !f.Empty() {
		return Plan{}, Period{}, apperr.FromFields(f)
	}
	plans, err := s.plans(ctx, lang, keep)
	if err != nil {
		return Plan{}, Period{}, err
	}
	for _, p := range plans {
		if p.ID != in.PlanID {
			continue
		}
		for _, pe := range p.Periods {
			if pe.ID == in.PeriodID {
				return p, pe, nil
			}
		}
		f.Add("periodId", "pass.validation.choice")
		return Plan{}, Period{}, apperr.FromFields(f)
	}
	f.Add("planId", "pass.validation.choice")
	return Plan{}, Period{}, apperr.FromFields(f)
}
