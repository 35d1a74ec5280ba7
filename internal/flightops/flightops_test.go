package flightops

import (
	"context"
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

func TestApplyRefusesWhatCannotBe(t *testing.T) {
	dep, arr := at("2026-11-22T23:30:00Z"), at("2026-11-23T01:20:00Z") // KIX 08:30 → 10:20 JST
	fresh := NewState(Flight{Flight: "MM171", Date: "2026-11-23", Origin: "KIX", Destination: "CTS", DepartAt: dep, ArrivalAt: arr}, dep)
	ev := func(id string, kind Kind, occurred string) Event {
		return Event{ID: id, Flight: "MM171", Date: "2026-11-23", Kind: kind, OccurredAt: at(occurred)}
	}
	cancelled, _, err := fresh.Apply(ev("c", KindCancellation, "2026-11-22T20:00:00Z"))
	if err != nil || !cancelled.IsCancelled() {
		t.Fatalf("cancellation: %+v %v", cancelled, err)
	}
	early := ev("d-early", KindDelay, "2026-11-22T19:00:00Z")
	early.Departure = ptr(at("2026-11-22T15:30:00Z")) // 00:30 JST: thirteen hours before the schedule
	same := ev("d-same", KindDelay, "2026-11-22T19:00:00Z")
	same.Departure = ptr(dep)
	gateAfter := ev("g", KindGate, "2026-11-22T21:00:00Z")
	gateAfter.Gate = "5"
	delayAfter := ev("d", KindDelay, "2026-11-22T21:00:00Z")
	delayAfter.Departure = ptr(dep.Add(time.Hour))
	divertAfter := ev("v", KindDiversion, "2026-11-22T21:00:00Z")
	divertAfter.DivertedTo = "KIX"
	for name, c := range map[string]struct {
		st    State
		ev    Event
		field string
	}{
		"delay before the schedule":       {fresh, early, "departure"},
		"delay to the schedule itself":    {fresh, same, "departure"},
		"gate on a cancelled flight":      {cancelled, gateAfter, "kind"},
		"delay of a cancelled flight":     {cancelled, delayAfter, "kind"},
		"diversion of a cancelled flight": {cancelled, divertAfter, "kind"},
	} {
		got, changed, err := c.st.Apply(c.ev)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || changed || got.Sequence != c.st.Sequence || got.Gate != c.st.Gate {
			t.Errorf("%s: %+v changed=%v err=%v, want a %s error and nothing changed", name, got, changed, err, c.field)
		}
	}
	// A gate change older than the cancellation is history: not applied, not an error.
	gateBefore := ev("g0", KindGate, "2026-11-22T19:00:00Z")
	gateBefore.Gate = "5"
	if got, changed, err := cancelled.Apply(gateBefore); err != nil || changed || got.Gate != "" {
		t.Errorf("older gate on a cancelled flight: %+v %v %v", got, changed, err)
	}
	// A cancellation names no gate.
	cg := ev("cg", KindCancellation, "2026-11-22T21:00:00Z")
	cg.Gate = "5"
	if err := cg.Validate(); err == nil {
		t.Error("a cancellation with a gate was accepted")
	}
	// A time change reinstates the flight; a gate change may follow it.
	tc := ev("t", KindTimeChange, "2026-11-22T22:00:00Z")
	tc.Departure = ptr(dep.Add(time.Hour))
	st, _, err := cancelled.Apply(tc)
	if err != nil || st.IsCancelled() {
		t.Fatalf("reinstated: %+v %v", st, err)
	}
	g2 := ev("g2", KindGate, "2026-11-22T22:30:00Z")
	g2.Gate = "7"
	if st, changed, err := st.Apply(g2); err != nil || !changed || st.Gate != "7" {
		t.Fatalf("gate after reinstatement: %+v %v", st, err)
	}
}

// flightStore is a Store of one flight held in memory: Apply runs merge as
// the database's store does and keeps the result only without an error.
type flightStore struct {
	f      Flight
	st     State
	events []Event
}

func (s *flightStore) Apply(_ context.Context, ev Event, _ string, merge func(State) (State, bool, error), _ func(State) time.Time) (Result, error) {
	if len(s.events) == 0 {
		s.st = NewState(s.f, ev.OccurredAt)
	}
	next, changed, err := merge(s.st)
	if err != nil {
		return Result{}, err
	}
	s.events = append(s.events, ev)
	s.st = next
	outcome := OutcomeStale
	if changed {
		outcome = OutcomeApplied
	}
	return Result{EventID: ev.ID, Outcome: outcome, Bookings: 1}, nil
}

func (s *flightStore) Flight(context.Context, string, string) (Flight, error) { return s.f, nil }

func (s *flightStore) State(context.Context, string, string) (State, bool, []Recorded, error) {
	return s.st, len(s.events) > 0, nil, nil
}

func TestApplyOperatorTimes(t *testing.T) {
	f := Flight{Flight: "MM171", Date: "2026-11-23", Origin: "KIX", Destination: "CTS",
		DepartAt: at("2026-11-22T23:30:00Z"), ArrivalAt: at("2026-11-23T01:20:00Z")} // 08:30 → 10:20 JST
	now := func() time.Time { return at("2026-11-22T20:00:00Z") }
	for name, c := range map[string]struct {
		in       OperatorEvent
		dep, arr string // RFC 3339; empty: refused
	}{
		"delay past midnight with its date": {OperatorEvent{Departure: "2026-11-24 00:30"}, "2026-11-23T15:30:00Z", "2026-11-23T17:20:00Z"},
		"the date written with a T":         {OperatorEvent{Departure: "2026-11-23T23:45", Arrival: "01:35"}, "2026-11-23T14:45:00Z", "2026-11-23T16:35:00Z"},
		"an arrival with its date":          {OperatorEvent{Departure: "23:45", Arrival: "2026-11-24 01:35"}, "2026-11-23T14:45:00Z", "2026-11-23T16:35:00Z"},
		"a clock alone is on the date":      {OperatorEvent{Departure: "09:40"}, "2026-11-23T00:40:00Z", "2026-11-23T02:30:00Z"},
		"00:30 on the date is before 08:30": {OperatorEvent{Departure: "00:30"}, "", ""},
		"not a time":                        {OperatorEvent{Departure: "tomorrow"}, "", ""},
	} {
		st := &flightStore{f: f}
		in := c.in
		in.Flight, in.Date, in.Kind = "MM171", "2026-11-23", "delay"
		res, err := NewService(st, now).ApplyOperator(context.Background(), in)
		if c.dep == "" {
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != "departure" || len(st.events) != 0 {
				t.Errorf("%s: %+v %v, want a departure error and nothing stored", name, res, err)
			}
			continue
		}
		if err != nil || res.Outcome != OutcomeApplied {
			t.Errorf("%s: %+v %v", name, res, err)
			continue
		}
		if !st.st.EstimatedDepartAt.Equal(at(c.dep)) || !st.st.EstimatedArrivalAt.Equal(at(c.arr)) {
			t.Errorf("%s: estimated %v → %v, want %s → %s", name, st.st.EstimatedDepartAt, st.st.EstimatedArrivalAt, c.dep, c.arr)
		}
	}
}

// TestPreviousGate: the gate a card strikes through is the one the segment
// showed before a change to another gate; nothing else moves it.
func TestPreviousGate(t *testing.T) {
	for _, c := range []struct {
		name                    string
		shown, remembered, next string
		want                    string
	}{
		{"a first change", "12", "", "31", "12"},
		{"a second change: the gate last told", "31", "12", "35", "31"},
		{"back to the first gate", "31", "12", "12", "31"},
		{"the same gate again (a resend, a delay carrying it)", "31", "12", "31", "12"},
		{"an event without a gate (a delay, a terminal alone)", "31", "12", "", "12"},
		{"a first gate where none was known: assigned, not changed", "", "", "31", ""},
		{"no gate ever", "", "", "", ""},
	} {
		if got := PreviousGate(c.shown, c.remembered, c.next); got != c.want {
			t.Errorf("%s: PreviousGate(%q, %q, %q) = %q, want %q", c.name, c.shown, c.remembered, c.next, got, c.want)
		}
	}
}
