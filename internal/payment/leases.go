package payment

import (
	"context"
	"time"
)

// A purchase step caught in a database outage (a PostgreSQL restart, a
// full disk) fails its write and then the release of its lease too. The
// lease would keep every instance's background work off the process until
// it lapsed (a minute and more), while the member's payment waits at the
// gateway and every new purchase of theirs is refused as pending. So the
// engine remembers each lease it could not give back, and its next round
// of background work (every second) gives it back with the check due at
// once, then takes the process up in the same round: the purchase goes on
// within seconds of the database's return, not at the lease's end.

// leaseMargin is how long before its end a lease is no longer given back
// by its id (another instance takes a lapsed one; clocks differ a little).
const leaseMargin = time.Second

// leaseNotReturned records that the lease on process id, held until
// until, could not be given back.
func (e *Engine) leaseNotReturned(id string, until time.Time) {
	if !until.After(e.now()) {
		return // lapsed already: the background work takes it
	}
	e.unreturnedMu.Lock()
	e.unreturned[id] = until
	e.unreturnedMu.Unlock()
}

// returnLeases gives back the leases leaseNotReturned recorded, each with
// its check due now; one the database still refuses is tried again next
// round, until its lease is about to end by itself.
func (e *Engine) returnLeases(ctx context.Context) {
	e.unreturnedMu.Lock()
	due := make(map[string]time.Time, len(e.unreturned))
	for id, until := range e.unreturned {
		due[id] = until
	}
	e.unreturnedMu.Unlock()
	for id, until := range due {
		now := e.now()
		if now.Add(leaseMargin).Before(until) {
			// still this instance's lease: nobody else can have it
			if err := e.store.Update(ctx, id, Changes{ReleaseLease: true, NextCheckAt: &now}, now); err != nil {
				continue
			}
			e.log.Info("payment: lease given back after a failed release", "process", id)
		}
		e.unreturnedMu.Lock()
		if e.unreturned[id].Equal(until) {
			delete(e.unreturned, id)
		}
		e.unreturnedMu.Unlock()
	}
}
