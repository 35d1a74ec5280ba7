package catalogue

import (
	"context"
	"fmt"
	"strings"

	"members/internal/coupon"
	"members/internal/i18n"
	"members/internal/pass"
)

// Live is the catalogue as stored: names and descriptions are message
// keys or encoded texts (i18n.Texts), in the order of the pages.
type Live struct {
	Plans    []pass.Plan
	Products []coupon.Product
}

// Holding is what refers to one period: passes bought or exchanged,
// lottery entries, exchange codes issued for it, coupons bought (refunded
// ones too: they are the money records), payments not finished.
type Holding struct {
	Passes, Entries, Codes, Coupons, Payments int
}

// holders is how many hold the period: everything but the exchange codes
// (a code is not a price paid) unless the period is to be removed.
func (h Holding) holders(removal bool) (int, string) {
	var parts []string
	n := 0
	add := func(c int, one, many string) {
		if c == 0 {
			return
		}
		n += c
		w := many
		if c == 1 {
			w = one
		}
		parts = append(parts, fmt.Sprintf("%d %s", c, w))
	}
	add(h.Passes, "pass", "passes")
	add(h.Entries, "lottery entry", "lottery entries")
	add(h.Coupons, "coupon", "coupons")
	add(h.Payments, "payment in progress", "payments in progress")
	if removal {
		add(h.Codes, "exchange code", "exchange codes")
	}
	return n, strings.Join(parts, ", ")
}

// Holdings are the holdings of the periods anything refers to, by id.
type Holdings struct {
	Pass, Coupon map[string]Holding
}

// Writes are what an apply writes: the entries added or changed (a plan
// or product without its periods; a period with its plan or product) and
// the ids removed.
type Writes struct {
	Plans         []PlanRow
	PassPeriods   []PassPeriodRow
	Products      []ProductRow
	CouponPeriods []CouponPeriodRow
	// Removed periods go before their plans and products.
	RemovedPassPeriods, RemovedPlans, RemovedCouponPeriods, RemovedProducts []string
}

// PlanRow is a plan to insert or update (its periods are not read).
type PlanRow struct {
	Plan     pass.Plan
	Position int
}

// PassPeriodRow is a pass period to insert or update.
type PassPeriodRow struct {
	PlanID string
	Period pass.Period
}

// ProductRow is a coupon product to insert or update (its periods are not read).
type ProductRow struct {
	Product  coupon.Product
	Position int
}

// CouponPeriodRow is a coupon period to insert or update.
type CouponPeriodRow struct {
	ProductID string
	Period    coupon.Period
}

// Tx is the catalogue's tables inside one transaction.
type Tx interface {
	Live(ctx context.Context) (Live, error)
	Holdings(ctx context.Context) (Holdings, error)
	Write(ctx context.Context, w Writes) error
}

// Store runs fn in one transaction: all of it is written, or nothing.
type Store interface {
	Update(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
}

// Service applies and exports the catalogue.
type Service struct {
	store Store
	texts func(keyOrTexts string) i18n.Texts
}

// NewService takes the store and the texts of a stored name (a message
// key's translations, or the operator's texts: i18n.Catalog.TextsOf).
func NewService(st Store, texts func(keyOrTexts string) i18n.Texts) *Service {
	return &Service{store: st, texts: texts}
}

// Export returns the live catalogue, every name in every language.
func (s *Service) Export(ctx context.Context) (Catalogue, error) {
	var c Catalogue
	err := s.store.Update(ctx, func(ctx context.Context, tx Tx) error {
		live, err := tx.Live(ctx)
		c = s.resolve(live)
		return err
	})
	if err != nil {
		return Catalogue{}, fmt.Errorf("catalogue export: %w", err)
	}
	return c, nil
}

func (s *Service) resolve(live Live) Catalogue {
	c := Catalogue{Plans: []pass.PlanDef{}, Products: []coupon.ProductDef{}}
	for _, p := range live.Plans {
		c.Plans = append(c.Plans, pass.PlanDef{ID: p.ID, Name: s.texts(p.Name), NameAlt: s.texts(p.NameAlt), Periods: p.Periods})
	}
	for _, p := range live.Products {
		d := coupon.ProductDef{ID: p.ID, Name: s.texts(p.Name), Description: s.texts(p.Description), International: p.International}
		for _, pe := range p.Periods {
			d.Periods = append(d.Periods, coupon.PeriodDef{ID: pe.ID, Description: s.texts(pe.Description),
				AvailablePeriodToBoard: pe.AvailablePeriodToBoard, AvailablePeriodToBook: pe.AvailablePeriodToBook, Plan: pe.Plan})
		}
		c.Products = append(c.Products, d)
	}
	return c
}

// Apply makes the live catalogue the file's, in one transaction, and
// returns the changes (dryRun: only returns them). A period anything
// holds is neither removed, repriced nor moved to another plan or
// product: the whole apply is refused (*Errors) with the holders' number.
func (s *Service) Apply(ctx context.Context, f *File, dryRun bool) ([]Change, error) {
	var changes []Change
	err := s.store.Update(ctx, func(ctx context.Context, tx Tx) error {
		live, err := tx.Live(ctx)
		if err != nil {
			return err
		}
		changes = Diff(s.resolve(live), f.Catalogue)
		if len(changes) == 0 {
			return nil
		}
		held, err := tx.Holdings(ctx)
		if err != nil {
			return err
		}
		if errs := s.checkHeld(f, live, held); errs != nil {
			return errs
		}
		if dryRun {
			return nil
		}
		return tx.Write(ctx, s.writes(live, f.Catalogue, changes))
	})
	if err != nil {
		return nil, err
	}
	return changes, nil
}

// checkHeld refuses removing, repricing or moving a held period.
func (s *Service) checkHeld(f *File, live Live, held Holdings) *Errors {
	var issues []Issue
	refuse := func(path, entity, id, parent string, h Holding, removal bool, what string) {
		n, detail := h.holders(removal)
		if n == 0 {
			return
		}
		is := Issue{Message: fmt.Sprintf("%s %s cannot be %s: held by %d (%s)", entity, id, what, n, detail)}
		if path != "" {
			is.Line, is.Field = f.Line(path), path
		} else {
			is.Message = fmt.Sprintf("%s %s of %s cannot be %s: held by %d (%s)", entity, id, parent, what, n, detail)
		}
		issues = append(issues, is)
	}
	nextPass := map[string]struct {
		plan, path string
		pe         pass.Period
	}{}
	for i, p := range f.Catalogue.Plans {
		for j, pe := range p.Periods {
			nextPass[pe.ID] = struct {
				plan, path string
				pe         pass.Period
			}{p.ID, fmt.Sprintf("%s[%d].periods[%d]", fieldPlans, i, j), pe}
		}
	}
	for _, p := range live.Plans {
		for _, pe := range p.Periods {
			n, ok := nextPass[pe.ID]
			switch {
			case !ok:
				refuse("", PassPeriod, pe.ID, "plan "+p.ID, held.Pass[pe.ID], true, "removed")
			case n.plan != p.ID:
				refuse(n.path+".id", PassPeriod, pe.ID, "", held.Pass[pe.ID], false, "moved to another plan")
			case pass.Repriced(pe, n.pe):
				refuse(n.path+".price", PassPeriod, pe.ID, "", held.Pass[pe.ID], false, "repriced")
			}
		}
	}
	nextCoupon := map[string]struct {
		product, path string
		pe            coupon.PeriodDef
	}{}
	for i, p := range f.Catalogue.Products {
		for j, pe := range p.Periods {
			nextCoupon[pe.ID] = struct {
				product, path string
				pe            coupon.PeriodDef
			}{p.ID, fmt.Sprintf("%s[%d].periods[%d]", fieldProducts, i, j), pe}
		}
	}
	for _, p := range live.Products {
		for _, pe := range p.Periods {
			n, ok := nextCoupon[pe.ID]
			switch {
			case !ok:
				refuse("", CouponPeriod, pe.ID, "product "+p.ID, held.Coupon[pe.ID], true, "removed")
			case n.product != p.ID:
				refuse(n.path+".id", CouponPeriod, pe.ID, "", held.Coupon[pe.ID], false, "moved to another product")
			case coupon.Repriced(pe.Plan, n.pe.Plan):
				refuse(n.path+".plan", CouponPeriod, pe.ID, "", held.Coupon[pe.ID], false, "repriced")
			}
		}
	}
	if len(issues) == 0 {
		return nil
	}
	return &Errors{Name: f.Name, Issues: issues}
}

// writes turns the changes into rows. A name or description whose texts
// did not change keeps its stored form (a message key stays a key).
func (s *Service) writes(live Live, next Catalogue, changes []Change) Writes {
	touched := map[key]bool{}
	var w Writes
	for _, c := range changes {
		touched[key{c.Entity, c.ID}] = true
		if c.Kind != Removed {
			continue
		}
		switch c.Entity {
		case PassPeriod:
			w.RemovedPassPeriods = append(w.RemovedPassPeriods, c.ID)
		case PassPlan:
			w.RemovedPlans = append(w.RemovedPlans, c.ID)
		case CouponPeriod:
			w.RemovedCouponPeriods = append(w.RemovedCouponPeriods, c.ID)
		case CouponProduct:
			w.RemovedProducts = append(w.RemovedProducts, c.ID)
		}
	}
	stored := map[string]string{} // what each live text field holds, by entity id and field
	for _, p := range live.Plans {
		stored[PassPlan+p.ID+"name"], stored[PassPlan+p.ID+"nameAlt"] = p.Name, p.NameAlt
	}
	for _, p := range live.Products {
		stored[CouponProduct+p.ID+"name"], stored[CouponProduct+p.ID+"description"] = p.Name, p.Description
		for _, pe := range p.Periods {
			stored[CouponPeriod+pe.ID+"description"] = pe.Description
		}
	}
	keep := func(k string, t i18n.Texts) string {
		if old, ok := stored[k]; ok && s.texts(old).Equal(t) {
			return old
		}
		return t.Encode()
	}
	for i, p := range next.Plans {
		if touched[key{PassPlan, p.ID}] {
			w.Plans = append(w.Plans, PlanRow{Position: i, Plan: pass.Plan{ID: p.ID,
				Name: keep(PassPlan+p.ID+"name", p.Name), NameAlt: keep(PassPlan+p.ID+"nameAlt", p.NameAlt)}})
		}
		for _, pe := range p.Periods {
			if touched[key{PassPeriod, pe.ID}] {
				w.PassPeriods = append(w.PassPeriods, PassPeriodRow{PlanID: p.ID, Period: pe})
			}
		}
	}
	for i, p := range next.Products {
		if touched[key{CouponProduct, p.ID}] {
			w.Products = append(w.Products, ProductRow{Position: i, Product: coupon.Product{ID: p.ID,
				Name: keep(CouponProduct+p.ID+"name", p.Name), Description: keep(CouponProduct+p.ID+"description", p.Description),
				International: p.International}})
		}
		for _, pe := range p.Periods {
			if touched[key{CouponPeriod, pe.ID}] {
				w.CouponPeriods = append(w.CouponPeriods, CouponPeriodRow{ProductID: p.ID, Period: coupon.Period{ID: pe.ID,
					Description: keep(CouponPeriod+pe.ID+"description", pe.Description), AvailablePeriodToBoard: pe.AvailablePeriodToBoard,
					AvailablePeriodToBook: pe.AvailablePeriodToBook, Plan: pe.Plan}})
			}
		}
	}
	return w
}
