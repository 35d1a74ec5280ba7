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

	"members/internal/apperr"
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

// DefaultBuyWindow is how long lottery winners may buy after the draw.
const DefaultBuyWindow = 7 * 24 * time.Hour

// Applicable is the lottery entry page: the periods open for entry and the
// member's entries.
type Applicable struct {
	Applicable bool    `json:"applicable"`
	GogoPasses []Plan  `json:"gogoPasses"`
	Entries    []Entry `json:"entries"`
}

func inLottery(p Period) bool { return p.LotteryQuota > 0 }

// lottery fails with not found outside the lottery phase.
func (s *Service) lottery(ctx context.Context) error {
	st, err := s.public(ctx)
	if err != nil {
		return err
	}
	if !st.IsGogoPassLotteryPhase {
		return apperr.ErrNotFound
	}
	return nil
}

// Applicable lists what the member can enter. Not found outside the
// lottery phase.
func (s *Service) Applicable(ctx context.Context, memberID, lang string) (Applicable, error) {
	if err := s.lottery(ctx); err != nil {
		return Applicable{}, err
	}
	entries, err := s.entries(ctx, memberID, lang)
	if err != nil {
		return Applicable{}, err
	}
	entered := map[string]bool{}
	for _, e := range entries {
		entered[e.PeriodID] = true
	}
	plans, err := s.plans(ctx, lang, func(p Period) bool { return inLottery(p) && !entered[p.ID] })
	if err != nil {
		return Applicable{}, err
	}
	return Applicable{Applicable: len(plans) > 0, GogoPasses: plans, Entries: entries}, nil
}

// EntryConfirmation is what the member confirms before entering.
type EntryConfirmation struct {
	Plan     Plan   `json:"plan"`
	Period   Period `json:"period"`
	FareType string `json:"fareType"`
}

// ValidateEntry checks an entry (400 with field errors, 409 when already
// entered) and returns what will be entered.
func (s *Service) ValidateEntry(ctx context.Context, memberID, lang string, in Selection) (EntryConfirmation, error) {
	if err := s.lottery(ctx); err != nil {
		return EntryConfirmation{}, err
	}
	plan, period, err := s.resolve(ctx, lang, in, inLottery)
	if err != nil {
		return EntryConfirmation{}, err
	}
	entries, err := s.d.Store.Entries(ctx, memberID)
	if err != nil {
		return EntryConfirmation{}, fmt.Errorf("pass entries: %w", err)
	}
	for _, e := range entries {
		if e.PeriodID == period.ID {
			return EntryConfirmation{}, ErrAlreadyEntered
		}
	}
	plan.Periods = []Period{period}
	return EntryConfirmation{Plan: plan, Period: period, FareType: in.FareType}, nil
}

// Apply enters the lottery and mails the entry confirmation (a mail
// failure does not undo the entry).
func (s *Service) Apply(ctx context.Context, memberID, lang string, in Selection) (Entry, error) {
	c, err := s.ValidateEntry(ctx, memberID, lang, in)
	if err != nil {
		return Entry{}, err
	}
	e := Entry{
		ID: s.d.NewID(), MemberID: memberID, PlanID: c.Plan.ID, PeriodID: c.Period.ID, FareType: c.FareType,
		Lang: lang, Result: ResultPending, CreatedAt: s.d.Now().UTC().Truncate(time.Millisecond),
		Name: c.Plan.Name, NameAlt: c.Plan.NameAlt,
		AvailablePeriodToBoard: c.Period.AvailablePeriodToBoard, AvailablePeriodToBook: c.Period.AvailablePeriodToBook,
	}
	if err := s.d.Store.InsertEntry(ctx, e); err != nil {
		if errors.Is(err, ErrConflict) {
			return Entry{}, ErrAlreadyEntered
		}
		return Entry{}, fmt.Errorf("insert entry: %w", err)
	}
	s.mail(ctx, memberID, lang, Mail{Kind: MailEntry, NameKey: s.nameKey(ctx, c.Plan, c.Period.ID), Period: c.Period.AvailablePeriodToBoard})
	return e, nil
}

func (s *Service) entries(ctx context.Context, memberID, lang string) ([]Entry, error) {
	entries, err := s.d.Store.Entries(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("pass entries: %w", err)
	}
	for i := range entries {
		entries[i].Name, entries[i].NameAlt = s.d.Translate(lang, entries[i].Name), s.d.Translate(lang, entries[i].NameAlt)
	}
	return entries, nil
}

// Entries returns the member's lottery entries.
func (s *Service) Entries(ctx context.Context, memberID, lang string) ([]Entry, error) {
	return s.entries(ctx, memberID, lang)
}
