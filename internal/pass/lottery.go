package pass

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"time"
)

// Pick returns the winners among entrants of one period: each entrant's
// ticket is SHA-256(seed ":" entry id), the quota lowest tickets win. With
// a random seed every entrant has the same chance; with the recorded seed
// anyone can recompute the draw (sha256sum is enough) and get the same
// winners, whatever order the entries are read in.
func Pick(seed string, entrants []Entry, quota int) []Entry {
	type ticket struct {
		t string
		e Entry
	}
	ts := make([]ticket, len(entrants))
	for i, e := range entrants {
		h := sha256.Sum256([]byte(seed + ":" + e.ID))
		ts[i] = ticket{hex.EncodeToString(h[:]), e}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].t < ts[j].t })
	if quota > len(ts) {
		quota = len(ts)
	}
	out := make([]Entry, 0, quota)
	for _, t := range ts[:quota] {
		out = append(out, t.e)
	}
	return out
}

// NewSeed returns a random seed (128 bits, hex).
func NewSeed() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b)
}

// ErrNothingToDraw is a draw with no pending entries.
var ErrNothingToDraw = errors.New("lottery: no pending entries")

// winners decides every pending entry with seed: per period, the period's
// quota of winners by Pick.
func winners(seed string, entries []Entry, quota map[string]int) map[string]bool {
	byPeriod := map[string][]Entry{}
	for _, e := range entries {
		byPeriod[e.PeriodID] = append(byPeriod[e.PeriodID], e)
	}
	won := map[string]bool{}
	for period, es := range byPeriod {
		for _, w := range Pick(seed, es, quota[period]) {
			won[w.ID] = true
		}
	}
	return won
}

func (s *Service) quotas(ctx context.Context) (map[string]int, error) {
	plans, err := s.d.Store.Plans(ctx)
	if err != nil {
		return nil, fmt.Errorf("lottery plans: %w", err)
	}
	q := map[string]int{}
	for _, p := range plans {
		for _, pe := range p.Periods {
			q[pe.ID] = pe.LotteryQuota
		}
	}
	return q, nil
}

// Draw decides every pending entry with seed (a new random one when
// empty), records the draw and its seed, and mails every entrant the
// result in the language they entered in. Winners may buy for window.
func (s *Service) Draw(ctx context.Context, seed string, window time.Duration) (Draw, error) {
	if seed == "" {
		seed = NewSeed()
	}
	if window <= 0 {
		window = DefaultBuyWindow
	}
	entries, err := s.d.Store.PendingEntries(ctx)
	if err != nil {
		return Draw{}, fmt.Errorf("lottery: %w", err)
	}
	if len(entries) == 0 {
		return Draw{}, ErrNothingToDraw
	}
	quota, err := s.quotas(ctx)
	if err != nil {
		return Draw{}, err
	}
	won := winners(seed, entries, quota)
	now := s.d.Now().UTC().Truncate(time.Millisecond)
	d := Draw{ID: s.d.NewID(), Seed: seed, Entrants: len(entries), DrawnAt: now, BuyUntil: now.Add(window)}
	for i := range entries {
		entries[i].Result = ResultLost
		if won[entries[i].ID] {
			entries[i].Result = ResultWon
			d.WinnerIDs = append(d.WinnerIDs, entries[i].ID)
		}
	}
	d.Winners = len(d.WinnerIDs)
	if err := s.d.Store.RecordDraw(ctx, d, entries); err != nil {
		return Draw{}, fmt.Errorf("lottery: record draw: %w", err)
	}
	for _, e := range entries {
		kind := MailLotteryLost
		if e.Result == ResultWon {
			kind = MailLotteryWon
		}
		// the entry's language is the fallback: the member entered there
		s.mail(ctx, e.MemberID, e.Lang, Mail{Kind: kind, NameKey: e.Name, Period: e.AvailablePeriodToBoard, UntilAt: d.BuyUntil})
	}
	return d, nil
}

// VerifyLastDraw recomputes the latest draw from its recorded seed and
// entrants and reports whether the recorded winners are the same.
func (s *Service) VerifyLastDraw(ctx context.Context) (Draw, bool, error) {
	d, entrants, err := s.d.Store.LastDraw(ctx)
	if err != nil {
		return Draw{}, false, fmt.Errorf("lottery: %w", err)
	}
	quota, err := s.quotas(ctx)
	if err != nil {
		return Draw{}, false, err
	}
	won := winners(d.Seed, entrants, quota)
	for _, e := range entrants {
		if (e.Result == ResultWon) != won[e.ID] {
			return d, false, nil
		}
	}
	return d, true, nil
}
