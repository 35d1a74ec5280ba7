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

// latinPrefectures are the 47 prefectures in Latin letters (Hepburn, no
// macrons), as Japan Post writes them on mail from abroad.
var latinPrefectures = map[string]string{
	"北海道": "Hokkaido", "青森県": "Aomori", "岩手県": "Iwate", "宮城県": "Miyagi", "秋田県": "Akita",
	"山形県": "Yamagata", "福島県": "Fukushima", "茨城県": "Ibaraki", "栃木県": "Tochigi", "群馬県": "Gunma",
	"埼玉県": "Saitama", "千葉県": "Chiba", "東京都": "Tokyo", "神奈川県": "Kanagawa", "新潟県": "Niigata",
	"富山県": "Toyama", "石川県": "Ishikawa", "福井県": "Fukui", "山梨県": "Yamanashi", "長野県": "Nagano",
	"岐阜県": "Gifu", "静岡県": "Shizuoka", "愛知県": "Aichi", "三重県": "Mie", "滋賀県": "Shiga",
	"京都府": "Kyoto", "大阪府": "Osaka", "兵庫県": "Hyogo", "奈良県": "Nara", "和歌山県": "Wakayama",
	"鳥取県": "Tottori", "島根県": "Shimane", "岡山県": "Okayama", "広島県": "Hiroshima", "山口県": "Yamaguchi",
	"徳島県": "Tokushima", "香川県": "Kagawa", "愛媛県": "Ehime", "高知県": "Kochi", "福岡県": "Fukuoka",
	"佐賀県": "Saga", "長崎県": "Nagasaki", "熊本県": "Kumamoto", "大分県": "Oita", "宮崎県": "Miyazaki",
	"鹿児島県": "Kagoshima", "沖縄県": "Okinawa",
}

// In returns the address as a page in lang fills it in. Japanese and the
// three Chinese languages read the kanji of the table. For the others
// (en, sg, kr, th) the table has no city or street in their script, so
// only the prefecture comes, in Latin letters: kanji written into an
// English or Thai form is no help to the member, and the rest of the
// address is theirs to type.
func (a Address) In(lang string) Address {
	switch lang {
	case "jp", "cn", "tw", "hk":
		return a
	}
	return Address{Prefecture: latinPrefectures[a.Prefecture]}
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
