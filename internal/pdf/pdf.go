// Package pdf makes the travel documents of a booking (itinerary, receipt,
// boarding, delay and cancellation certificates) as real PDF files with
// github.com/signintech/gopdf. Fonts are embedded (fonts/README.md): Noto
// Sans for Latin, Noto Sans JP/KR/SC/TC for the CJK languages and Waree for
// Thai. gopdf has no font fallback, so text is split into runs by script
// and each run is drawn with the font that covers it; only the fonts a
// document uses are embedded in it (as subsets).
package pdf

import (
	"embed"
	"fmt"
	"strings"
	"unicode"

	"github.com/signintech/gopdf"

	"members/internal/booking"
	"members/internal/brand"
	"members/internal/i18n"
)

//go:embed fonts/*.ttf
var fontFiles embed.FS

// Font families.
const (
	famLatin = "latin"
	famThai  = "thai"
	famJP    = "jp"
	famKR    = "kr"
	famSC    = "sc"
	famTC    = "tc"
)

var fontFile = map[string]string{
	famLatin: "fonts/NotoSans-Regular.ttf",
	famThai:  "fonts/Waree.ttf",
	famJP:    "fonts/NotoSansJP-Regular.ttf",
	famKR:    "fonts/NotoSansKR-Regular.ttf",
	famSC:    "fonts/NotoSansSC-Regular.ttf",
	famTC:    "fonts/NotoSansTC-Regular.ttf",
}

// hanFamily is the font for Han characters and kana in each language
// (the same character looks different in Japan, Korea, China and Taiwan).
func hanFamily(l i18n.Lang) string {
	switch l {
	case i18n.KR:
		return famKR
	case i18n.CN:
		return famSC
	case i18n.TW, i18n.HK:
		return famTC
	default:
		return famJP
	}
}

// Renderer implements booking.Renderer.
type Renderer struct {
	cat   *i18n.Catalog
	brand brand.Brand
}

var _ booking.Renderer = (*Renderer)(nil)

// New returns a renderer that takes its texts from cat and the airline's
// name and colour from the brand configuration (internal/brand).
func New(cat *i18n.Catalog) (*Renderer, error) {
	b, err := brand.Load()
	if err != nil {
		return nil, err
	}
	return &Renderer{cat: cat, brand: b}, nil
}

// Page geometry in points (A4).
const (
	pageW   = 595.0
	pageH   = 842.0
	margin  = 42.0
	content = pageW - 2*margin
	bottom  = pageH - 60
)

// doc is one document being drawn.
type doc struct {
	gp    *gopdf.GoPdf
	lang  i18n.Lang
	han   string
	added map[string]bool
	y     float64
	brand brand.Brand
	t     func(key string, args ...any) string
	err   error
}

// Render makes the PDF of d.
func (r *Renderer) Render(d booking.Document) ([]byte, error) {
	gp := &gopdf.GoPdf{}
	gp.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4})
	gp.SetCompressLevel(6)
	x := &doc{gp: gp, lang: d.Lang, han: hanFamily(d.Lang), added: map[string]bool{}, y: margin, brand: r.brand,
		t: func(key string, args ...any) string { return r.cat.T(d.Lang, key, args...) }}
	gp.SetInfo(gopdf.PdfInfo{
		Title:   x.t("booking.pdf.title."+d.Kind) + " " + d.Reservation.PNR,
		Author:  r.brand.Airline,
		Creator: "members",
	})
	gp.AddPage()
	switch d.Kind {
	case booking.DocItinerary:
		x.itinerary(d)
	case booking.DocReceipt:
		x.receipt(d)
	case booking.DocBoarding, booking.DocDelay, booking.DocCancellation:
		x.certificate(d)
	default:
		return nil, fmt.Errorf("pdf: unknown document %q", d.Kind)
	}
	if x.err != nil {
		return nil, fmt.Errorf("pdf %s: %w", d.Kind, x.err)
	}
	b, err := gp.GetBytesPdfReturnErr()
	if err != nil {
		return nil, fmt.Errorf("pdf %s: %w", d.Kind, err)
	}
	return b, nil
}

// family picks the font for a rune by script.
func (x *doc) family(r rune) string {
	switch {
	case r >= 0x0E00 && r <= 0x0E7F:
		return famThai
	case unicode.Is(unicode.Hangul, r):
		return famKR
	case unicode.Is(unicode.Han, r), unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r),
		r >= 0x3000 && r <= 0x303F, r >= 0xFF00 && r <= 0xFFEF, r >= 0x2E80 && r <= 0x2FFF, r >= 0x31F0 && r <= 0x31FF:
		return x.han
	case r < 0x0530, r >= 0x1E00 && r <= 0x20CF, r >= 0x2100 && r <= 0x218F:
		return famLatin
	default:
		return x.han
	}
}

type run struct{ fam, text string }

// runs splits s into runs of one font. Spaces and marks stay with the run
// before them.
func (x *doc) runs(s string) []run {
	var out []run
	for _, r := range s {
		f := x.family(r)
		if len(out) > 0 && (r == ' ' || unicode.Is(unicode.Mn, r) || out[len(out)-1].fam == f) {
			out[len(out)-1].text += string(r)
			continue
		}
		out = append(out, run{f, string(r)})
	}
	return out
}

func (x *doc) use(fam string, size float64) {
	if x.err != nil {
		return
	}
	if !x.added[fam] {
		data, err := fontFiles.ReadFile(fontFile[fam])
		if err != nil {
			x.err = err
			return
		}
		if err := x.gp.AddTTFFontData(fam, data); err != nil {
			x.err = fmt.Errorf("font %s: %w", fam, err)
			return
		}
		x.added[fam] = true
	}
	if err := x.gp.SetFont(fam, "", size); err != nil {
		x.err = err
	}
}

// width is the drawn width of s at size.
func (x *doc) width(s string, size float64) float64 {
	w := 0.0
	for _, r := range x.runs(s) {
		x.use(r.fam, size)
		if x.err != nil {
			return 0
		}
		v, err := x.gp.MeasureTextWidth(r.text)
		if err != nil {
			x.err = err
			return 0
		}
		w += v
	}
	return w
}

// text draws s with its baseline at (px, py).
func (x *doc) text(px, py, size float64, s string) {
	for _, r := range x.runs(s) {
		x.use(r.fam, size)
		if x.err != nil {
			return
		}
		x.gp.SetXY(px, py)
		if err := x.gp.Text(r.text); err != nil {
			x.err = err
			return
		}
		w, _ := x.gp.MeasureTextWidth(r.text)
		px += w
	}
}

// wrap breaks s into lines no wider than maxW: at spaces where there are
// some, anywhere between characters otherwise (CJK, Thai), never before a
// combining mark.
func (x *doc) wrap(s string, size, maxW float64) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, tok := range tokens(para) {
			if line != "" && x.width(line+tok, size) > maxW {
				lines = append(lines, strings.TrimRight(line, " "))
				line = strings.TrimLeft(tok, " ")
				continue
			}
			line += tok
		}
		lines = append(lines, line)
	}
	return lines
}

// tokens splits text into breakable pieces: words with their trailing
// space for Latin, single characters (with their marks) for other scripts.
func tokens(s string) []string {
	var out []string
	cur := ""
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Mn, r):
			cur += string(r)
		case r == ' ':
			cur += " "
			out = append(out, cur)
			cur = ""
		case r < 0x0530:
			if cur != "" && strings.HasSuffix(cur, " ") {
				out = append(out, cur)
				cur = ""
			}
			if cur != "" && !isLatinTail(cur) {
				out = append(out, cur)
				cur = ""
			}
			cur += string(r)
		default:
			if cur != "" {
				out = append(out, cur)
			}
			cur = string(r)
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

func isLatinTail(s string) bool {
	r := []rune(s)
	return r[len(r)-1] < 0x0530
}

// para draws wrapped text at the current y and moves down.
func (x *doc) para(px, size, maxW float64, s string) {
	for _, l := range x.wrap(s, size, maxW) {
		x.need(size * 1.5)
		x.y += size * 1.45
		x.text(px, x.y, size, l)
	}
}

// need starts a new page when fewer than h points are left.
func (x *doc) need(h float64) {
	if x.y+h > bottom {
		x.gp.AddPage()
		x.y = margin
	}
}

func (x *doc) gap(h float64) { x.y += h }

func (x *doc) rule() {
	x.gp.SetStrokeColor(200, 200, 200)
	x.gp.SetLineWidth(0.6)
	x.gp.Line(margin, x.y, pageW-margin, x.y)
}
