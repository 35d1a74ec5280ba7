package apitest

import (
	"context"
	"fmt"
	"hash/fnv"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"members/internal/store"
)

// Operation is one method and path of api/openapi.yaml.
type Operation struct {
	Method  string
	Path    string   // the template, e.g. /api/reservations/{PNR}
	Params  []string // path parameter names in order
	Query   []string // required query parameter names
	HasBody bool
	ID      string
}

// Operations lists every operation of the API description, so tests that
// walk the whole API cover operations added later without a change.
func Operations(t testing.TB) []Operation {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromFile(SpecPath())
	if err != nil {
		t.Fatalf("load %s: %v", SpecPath(), err)
	}
	var out []Operation
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			o := Operation{Method: method, Path: path, HasBody: op.RequestBody != nil, ID: op.OperationID}
			for _, seg := range strings.Split(path, "/") {
				if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
					o.Params = append(o.Params, strings.Trim(seg, "{}"))
				}
			}
			for _, ref := range append(append(openapi3.Parameters{}, item.Parameters...), op.Parameters...) {
				if p := ref.Value; p != nil && p.In == "query" && p.Required {
					o.Query = append(o.Query, p.Name)
				}
			}
			sort.Strings(o.Query)
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path+out[i].Method < out[j].Path+out[j].Method })
	return out
}

// Fill returns the operation's path with each parameter replaced by
// values[name] (fallback when none), and its required query parameters
// given the same way.
func (o Operation) Fill(values map[string]string, fallback string) string {
	p := o.Path
	for _, name := range o.Params {
		v, ok := values[name]
		if !ok {
			v = fallback
		}
		p = strings.Replace(p, "{"+name+"}", v, 1)
	}
	for i, name := range o.Query {
		v, ok := values[name]
		if !ok {
			v = fallback
		}
		sep := "&"
		if i == 0 {
			sep = "?"
		}
		p += sep + url.QueryEscape(name) + "=" + url.QueryEscape(v)
	}
	return p
}

// Tables names the tables of db (on PostgreSQL, of its schema), SQLite's
// own left out.
func Tables(t testing.TB, db *store.DB) []string {
	t.Helper()
	q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	if db.Engine == store.Postgres {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
	}
	names, err := store.Column(context.Background(), db.DB, q)
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// Fingerprint is a digest of every row of every table but the ones named
// in skip (sessions, throttle counters…): equal fingerprints mean nothing
// changed.
func (e *Env) Fingerprint(t testing.TB, skip ...string) map[string]uint64 {
	t.Helper()
	ctx := context.Background()
	names := Tables(t, e.App.DB)
	skipped := map[string]bool{"goose_db_version": true}
	for _, s := range skip {
		skipped[s] = true
	}
	out := map[string]uint64{}
	for _, name := range names {
		if skipped[name] {
			continue
		}
		rows, err := e.App.DB.QueryContext(ctx, `SELECT * FROM `+name) // #nosec G202 -- table names come from the catalogue
		if err != nil {
			t.Fatalf("read %s: %v", name, err)
		}
		cols, _ := rows.Columns()
		var lines []string
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprintf("%v", vals))
		}
		rows.Close()
		sort.Strings(lines)
		h := fnv.New64a()
		for _, l := range lines {
			h.Write([]byte(l + "\n"))
		}
		out[name] = h.Sum64()
	}
	return out
}
