package pass

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"members/internal/i18n"
	"members/internal/payment"
)

// The rules of the catalogue an operator applies (members catalogue
// apply): what a plan and its periods must hold before they go on sale.
// The coupon pass's rules (internal/coupon) build on CheckID, CheckTexts
// and CheckWindows.

// Problem is one rule a catalogue entry breaks: Field is its path in the
// catalogue's own names ("[0].periods[2].price.happy", relative to the
// list checked), Message what is wrong.
type Problem struct {
	Field   string
	Message string
}

func (p Problem) String() string { return p.Field + ": " + p.Message }

// Problems collects problems under a path prefix.
type Problems struct{ list []Problem }

// Add records a problem of field.
func (ps *Problems) Add(field, format string, args ...any) {
	ps.list = append(ps.list, Problem{Field: field, Message: fmt.Sprintf(format, args...)})
}

// List returns the problems in the order found.
func (ps *Problems) List() []Problem { return ps.list }

// PlanDef is an unlimited pass plan as the operator defines it: its two
// names in every language and its periods. Its position in the catalogue
// is its place in the list.
type PlanDef struct {
	ID      string
	Name    i18n.Texts
	NameAlt i18n.Texts
	Periods []Period
}

// MaxTextLen is the longest name or description, in characters.
const MaxTextLen = 200

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// CheckID checks a stable key: 1 to 64 letters, digits, '-' or '_'.
func CheckID(ps *Problems, field, id string) {
	switch {
	case id == "":
		ps.Add(field, "is required")
	case !idPattern.MatchString(id):
		ps.Add(field, "must be 1 to 64 letters, digits, '-' or '_', starting with a letter or digit")
	}
}

// CheckTexts checks that a name or description has a text in each of the
// eight languages, none longer than MaxTextLen.
func CheckTexts(ps *Problems, field string, t i18n.Texts) {
	if len(t) == 0 {
		ps.Add(field, "is required in every language (%s)", langList())
		return
	}
	for _, l := range i18n.Langs {
		s, ok := t[l]
		switch {
		case !ok:
			ps.Add(field+"."+string(l), "is required")
		case strings.TrimSpace(s) == "":
			ps.Add(field+"."+string(l), "must not be blank")
		case utf8.RuneCountInString(s) > MaxTextLen:
			ps.Add(field+"."+string(l), "must be at most %d characters", MaxTextLen)
		}
	}
}

func langList() string {
	s := make([]string, len(i18n.Langs))
	for i, l := range i18n.Langs {
		s[i] = string(l)
	}
	return strings.Join(s, " ")
}

// CheckWindows checks the boarding and booking windows of a period: real
// dates, each ending on or after its beginning, and no booking after the
// last boarding day.
func CheckWindows(ps *Problems, field string, board, book Range) {
	okBoard := checkRange(ps, field+".availablePeriodToBoard", board)
	okBook := checkRange(ps, field+".availablePeriodToBook", book)
	if okBoard && okBook && book.End > board.End {
		ps.Add(field+".availablePeriodToBook.end", "must not be after availablePeriodToBoard.end (%s)", board.End)
	}
}

func checkRange(ps *Problems, field string, r Range) bool {
	ok := checkDate(ps, field+".begin", r.Begin)
	ok = checkDate(ps, field+".end", r.End) && ok
	if ok && r.End < r.Begin {
		ps.Add(field+".end", "must not be before begin (%s)", r.Begin)
		return false
	}
	return ok
}

func checkDate(ps *Problems, field, d string) bool {
	if d == "" {
		ps.Add(field, "is required")
		return false
	}
	if _, err := time.Parse(DateLayout, d); err != nil {
		ps.Add(field, "must be a date YYYY-MM-DD")
		return false
	}
	return true
}

// CheckPositive checks an amount or a count that must be above zero.
func CheckPositive(ps *Problems, field string, n int64) {
	if n <= 0 {
		ps.Add(field, "must be a positive integer")
	}
}

// Unique reports ids met twice: seen maps an id to the field that first
// held it.
func Unique(ps *Problems, seen map[string]string, field, id string) {
	if id == "" {
		return
	}
	if first, ok := seen[id]; ok {
		ps.Add(field, "duplicate id %q (also %s)", id, first)
		return
	}
	seen[id] = field
}

// CheckPlans checks the unlimited pass plans of a catalogue: ids unique
// among plans and among all their periods, both names in every language,
// at least one period each, the windows, a currency the payments take,
// a positive price per fare type and a lottery quota of zero or more.
func CheckPlans(plans []PlanDef) []Problem {
	var ps Problems
	planIDs, periodIDs := map[string]string{}, map[string]string{}
	for i, p := range plans {
		f := fmt.Sprintf("[%d]", i)
		CheckID(&ps, f+".id", p.ID)
		Unique(&ps, planIDs, f+".id", p.ID)
		CheckTexts(&ps, f+".name", p.Name)
		CheckTexts(&ps, f+".nameAlt", p.NameAlt)
		if len(p.Periods) == 0 {
			ps.Add(f+".periods", "must list at least one period")
		}
		for j, pe := range p.Periods {
			pf := fmt.Sprintf("%s.periods[%d]", f, j)
			CheckID(&ps, pf+".id", pe.ID)
			Unique(&ps, periodIDs, pf+".id", pe.ID)
			CheckWindows(&ps, pf, pe.AvailablePeriodToBoard, pe.AvailablePeriodToBook)
			if !slices.Contains(payment.Currencies, pe.CurrencyCode) {
				ps.Add(pf+".currencyCode", "must be one of %s", strings.Join(payment.Currencies, " "))
			}
			CheckPositive(&ps, pf+".price.happy", pe.Price.Happy)
			CheckPositive(&ps, pf+".price.happlus", pe.Price.Happlus)
			if pe.LotteryQuota < 0 {
				ps.Add(pf+".lotteryQuota", "must be zero or a positive integer")
			}
		}
	}
	return ps.List()
}

// Repriced reports whether a period's new definition changes what its
// holders paid or are paying: the currency or a fare's price.
func Repriced(old, next Period) bool {
	return old.CurrencyCode != next.CurrencyCode || old.Price != next.Price
}
