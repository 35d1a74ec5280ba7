package httpapi_test

import (
	"testing"

	"members/internal/apitest"
	"members/internal/store"
)

// Every JSON request body of the API, fuzzed through the real server as a
// logged-in member: any bytes get an answer below 500 (the decoders refuse
// unknown fields, trailing data and oversized bodies with 4xx; the
// validators answer 400). Operations added to api/openapi.yaml later are
// fuzzed too.
func FuzzAPIRequestBodies(f *testing.F) {
	env := apitest.New(f, store.SQLite)
	member := env.Member(f)
	owned := ownedValues(f, member)
	session := member.Cookie("members_session")
	var ops []apitest.Operation
	for _, op := range apitest.Operations(f) {
		if op.HasBody {
			ops = append(ops, op)
		}
	}
	for i := range ops {
		for _, seed := range []string{`{}`, `{"email":"a@b.co","password":"x"}`, `[]`, `null`, `{"a":1}{"b":2}`, `{"firstname":1}`, "\xff"} {
			f.Add(uint8(i), []byte(seed))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		op := ops[int(which)%len(ops)]
		c := env.Client(t)
		c.NoContract = true
		c.SetCookie("members_session", session)
		r := c.Do(op.Method, op.Fill(owned, "0123456789abcdef0123456789abcdef"), body)
		if r.Status >= 500 {
			t.Fatalf("%s %s with %q = %d %s", op.Method, op.Path, body, r.Status, r.Body)
		}
	})
}
