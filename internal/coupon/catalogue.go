package coupon

import (
	"fmt"

	"members/internal/i18n"
	"members/internal/pass"
)

// ProductDef is a coupon pass product as the operator defines it (members
// catalogue apply): its name and description in every language, whether
// its trips cross a border, and its periods. Its position in the
// catalogue is its place in the list.
type ProductDef struct {
	ID            string
	Name          i18n.Texts
	Description   i18n.Texts
	International bool
	Periods       []PeriodDef
}

// PeriodDef is one period of a product: its description in every
// language, its windows and its lite and standard plans.
type PeriodDef struct {
	ID                     string
	Description            i18n.Texts
	AvailablePeriodToBoard pass.Range
	AvailablePeriodToBook  pass.Range
	Plan                   Plans
}

// CheckProducts checks the coupon pass products of a catalogue: ids
// unique among products and among all their periods, the texts in every
// language, at least one period each, the windows (the unlimited pass's
// rules) and, for both plans, a positive number of days after first use,
// of uses and price per person, in yen (the refund fee is in yen).
func CheckProducts(products []ProductDef) []pass.Problem {
	var ps pass.Problems
	productIDs, periodIDs := map[string]string{}, map[string]string{}
	for i, p := range products {
		f := fmt.Sprintf("[%d]", i)
		pass.CheckID(&ps, f+".id", p.ID)
		pass.Unique(&ps, productIDs, f+".id", p.ID)
		pass.CheckTexts(&ps, f+".name", p.Name)
		pass.CheckTexts(&ps, f+".description", p.Description)
		if len(p.Periods) == 0 {
			ps.Add(f+".periods", "must list at least one period")
		}
		for j, pe := range p.Periods {
			pf := fmt.Sprintf("%s.periods[%d]", f, j)
			pass.CheckID(&ps, pf+".id", pe.ID)
			pass.Unique(&ps, periodIDs, pf+".id", pe.ID)
			pass.CheckTexts(&ps, pf+".description", pe.Description)
			pass.CheckWindows(&ps, pf, pe.AvailablePeriodToBoard, pe.AvailablePeriodToBook)
			for _, name := range []string{PlanLite, PlanStandard} {
				pl, lf := pe.Plan.Of(name), pf+".plan."+name
				pass.CheckPositive(&ps, lf+".availableDaysAfterFirstUse", int64(pl.AvailableDaysAfterFirstUse))
				pass.CheckPositive(&ps, lf+".availableNumberOfUse", int64(pl.AvailableNumberOfUse))
				if pl.CurrencyCode != Currency {
					ps.Add(lf+".currencyCode", "must be %s (coupon passes are sold in yen)", Currency)
				}
				pass.CheckPositive(&ps, lf+".pricePerPerson", pl.PricePerPerson)
			}
		}
	}
	return ps.List()
}

// Repriced reports whether a period's new plans change what its holders
// paid or are paying: a plan's currency or price per person.
func Repriced(old, next Plans) bool {
	return old.Lite.CurrencyCode != next.Lite.CurrencyCode || old.Lite.PricePerPerson != next.Lite.PricePerPerson ||
		old.Standard.CurrencyCode != next.Standard.CurrencyCode || old.Standard.PricePerPerson != next.Standard.PricePerPerson
}
