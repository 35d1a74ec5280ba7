// Package catalogue is what the operator puts on sale: the unlimited pass
// plans and the coupon pass products, read from a YAML or JSON file
// (members catalogue apply), compared with the live catalogue, applied in
// one transaction, and written back in the same format (members catalogue
// export). The rules of a plan and of a product are their domains'
// (internal/pass, internal/coupon); this package reads the file, names the
// line of each problem, and refuses to remove or reprice what members hold.
package catalogue

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"members/internal/coupon"
	"members/internal/i18n"
	"members/internal/pass"
)

// Catalogue is every product on sale, in the order the pages list them.
type Catalogue struct {
	Plans    []pass.PlanDef
	Products []coupon.ProductDef
}

// The file's top-level fields.
const (
	fieldPlans    = "passPlans"
	fieldProducts = "couponProducts"
)

// File is a catalogue read from a file, with the line of each field.
type File struct {
	Name      string
	Catalogue Catalogue
	lines     map[string]int
}

// Issue is one problem of a file: the line (0 when it is not in the
// file, a removed period) and the field's path.
type Issue struct {
	Line    int
	Field   string
	Message string
}

// Errors are the problems of a file; nothing was applied.
type Errors struct {
	Name   string
	Issues []Issue
}

func (e *Errors) Error() string {
	lines := make([]string, len(e.Issues))
	for i, is := range e.Issues {
		lines[i] = e.format(is)
	}
	return strings.Join(lines, "\n")
}

func (e *Errors) format(is Issue) string {
	where := e.Name
	if is.Line > 0 {
		where += ":" + strconv.Itoa(is.Line)
	}
	if is.Field == "" {
		return where + ": " + is.Message
	}
	return where + ": " + is.Field + ": " + is.Message
}

// Lines returns one line per problem ("catalogue.yaml:14: passPlans[0].periods[2].price.happy: must be a positive integer").
func (e *Errors) Lines() []string {
	out := make([]string, len(e.Issues))
	for i, is := range e.Issues {
		out[i] = e.format(is)
	}
	return out
}

// Line is the line of a field's path, or of the nearest enclosing field
// the file has (a missing field is reported where it should be).
func (f *File) Line(path string) int {
	for path != "" {
		if l, ok := f.lines[path]; ok {
			return l
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return f.lines[""]
}

// Parse reads a catalogue (YAML, or JSON, which YAML reads too) and
// checks it whole: the file's shape here, the rules of plans and products
// in their domains. Every problem is returned, each with its line.
func Parse(name string, data []byte) (*File, error) {
	f := &File{Name: name, lines: map[string]int{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &Errors{Name: name, Issues: []Issue{{Line: yamlLine(err), Message: strings.TrimPrefix(err.Error(), "yaml: ")}}}
	}
	r := &reader{f: f}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		r.add("", 1, "the file is empty: it must hold %s and %s", fieldPlans, fieldProducts)
		return nil, r.errors()
	}
	root := doc.Content[0]
	f.lines[""] = root.Line
	r.fields(root, "", map[string]func(*yaml.Node, string){
		fieldPlans: func(n *yaml.Node, p string) {
			r.list(n, p, func(n *yaml.Node, p string) { f.Catalogue.Plans = append(f.Catalogue.Plans, r.plan(n, p)) })
		},
		fieldProducts: func(n *yaml.Node, p string) {
			r.list(n, p, func(n *yaml.Node, p string) { f.Catalogue.Products = append(f.Catalogue.Products, r.product(n, p)) })
		},
	}, fieldPlans, fieldProducts)
	for _, p := range pass.CheckPlans(f.Catalogue.Plans) {
		r.at(fieldPlans+p.Field, strings.ReplaceAll(p.Message, "(also [", "(also "+fieldPlans+"["))
	}
	for _, p := range coupon.CheckProducts(f.Catalogue.Products) {
		r.at(fieldProducts+p.Field, strings.ReplaceAll(p.Message, "(also [", "(also "+fieldProducts+"["))
	}
	if len(r.issues) > 0 {
		return nil, r.errors()
	}
	return f, nil
}

var yamlLineRe = regexp.MustCompile(`line (\d+)`)

func yamlLine(err error) int {
	if m := yamlLineRe.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// reader walks the file's nodes, noting each field's line and each
// problem of shape (an unknown field, a text where a number goes).
type reader struct {
	f      *File
	issues []Issue
}

func (r *reader) add(path string, line int, format string, args ...any) {
	r.issues = append(r.issues, Issue{Line: line, Field: path, Message: fmt.Sprintf(format, args...)})
}

func (r *reader) at(path, msg string) { r.add(path, r.f.Line(path), "%s", msg) }

func (r *reader) errors() *Errors {
	is := r.issues
	sort.SliceStable(is, func(i, j int) bool { return is[i].Line < is[j].Line })
	return &Errors{Name: r.f.Name, Issues: is}
}

func join(path, field string) string {
	if path == "" {
		return field
	}
	return path + "." + field
}

// fields reads a mapping: each known field by its reader, an unknown or a
// repeated one refused, a required one that is missing reported.
func (r *reader) fields(n *yaml.Node, path string, known map[string]func(*yaml.Node, string), required ...string) {
	if n.Kind != yaml.MappingNode {
		r.add(path, n.Line, "must be a mapping of fields")
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		p := join(path, k.Value)
		read, ok := known[k.Value]
		switch {
		case !ok:
			r.add(p, k.Line, "unknown field")
		case seen[k.Value]:
			r.add(p, k.Line, "given twice")
		default:
			seen[k.Value] = true
			r.f.lines[p] = v.Line
			if v.Kind != yaml.ScalarNode {
				r.f.lines[p] = k.Line
			}
			read(v, p)
		}
	}
	for _, req := range required {
		if !seen[req] {
			r.add(join(path, req), n.Line, "is required")
		}
	}
}

func (r *reader) list(n *yaml.Node, path string, each func(*yaml.Node, string)) {
	if n.Kind != yaml.SequenceNode {
		r.add(path, n.Line, "must be a list")
		return
	}
	for i, item := range n.Content {
		p := fmt.Sprintf("%s[%d]", path, i)
		r.f.lines[p] = item.Line
		each(item, p)
	}
}

func (r *reader) scalar(n *yaml.Node, path, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		r.add(path, n.Line, "must be %s", what)
		return "", false
	}
	if n.Tag == "!!null" {
		return "", true
	}
	return n.Value, true
}

// str reads a text (ids, dates, currency codes).
func (r *reader) str(dst *string) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		if v, ok := r.scalar(n, path, "a text"); ok {
			*dst = v
		}
	}
}

func (r *reader) int64(dst *int64) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		v, ok := r.scalar(n, path, "an integer")
		if !ok {
			return
		}
		i, err := strconv.ParseInt(v, 10, 64)
		if n.Tag != "!!int" || err != nil {
			r.add(path, n.Line, "must be an integer, not %q", v)
			*dst = 1 // the shape is reported; the rules need not say it again
			return
		}
		*dst = i
	}
}

func (r *reader) int(dst *int) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		var v int64
		r.int64(&v)(n, path)
		if int64(int(v)) != v {
			r.add(path, n.Line, "is too large")
			v = 1
		}
		*dst = int(v)
	}
}

func (r *reader) bool(dst *bool) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		v, ok := r.scalar(n, path, "true or false")
		if !ok {
			return
		}
		if n.Tag != "!!bool" {
			r.add(path, n.Line, "must be true or false, not %q", v)
			return
		}
		*dst = v == "true"
	}
}

// texts reads a name or description: one text per language code.
func (r *reader) texts(dst *i18n.Texts) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		t := i18n.Texts{}
		*dst = t
		if n.Kind != yaml.MappingNode {
			r.add(path, n.Line, "must give a text for each language (%s)", langCodes())
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := join(path, k.Value)
			l, ok := i18n.Parse(k.Value)
			switch {
			case !ok || string(l) != k.Value:
				r.add(p, k.Line, "unknown language (the languages are %s)", langCodes())
				continue
			case hasLang(t, l):
				r.add(p, k.Line, "given twice")
				continue
			}
			r.f.lines[p] = v.Line
			var s string
			r.str(&s)(v, p)
			t[l] = s
		}
	}
}

func langCodes() string {
	s := make([]string, len(i18n.Langs))
	for i, l := range i18n.Langs {
		s[i] = string(l)
	}
	return strings.Join(s, " ")
}

func (r *reader) window(dst *pass.Range) func(*yaml.Node, string) {
	return func(n *yaml.Node, path string) {
		r.fields(n, path, map[string]func(*yaml.Node, string){
			"begin": r.str(&dst.Begin), "end": r.str(&dst.End),
		})
	}
}

func (r *reader) plan(n *yaml.Node, path string) pass.PlanDef {
	var p pass.PlanDef
	r.fields(n, path, map[string]func(*yaml.Node, string){
		"id": r.str(&p.ID), "name": r.texts(&p.Name), "nameAlt": r.texts(&p.NameAlt),
		"periods": func(n *yaml.Node, path string) {
			r.list(n, path, func(n *yaml.Node, path string) {
				var pe pass.Period
				r.fields(n, path, map[string]func(*yaml.Node, string){
					"id": r.str(&pe.ID), "availablePeriodToBoard": r.window(&pe.AvailablePeriodToBoard),
					"availablePeriodToBook": r.window(&pe.AvailablePeriodToBook), "currencyCode": r.str(&pe.CurrencyCode),
					"price": func(n *yaml.Node, path string) {
						r.fields(n, path, map[string]func(*yaml.Node, string){
							pass.FareHappy: r.int64(&pe.Price.Happy), pass.FareHapplus: r.int64(&pe.Price.Happlus),
						})
					},
					"lotteryQuota": r.int(&pe.LotteryQuota),
				})
				p.Periods = append(p.Periods, pe)
			})
		},
	})
	return p
}

func (r *reader) product(n *yaml.Node, path string) coupon.ProductDef {
	var p coupon.ProductDef
	r.fields(n, path, map[string]func(*yaml.Node, string){
		"id": r.str(&p.ID), "name": r.texts(&p.Name), "description": r.texts(&p.Description),
		"international": r.bool(&p.International),
		"periods": func(n *yaml.Node, path string) {
			r.list(n, path, func(n *yaml.Node, path string) {
				var pe coupon.PeriodDef
				plan := func(dst *coupon.Plan) func(*yaml.Node, string) {
					dst.CurrencyCode = coupon.Currency // the spec's default
					return func(n *yaml.Node, path string) {
						r.fields(n, path, map[string]func(*yaml.Node, string){
							"availableDaysAfterFirstUse": r.int(&dst.AvailableDaysAfterFirstUse),
							"availableNumberOfUse":       r.int(&dst.AvailableNumberOfUse),
							"currencyCode":               r.str(&dst.CurrencyCode),
							"pricePerPerson":             r.int64(&dst.PricePerPerson),
						})
					}
				}
				r.fields(n, path, map[string]func(*yaml.Node, string){
					"id": r.str(&pe.ID), "description": r.texts(&pe.Description),
					"availablePeriodToBoard": r.window(&pe.AvailablePeriodToBoard),
					"availablePeriodToBook":  r.window(&pe.AvailablePeriodToBook),
					"plan": func(n *yaml.Node, path string) {
						r.fields(n, path, map[string]func(*yaml.Node, string){
							coupon.PlanLite: plan(&pe.Plan.Lite), coupon.PlanStandard: plan(&pe.Plan.Standard),
						}, coupon.PlanLite, coupon.PlanStandard)
					},
				})
				p.Periods = append(p.Periods, pe)
			})
		},
	}, "international")
	return p
}

func hasLang(t i18n.Texts, l i18n.Lang) bool { _, ok := t[l]; return ok }
