// Package brand is the airline's brand in one place (brand.json): the
// airline's name, the product's name in each language and the colours. The
// server's mails and PDFs read it here; the web app imports the same file
// (web/src/brand.ts) for the header, the browser-tab titles and its colours.
package brand

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"

	"members/internal/i18n"
)

//go:embed brand.json
var raw []byte

// Brand is the parsed brand.json.
type Brand struct {
	Airline string               `json:"airline"`
	Product map[i18n.Lang]string `json:"product"`
	Colors  struct {
		Accent     string `json:"accent"`
		AccentDark string `json:"accentDark"`
		AccentSoft string `json:"accentSoft"`
		LogoLight  string `json:"logoLight"`
	} `json:"colors"`
}

// Load parses the embedded brand.json and checks that every language has a
// product name and the colours are #rrggbb.
func Load() (Brand, error) {
	var b Brand
	if err := json.Unmarshal(raw, &b); err != nil {
		return b, fmt.Errorf("brand: %w", err)
	}
	if b.Airline == "" {
		return b, fmt.Errorf("brand: airline name missing")
	}
	for _, l := range i18n.Langs {
		if b.Product[l] == "" {
			return b, fmt.Errorf("brand: product name for %s missing", l)
		}
	}
	if _, _, _, err := RGB(b.Colors.Accent); err != nil {
		return b, err
	}
	return b, nil
}

// Name is the product's name in lang.
func (b Brand) Name(lang i18n.Lang) string {
	if n := b.Product[lang]; n != "" {
		return n
	}
	return b.Product[i18n.Default]
}

// RGB reads a "#rrggbb" colour.
func RGB(hex string) (r, g, b uint8, err error) {
	if len(hex) != 7 || hex[0] != '#' {
		return 0, 0, 0, fmt.Errorf("brand: colour %q is not #rrggbb", hex)
	}
	v, err := strconv.ParseUint(hex[1:], 16, 32)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("brand: colour %q: %w", hex, err)
	}
	return uint8(v >> 16), uint8(v >> 8), uint8(v), nil // #nosec G115 -- six hex digits: v < 2^24, and each byte is taken on purpose
}
