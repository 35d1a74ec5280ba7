package catalogue

import (
	"bytes"
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"

	"members/internal/coupon"
	"members/internal/i18n"
	"members/internal/pass"
)

// header opens an exported file.
const header = `# The catalogue of the members' area: the unlimited pass plans and the
# coupon pass products (docs/passes.md, "Catalogue"). Apply it with
#   members catalogue apply FILE [--dry-run]
`

// Encode writes a catalogue in the file's format (YAML): Parse reads it
// back to the same catalogue.
func Encode(c Catalogue) ([]byte, error) {
	plans := seq()
	for _, p := range c.Plans {
		periods := seq()
		for _, pe := range p.Periods {
			periods.Content = append(periods.Content, mapping(
				"id", str(pe.ID),
				"availablePeriodToBoard", window(pe.AvailablePeriodToBoard),
				"availablePeriodToBook", window(pe.AvailablePeriodToBook),
				"currencyCode", str(pe.CurrencyCode),
				"price", mapping(pass.FareHappy, num(pe.Price.Happy), pass.FareHapplus, num(pe.Price.Happlus)),
				"lotteryQuota", num(int64(pe.LotteryQuota)),
			))
		}
		plans.Content = append(plans.Content, mapping("id", str(p.ID), "name", texts(p.Name), "nameAlt", texts(p.NameAlt), "periods", periods))
	}
	products := seq()
	for _, p := range c.Products {
		periods := seq()
		for _, pe := range p.Periods {
			plan := func(pl coupon.Plan) *yaml.Node {
				return mapping("availableDaysAfterFirstUse", num(int64(pl.AvailableDaysAfterFirstUse)),
					"availableNumberOfUse", num(int64(pl.AvailableNumberOfUse)),
					"currencyCode", str(pl.CurrencyCode), "pricePerPerson", num(pl.PricePerPerson))
			}
			periods.Content = append(periods.Content, mapping(
				"id", str(pe.ID), "description", texts(pe.Description),
				"availablePeriodToBoard", window(pe.AvailablePeriodToBoard),
				"availablePeriodToBook", window(pe.AvailablePeriodToBook),
				"plan", mapping(coupon.PlanLite, plan(pe.Plan.Lite), coupon.PlanStandard, plan(pe.Plan.Standard)),
			))
		}
		products.Content = append(products.Content, mapping("id", str(p.ID), "name", texts(p.Name),
			"description", texts(p.Description), "international", boolean(p.International), "periods", periods))
	}
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{mapping(fieldPlans, plans, fieldProducts, products)}}
	var b bytes.Buffer
	b.WriteString(header)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("catalogue: encode: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("catalogue: encode: %w", err)
	}
	return b.Bytes(), nil
}

func seq() *yaml.Node { return &yaml.Node{Kind: yaml.SequenceNode} }

func mapping(kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Content = append(n.Content, str(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return n
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func num(n int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(n, 10)}
}

func boolean(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

func window(r pass.Range) *yaml.Node {
	return mapping("begin", str(r.Begin), "end", str(r.End))
}

func texts(t i18n.Texts) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, l := range i18n.Langs {
		n.Content = append(n.Content, str(string(l)), str(t[l]))
	}
	return n
}
