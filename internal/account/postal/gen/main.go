// Command gen builds jp.tsv.gz, the embedded Japanese postal-code table,
// from the json/ folder of the npm package jquery-jpostal-ja (MIT):
//
//	cd /tmp && npm pack jquery-jpostal-ja@2.14.73 && tar xzf jquery-jpostal-ja-2.14.73.tgz
//	go run ./internal/account/postal/gen /tmp/package/json internal/account/postal/jp.tsv.gz
//
// Each package file NNN.json is a JSONP call around rows
// ["_ZIP7", prefecture, city, town, street, office name, kana…]. The output
// has one line per code, sorted: ZIP7 \t prefecture \t city \t town+street.
package main

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gen PACKAGE_JSON_DIR OUT.tsv.gz")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dir, out string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return err
	}
	lines := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		s := string(b)
		i, j := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if i < 0 || j < i {
			return fmt.Errorf("%s: not a JSONP file", f)
		}
		var rows [][]string
		if err := json.Unmarshal([]byte(s[i+1:j]), &rows); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		for _, r := range rows {
			if len(r) < 5 {
				continue
			}
			zip := strings.TrimPrefix(r[0], "_")
			if len(zip) != 7 {
				continue
			}
			clean := func(v string) string { return strings.NewReplacer("\t", " ", "\n", " ").Replace(v) }
			if _, dup := lines[zip]; !dup {
				lines[zip] = zip + "\t" + clean(r[1]) + "\t" + clean(r[2]) + "\t" + clean(r[3]+r[4])
			}
		}
	}
	zips := make([]string, 0, len(lines))
	for z := range lines {
		zips = append(zips, z)
	}
	sort.Strings(zips)
	fo, err := os.Create(out)
	if err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(fo, gzip.BestCompression)
	if err != nil {
		return err
	}
	for _, z := range zips {
		if _, err := fmt.Fprintln(zw, lines[z]); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	fmt.Printf("%d postal codes written to %s\n", len(zips), out)
	return fo.Close()
}
