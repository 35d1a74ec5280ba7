package account

import (
	"context"
	"errors"
	"fmt"
	"time"

	"members/internal/apperr"
)

// The members import provisions a batch of members at a time: the same
// rules and outcomes as Provision one after another, written in one
// transaction (ProvisionStore.SaveProvisionedBatch) instead of one each.

// ProvisionItem is one member of a batch: the booking site's number and
// the member as sent.
type ProvisionItem struct {
	Number string
	Input  ProvisionInput
}

// ProvisionResult is what one item of a batch did: its outcome (created,
// updated, unchanged) or Err, the item's own fault (Invalid with the
// fields, ErrEmailTaken), with nothing of it written.
type ProvisionResult struct {
	Outcome string
	Err     error
}

// ProvisionWrite is one member a batch writes: created (Create, with the
// old system's hash) or updated (the booking site's fields).
type ProvisionWrite struct {
	Number       string
	Member       Member
	PasswordHash string
	Create       bool
}

// BatchOptions tune ProvisionBatch.
type BatchOptions struct {
	// DryRun checks every item against the rules and the database (the
	// e-mails taken included) and writes nothing.
	DryRun bool
	// BeforeCommit, when set, runs in the batch's transaction after its
	// writes, before the commit (the import's crash test kills the
	// process there).
	BeforeCommit func()
}

// ProvisionBatchStore is the storage of a batch (store.ProvisionStore).
type ProvisionBatchStore interface {
	// ProvisionedByNumbers returns the live members of numbers, by number
	// (a number without one is absent).
	ProvisionedByNumbers(ctx context.Context, numbers []string) (map[string]ProvisionedMember, error)
	// SaveProvisionedBatch writes ws in one transaction, in order, and
	// answers one error per write: nil, ErrEmailTaken (an address another
	// member holds, in any case, counting the batch's earlier writes) or
	// ErrProvisionRace (a creation that met a parallel one of the same
	// number); a refused write leaves nothing of itself. dryRun rolls the
	// transaction back. beforeCommit (nil: none) runs before the commit.
	SaveProvisionedBatch(ctx context.Context, ws []ProvisionWrite, now time.Time, dryRun bool, beforeCommit func()) ([]error, error)
	// LiveResets returns which of the members have a usable password link.
	LiveResets(ctx context.Context, memberIDs []string, now time.Time) (map[string]bool, error)
}

// ProvisionBatch provisions items as Provision would, one after another,
// in one transaction: one result per item, in order. An item refused
// (field rules, an address taken) writes nothing and does not stop the
// others; an error is a failure of the whole batch (nothing of it kept).
// The members created without a password hash, and those still without
// one and without a usable link, are mailed their set-password link once
// the batch is committed (as Provision does after its own).
func (p *Provisioner) ProvisionBatch(ctx context.Context, items []ProvisionItem, opt BatchOptions) ([]ProvisionResult, error) {
	bs, ok := p.store.(ProvisionBatchStore)
	if !ok {
		return nil, errors.New("provision batch: the store writes one member at a time")
	}
	out := make([]ProvisionResult, len(items))
	// A number twice in a batch: the later item sees the earlier one's
	// outcome, so the batch is cut before the repeat and each part is
	// written after the one before (Provision's order).
	for start := 0; start < len(items); {
		end, seen := start, map[string]bool{}
		for ; end < len(items) && !seen[items[end].Number]; end++ {
			seen[items[end].Number] = true
		}
		if err := p.provisionRun(ctx, bs, items[start:end], out[start:end], opt); err != nil {
			return nil, err
		}
		start = end
	}
	return out, nil
}

// provisionRun is ProvisionBatch over items whose numbers are distinct.
func (p *Provisioner) provisionRun(ctx context.Context, bs ProvisionBatchStore, items []ProvisionItem, out []ProvisionResult, opt BatchOptions) error {
	now := p.svc.Now()
	members := make([]Member, len(items))
	var numbers []string
	for i, it := range items {
		m, e := p.Validate(it.Number, it.Input)
		if !e.Empty() {
			out[i].Err = apperr.FromFields(e)
			continue
		}
		members[i] = m
		numbers = append(numbers, it.Number)
	}
	if len(numbers) == 0 {
		return nil
	}
	current, err := bs.ProvisionedByNumbers(ctx, numbers)
	if err != nil {
		return fmt.Errorf("provision batch: %w", err)
	}
	// what each valid item does, and the member it leaves (for the mail)
	var writes []ProvisionWrite
	var at []int
	hashes := make([]string, len(items))
	for i, it := range items {
		if out[i].Err != nil {
			continue
		}
		m := members[i]
		cur, exists := current[it.Number]
		switch {
		case !exists:
			m.ID = newID()
			writes = append(writes, ProvisionWrite{Number: it.Number, Member: m, PasswordHash: it.Input.PasswordHash, Create: true})
			at = append(at, i)
			out[i].Outcome, hashes[i] = OutcomeCreated, it.Input.PasswordHash
		case sameFields(cur.Member, m):
			m = cur.Member
			out[i].Outcome, hashes[i] = OutcomeUnchanged, cur.PasswordHash
		default:
			m.ID = cur.Member.ID
			writes = append(writes, ProvisionWrite{Number: it.Number, Member: m})
			at = append(at, i)
			out[i].Outcome, hashes[i] = OutcomeUpdated, cur.PasswordHash
		}
		members[i] = m
	}
	errs, err := bs.SaveProvisionedBatch(ctx, writes, now, opt.DryRun, opt.BeforeCommit)
	if err != nil {
		return fmt.Errorf("provision batch: %w", err)
	}
	if len(errs) != len(writes) {
		return fmt.Errorf("provision batch: the store answered %d results for %d writes", len(errs), len(writes))
	}
	var raced []int
	for j, werr := range errs {
		i := at[j]
		switch {
		case werr == nil:
		case errors.Is(werr, ErrProvisionRace):
			raced = append(raced, i)
		case errors.Is(werr, ErrEmailTaken):
			out[i] = ProvisionResult{Err: ErrEmailTaken}
		default:
			return fmt.Errorf("provision batch: %w", werr)
		}
	}
	if opt.DryRun {
		return nil
	}
	// A number another call created meanwhile: as Provision, again as
	// an update of that member (one at a time; a race is rare).
	for _, i := range raced {
		outcome, err := p.Provision(ctx, items[i].Number, items[i].Input)
		if errors.Is(err, ErrEmailTaken) || apperr.CodeOf(err) == apperr.Invalid {
			out[i] = ProvisionResult{Err: err}
			continue
		}
		if err != nil {
			return err
		}
		out[i] = ProvisionResult{Outcome: outcome}
		hashes[i] = "-" // Provision mailed it when owed
	}
	return p.mailSetPasswords(ctx, bs, items, out, members, hashes, now)
}

// mailSetPasswords mails the set-password link to each member of the batch
// left without a password and without a usable link.
func (p *Provisioner) mailSetPasswords(ctx context.Context, bs ProvisionBatchStore, items []ProvisionItem, out []ProvisionResult,
	members []Member, hashes []string, now time.Time) error {
	var ids []string
	for i := range items {
		if out[i].Err == nil && hashes[i] == "" {
			ids = append(ids, members[i].ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	live, err := bs.LiveResets(ctx, ids, now)
	if err != nil {
		return fmt.Errorf("provision batch: %w", err)
	}
	for i := range items {
		if out[i].Err != nil || hashes[i] != "" || live[members[i].ID] {
			continue
		}
		if err := p.sendSetPassword(ctx, members[i], now); err != nil {
			return err
		}
	}
	return nil
}
