package store

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// FuzzDecodePage holds the search's hand-written JSON reader (searchjson.go)
// to encoding/json: a page that encoding/json writes, compact or indented
// as PostgreSQL's json_agg spaces it, with bools as either engine writes
// them, reads back as encoding/json reads it; and any input at all ends in
// a page or an error, never a panic. The seed corpus runs in every go test;
// make fuzz runs it for longer.
func FuzzDecodePage(f *testing.F) {
	f.Add("r1", "PNR\"1", "Yamada\\", "太郎\u2028", int64(12000), int64(1764028800000), true, false, `[["a"]]`)
	f.Add("", "", "", "", int64(-1), int64(0), false, true, `null`)
	f.Add("\x00\x1f<>&", "\xed\xa0\x80", "a\nb", "\"", int64(1<<62), int64(-62135596800000), true, true, `[[1,2]`)
	f.Fuzz(func(t *testing.T, id, pnr, lastname, firstname string, total, departMs int64, indent, sqliteBools bool, raw string) {
		// Any input: a page or an error.
		_, _ = decodePage(raw)

		hotel := any(true)
		if sqliteBools {
			hotel = 1
		}
		segment := []any{"s1", "HK", "MM" + pnr, pnr, hotel, "KIX", firstname, nil, "NRT", lastname,
			departMs, nil, departMs, departMs, nil, nil, "on_time", 2, "delay", departMs, nil, lastname}
		// the first segment as views are written since migration 00291
		// (the previous gate last), the second as before it
		withGate := append(append([]any{}, segment...), firstname)
		res := []any{id, nil, pnr, departMs, "HK", "JPY", total, lastname + "@example.com",
			[]any{withGate, segment}, []any{[]any{lastname, firstname, "adult"}}}
		doc, err := json.Marshal([]any{res, []any{id, id, pnr, 0, "XX", "THB", 0, "", nil, nil}})
		if err != nil {
			t.Fatal(err)
		}
		if indent {
			var b bytes.Buffer
			if err := json.Indent(&b, doc, "", " "); err != nil {
				t.Fatal(err)
			}
			doc = b.Bytes()
		}
		// encoding/json's reading of the same document is the reference
		// (it turns invalid UTF-8 into U+FFFD on the way, as both do).
		var ref [][]any
		if err := json.Unmarshal(doc, &ref); err != nil {
			t.Fatal(err)
		}
		str := func(v any) string { s, _ := v.(string); return s }
		list, err := decodePage(string(doc))
		if err != nil {
			t.Fatalf("decodePage(%s): %v", doc, err)
		}
		if len(list) != 2 {
			t.Fatalf("%d reservations from %s", len(list), doc)
		}
		r, g := list[0], list[0].Segments
		wantSeg := ref[0][8].([]any)[0].([]any)
		wantPax := ref[0][9].([]any)[0].([]any)
		when := time.UnixMilli(departMs).UTC()
		switch {
		case r.ID != str(ref[0][0]) || r.MemberID != "" || r.PNR != str(ref[0][2]) || r.ContactEmail != str(ref[0][7]):
			t.Fatalf("reservation strings %+v, want %v", r, ref[0])
		case r.TotalAmount != total || !r.BookedAt.Equal(when):
			t.Fatalf("reservation numbers %d %v, want %d %v", r.TotalAmount, r.BookedAt, total, when)
		case len(g) != 2 || g[0].PreviousGate != str(ref[0][8].([]any)[0].([]any)[22]) || g[1].PreviousGate != "" || g[1].DivertedTo != g[0].DivertedTo:
			t.Fatalf("segments' previous gates %+v, want %v", g, ref[0][8])
		case g[0].Flight != str(wantSeg[2]) || g[0].OriginTerminal != str(wantSeg[6]) || g[0].DestinationTerminal != str(wantSeg[9]) || g[0].DivertedTo != str(wantSeg[21]):
			t.Fatalf("segment %+v, want %v", g, wantSeg)
		case !g[0].IsShowHotelLink || g[0].OriginGate != "" || g[0].EstimatedDepartAt != nil || g[0].ActualDepartAt == nil || !g[0].ActualDepartAt.Equal(when) || g[0].ChangeSeq != 2 || g[0].PreviousDepartAt == nil || g[0].PreviousArrivalAt != nil:
			t.Fatalf("segment values %+v", g[0])
		case len(r.Passengers) != 1 || r.Passengers[0].Lastname != str(wantPax[0]) || r.Passengers[0].Firstname != str(wantPax[1]):
			t.Fatalf("passengers %+v, want %v", r.Passengers, wantPax)
		case list[1].ID != str(ref[1][0]) || list[1].MemberID != str(ref[1][1]) || list[1].Segments != nil || list[1].Passengers != nil:
			t.Fatalf("second reservation %+v, want %v", list[1], ref[1])
		}
	})
}
