// Package postal looks up Japanese postal codes in a table generated from
// the npm package jquery-jpostal-ja 2.14.73 (MIT; Japan Post's KEN_ALL and
// JIGYOSYO data, published 2025-10). gen/ rebuilds jp.tsv.gz from a newer
// version of the package; see docs/account.md.
package postal

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

//go:embed jp.tsv.gz
var jpData []byte

// Address is what a postal code names.
type Address struct {
	Prefecture string `json:"prefecture"`
	City       string `json:"city"`
	Street     string `json:"street"`
}

// Table is the loaded postal-code table. It is read-only once loaded.
type Table struct {
	once sync.Once
	jp   map[string]Address
	err  error
}

// New returns a table that loads the embedded data on first use.
func New() *Table { return &Table{} }

func (t *Table) load() {
	zr, err := gzip.NewReader(bytes.NewReader(jpData))
	if err != nil {
		t.err = fmt.Errorf("postal: %w", err)
		return
	}
	m := make(map[string]Address, 150000)
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) == 4 {
			m[f[0]] = Address{Prefecture: f[1], City: f[2], Street: f[3]}
		}
	}
	if err := sc.Err(); err != nil {
		t.err = fmt.Errorf("postal: %w", err)
		return
	}
	t.jp = m
}

// NormalizeJP returns the 7 digits of a Japanese postal code typed as
// 5490001, 549-0001 or with full-width digits, and false otherwise.
func NormalizeJP(zip string) (string, bool) {
	var b strings.Builder
	for _, r := range strings.TrimSpace(zip) {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r >= '０' && r <= '９':
			b.WriteRune('0' + (r - '０'))
		case r == '-' || r == '－' || r == 'ー':
		default:
			return "", false
		}
	}
	if b.Len() != 7 {
		return "", false
	}
	return b.String(), true
}

// Lookup returns the address of a postal code in a country. Only Japan
// (JP) has data; other countries report not found.
func (t *Table) Lookup(country, zip string) (Address, bool, error) {
	if country != "JP" {
		return Address{}, false, nil
	}
	z, ok := NormalizeJP(zip)
	if !ok {
		return Address{}, false, nil
	}
	t.once.Do(t.load)
	if t.err != nil {
		return Address{}, false, t.err
	}
	a, ok := t.jp[z]
	return a, ok, nil
}
