package flightops

import (
	"errors"
	"testing"
	"time"

	"members/internal/booking"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func ptr(t time.Time) *time.Time { return &t }

func TestValidate(t *testing.T) {
	ok := Event{ID: "e1", Flight: "MM101", Date: "2026-11-23", Kind: KindDelay, OccurredAt: at("2026-11-23T00:00:00Z"),
		Departure: ptr(at("2026-11-23T01:40:00Z"))}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid event: %v", err)
	}
	cases := map[string]struct {
		change func(*Event)
		field  string
	}{
		"no id":            {func(e *Event) { e.ID = "" }, "id"},
		"id with a space":  {func(e *Event) { e.ID = "a b" }, "id"},
		"bad flight":       {func(e *Event) { e.Flight = "flight 1" }, "flight"},
		"bad date":         {func(e *Event) { e.Date = "23/11/2026" }, "date"},
		"unknown kind":     {func(e *Event) { e.Kind = "boarding" }, "kind"},
		"no time":          {func(e *Event) { e.OccurredAt = time.Time{} }, "occurredAt"},
		"delay no time":    {func(e *Event) { e.Departure = nil }, "departure"},
		"arrival first":    {func(e *Event) { e.Arrival = ptr(at("2026-11-23T01:00:00Z")) }, "arrival"},
		"gate without one": {func(e *Event) { e.Kind, e.Departure = KindGate, nil }, "gate"},
		"bad gate":         {func(e *Event) { e.Gate = "<b>" }, "gate"},
		"diversion nowhere": {func(e *Event) {
			e.Kind, e.Departure, e.DivertedTo = KindDiversion, nil, "XXX"
		}, "divertedTo"},
		"cancel with times": {func(e *Event) { e.Kind = KindCancellation }, "departure"},
	}
	for name, c := range cases {
		ev := ok
		c.change(&ev)
		var fe *FieldError
		if err := ev.Validate(); !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%s: got %v, want a %s error", name, err, c.field)
		}
	}
}

func TestApplyOrdering(t *testing.T) {
	dep, arr := at("2026-11-23T00:15:00Z"), at("2026-11-23T04:15:00Z") // NRT 09:15 JST
	st := NewState(Flight{Flight: "MM101", Date: "2026-11-23", Origin: "NRT", Destination: "TPE", DepartAt: dep, ArrivalAt: arr}, dep)
	ev := func(id string, kind Kind, occurred string) Event {
		return Event{ID: id, Flight: "MM101", Date: "2026-11-23", Kind: kind, OccurredAt: at(occurred)}
	}
	d1 := ev("d1", KindDelay, "2026-11-22T20:00:00Z")
	d1.Departure = ptr(dep.Add(40 * time.Minute))
	d2 := ev("d2", KindDelay, "2026-11-22T21:00:00Z")
	d2.Departure, d2.Gate = ptr(dep.Add(90*time.Minute)), "21"

	st, changed, err := st.Apply(d2)
	if err != nil || !changed || st.Sequence != 1 || !st.EstimatedDepartAt.Equal(dep.Add(90*time.Minute)) ||
		!st.EstimatedArrivalAt.Equal(arr.Add(90*time.Minute)) || st.FlightStatus != booking.FlightNotYetDepartedWithDelay || st.Gate != "21" {
		t.Fatalf("delay: %+v %v %v", st, changed, err)
	}
	// The older delay arrives late: it changes nothing.
	if st2, changed, _ := st.Apply(d1); changed || !st2.EstimatedDepartAt.Equal(dep.Add(90*time.Minute)) || st2.Sequence != 1 {
		t.Fatalf("late older delay applied: %+v", st2)
	}
	// An older gate change arriving late does not overwrite the newer gate,
	// but an older event of another group still applies.
	g := ev("g", KindGate, "2026-11-22T20:30:00Z")
	g.Gate = "5"
	if st2, changed, _ := st.Apply(g); changed || st2.Gate != "21" {
		t.Fatalf("late gate applied: %+v", st2)
	}
	div := ev("v", KindDiversion, "2026-11-22T20:30:00Z")
	div.DivertedTo = "KHH"
	st, changed, _ = st.Apply(div)
	if !changed || st.DivertedTo != "KHH" || st.Sequence != 2 {
		t.Fatalf("diversion: %+v", st)
	}
	// Back on time withdraws the estimates; a cancellation after it wins.
	st, _, _ = st.Apply(ev("o", KindOnTime, "2026-11-22T22:00:00Z"))
	if st.EstimatedDepartAt != nil || st.FlightStatus != booking.FlightOnTime {
		t.Fatalf("on time: %+v", st)
	}
	st, _, _ = st.Apply(ev("c", KindCancellation, "2026-11-22T23:00:00Z"))
	if !st.IsCancelled() || st.Sequence != 4 {
		t.Fatalf("cancellation: %+v", st)
	}
	// A time change moves the schedule, keeping the original.
	tc := ev("t", KindTimeChange, "2026-11-22T23:30:00Z")
	tc.Departure = ptr(dep.Add(2 * time.Hour))
	st, _, _ = st.Apply(tc)
	if !st.DepartAt.Equal(dep.Add(2*time.Hour)) || !st.ArrivalAt.Equal(arr.Add(2*time.Hour)) || !st.OriginalDepartAt.Equal(dep) {
		t.Fatalf("time change: %+v", st)
	}
	// A time change onto another local day is refused.
	tc2 := ev("t2", KindTimeChange, "2026-11-23T00:00:00Z")
	tc2.Departure = ptr(at("2026-11-23T16:00:00Z")) // 01:00 on the 24th in Tokyo
	var fe *FieldError
	if _, _, err := st.Apply(tc2); !errors.As(err, &fe) {
		t.Fatalf("time change to another day: %v", err)
	}
}

func TestVerify(t *testing.T) {
	secret := []byte("s3cret")
	now := time.Unix(1_800_000_000, 0)
	body := []byte(`{"id":"e1"}`)
	if err := Verify(secret, Sign(secret, now, body), body, now.Add(time.Minute)); err != nil {
		t.Fatalf("good signature: %v", err)
	}
	if err := Verify(secret, Sign([]byte("other"), now, body), body, now); !errors.Is(err, ErrBadSignature) {
		t.Errorf("wrong secret: %v", err)
	}
	if err := Verify(secret, Sign(secret, now, body), []byte(`{"id":"e2"}`), now); !errors.Is(err, ErrBadSignature) {
		t.Errorf("changed body: %v", err)
	}
	if err := Verify(secret, "", body, now); !errors.Is(err, ErrBadSignature) {
		t.Errorf("no header: %v", err)
	}
	if err := Verify(secret, Sign(secret, now, body), body, now.Add(6*time.Minute)); !errors.Is(err, ErrStale) {
		t.Errorf("old timestamp: %v", err)
	}
	if err := Verify(nil, Sign(nil, now, body), body, now); !errors.Is(err, ErrBadSignature) {
		t.Errorf("empty secret accepted: %v", err)
	}
}
