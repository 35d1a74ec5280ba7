package catalogue

import (
	"fmt"
	"strconv"

	"members/internal/coupon"
	"members/internal/i18n"
	"members/internal/pass"
)

// What a change is about.
const (
	PassPlan      = "pass plan"
	PassPeriod    = "pass period"
	CouponProduct = "coupon product"
	CouponPeriod  = "coupon period"
)

// How an entry changes.
const (
	Added   = "added"
	Changed = "changed"
	Removed = "removed"
)

// Change is one difference between the live catalogue and a file: an
// entry added or removed, or one field of an entry changed from Old to New.
type Change struct {
	Kind   string // Added, Changed, Removed
	Entity string // PassPlan, PassPeriod, CouponProduct, CouponPeriod
	ID     string
	// Parent is the plan or product of a period.
	Parent   string
	Field    string
	Old, New string
	// path is the entry's place in the file (none for a removed one).
	path string
}

func (c Change) String() string {
	what := c.Entity + " " + c.ID
	if c.Parent != "" && c.Kind != Changed {
		parent := "plan"
		if c.Entity == CouponPeriod {
			parent = "product"
		}
		what += " (" + parent + " " + c.Parent + ")"
	}
	if c.Kind == Changed {
		return fmt.Sprintf("%-7s %s: %s %s → %s", c.Kind, what, c.Field, c.Old, c.New)
	}
	return fmt.Sprintf("%-7s %s", c.Kind, what)
}

// entry is a catalogue entry flattened to its fields, in the file's names.
type entry struct {
	entity, id, parent, path string
	fields                   []field
}

type field struct{ name, value string }

func (e *entry) add(name, value string) { e.fields = append(e.fields, field{name, value}) }

func (e *entry) texts(name string, t i18n.Texts) {
	for _, l := range i18n.Langs {
		e.add(name+"."+string(l), strconv.Quote(t[l]))
	}
}

func (e *entry) window(name string, r pass.Range) {
	e.add(name+".begin", r.Begin)
	e.add(name+".end", r.End)
}

func n64(n int64) string { return strconv.FormatInt(n, 10) }

// entries flattens a catalogue: each plan then its periods, each product
// then its periods.
func entries(c Catalogue) []entry {
	var out []entry
	for i, p := range c.Plans {
		path := fmt.Sprintf("%s[%d]", fieldPlans, i)
		e := entry{entity: PassPlan, id: p.ID, path: path}
		e.texts("name", p.Name)
		e.texts("nameAlt", p.NameAlt)
		e.add("position", strconv.Itoa(i))
		out = append(out, e)
		for j, pe := range p.Periods {
			e := entry{entity: PassPeriod, id: pe.ID, parent: p.ID, path: fmt.Sprintf("%s.periods[%d]", path, j)}
			e.add("plan", p.ID)
			e.window("availablePeriodToBoard", pe.AvailablePeriodToBoard)
			e.window("availablePeriodToBook", pe.AvailablePeriodToBook)
			e.add("currencyCode", pe.CurrencyCode)
			e.add("price.happy", n64(pe.Price.Happy))
			e.add("price.happlus", n64(pe.Price.Happlus))
			e.add("lotteryQuota", strconv.Itoa(pe.LotteryQuota))
			out = append(out, e)
		}
	}
	for i, p := range c.Products {
		path := fmt.Sprintf("%s[%d]", fieldProducts, i)
		e := entry{entity: CouponProduct, id: p.ID, path: path}
		e.texts("name", p.Name)
		e.texts("description", p.Description)
		e.add("international", strconv.FormatBool(p.International))
		e.add("position", strconv.Itoa(i))
		out = append(out, e)
		for j, pe := range p.Periods {
			e := entry{entity: CouponPeriod, id: pe.ID, parent: p.ID, path: fmt.Sprintf("%s.periods[%d]", path, j)}
			e.add("product", p.ID)
			e.texts("description", pe.Description)
			e.window("availablePeriodToBoard", pe.AvailablePeriodToBoard)
			e.window("availablePeriodToBook", pe.AvailablePeriodToBook)
			for _, name := range []string{coupon.PlanLite, coupon.PlanStandard} {
				pl := pe.Plan.Of(name)
				e.add("plan."+name+".availableDaysAfterFirstUse", strconv.Itoa(pl.AvailableDaysAfterFirstUse))
				e.add("plan."+name+".availableNumberOfUse", strconv.Itoa(pl.AvailableNumberOfUse))
				e.add("plan."+name+".currencyCode", pl.CurrencyCode)
				e.add("plan."+name+".pricePerPerson", n64(pl.PricePerPerson))
			}
			out = append(out, e)
		}
	}
	return out
}

type key struct{ entity, id string }

// Diff lists what applying next would change in live: the entries of
// next in its order (added, or each changed field), then the entries
// live has and next does not (removed).
func Diff(live, next Catalogue) []Change {
	old := map[key]entry{}
	liveEntries := entries(live)
	for _, e := range liveEntries {
		old[key{e.entity, e.id}] = e
	}
	var out []Change
	seen := map[key]bool{}
	for _, e := range entries(next) {
		k := key{e.entity, e.id}
		seen[k] = true
		o, ok := old[k]
		if !ok {
			out = append(out, Change{Kind: Added, Entity: e.entity, ID: e.id, Parent: e.parent, path: e.path})
			continue
		}
		for i, f := range e.fields {
			if f.value != o.fields[i].value {
				out = append(out, Change{Kind: Changed, Entity: e.entity, ID: e.id, Parent: e.parent, Field: f.name,
					Old: o.fields[i].value, New: f.value, path: e.path})
			}
		}
	}
	for _, e := range liveEntries {
		if !seen[key{e.entity, e.id}] {
			out = append(out, Change{Kind: Removed, Entity: e.entity, ID: e.id, Parent: e.parent})
		}
	}
	return out
}

// Summary counts the entries added, changed and removed ("no change" when
// there is none).
func Summary(changes []Change) string {
	if len(changes) == 0 {
		return "no change"
	}
	counts := map[string]map[key]bool{Added: {}, Changed: {}, Removed: {}}
	for _, c := range changes {
		counts[c.Kind][key{c.Entity, c.ID}] = true
	}
	return fmt.Sprintf("%d added, %d changed, %d removed", len(counts[Added]), len(counts[Changed]), len(counts[Removed]))
}
