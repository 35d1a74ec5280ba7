package pass

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

func entrants(n int) []Entry {
	es := make([]Entry, n)
	for i := range es {
		es[i] = Entry{ID: fmt.Sprintf("entry-%04d", i), PeriodID: "p"}
	}
	return es
}

func ids(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	slices.Sort(out)
	return out
}

func TestPickIsRepeatableAndOrderFree(t *testing.T) {
	es := entrants(50)
	a := ids(Pick("seed-1", es, 10))
	rev := slices.Clone(es)
	slices.Reverse(rev)
	if b := ids(Pick("seed-1", rev, 10)); !slices.Equal(a, b) {
		t.Fatalf("same seed, other order: %v != %v", a, b)
	}
	if c := ids(Pick("seed-2", es, 10)); slices.Equal(a, c) {
		t.Fatalf("another seed drew the same winners %v", a)
	}
	if len(a) != 10 {
		t.Fatalf("winners = %d, want the quota 10", len(a))
	}
	if n := len(Pick("s", es, 80)); n != 50 {
		t.Fatalf("quota above entrants: %d winners, want all 50", n)
	}
	if n := len(Pick("s", es, 0)); n != 0 {
		t.Fatalf("quota 0: %d winners", n)
	}
}

// TestPickIsFair draws 4 of 20 entrants with 5,000 seeds: every entrant
// should win about 1,000 times (p = 0.2). A chi-square over the 20 counts
// stays under the 0.999 quantile for 19 degrees of freedom (43.8).
func TestPickIsFair(t *testing.T) {
	const (
		n, quota, draws = 20, 4, 5000
	)
	es := entrants(n)
	wins := map[string]int{}
	for s := range draws {
		for _, w := range Pick(fmt.Sprintf("seed-%d", s), es, quota) {
			wins[w.ID]++
		}
	}
	expected := float64(draws*quota) / n
	chi := 0.0
	for _, e := range es {
		d := float64(wins[e.ID]) - expected
		chi += d * d / expected
	}
	if chi > 43.8 || math.IsNaN(chi) {
		t.Fatalf("chi-square %.1f over %v: the draw favours some entrants", chi, wins)
	}
}

func TestWinnersPerPeriodQuota(t *testing.T) {
	var es []Entry
	for i := range 6 {
		es = append(es, Entry{ID: fmt.Sprintf("a%d", i), PeriodID: "A"}, Entry{ID: fmt.Sprintf("b%d", i), PeriodID: "B"})
	}
	won := winners("seed", es, map[string]int{"A": 2, "B": 5})
	var a, b int
	for id := range won {
		if id[0] == 'a' {
			a++
		} else {
			b++
		}
	}
	if a != 2 || b != 5 {
		t.Fatalf("winners A=%d B=%d, want 2 and 5", a, b)
	}
}
