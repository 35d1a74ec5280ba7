package payment

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// ErrConflict is what stores return for a unique-key clash.
var ErrConflict = errors.New("payment: conflict")

// ErrSameGoods is CreateProcess's refusal of an order whose exclusive key
// an open process of the member holds (the same pass period, its slip not
// paid yet), when no purchase block stands in the way.
var ErrSameGoods = errors.New("payment: an open payment of the member buys the same goods")

// Changes are the non-status columns a step records. Nil fields stay.
type Changes struct {
	GatewayPaymentID *string
	GatewayStatus    *string
	NextActionURL    *string
	FailureCode      *string
	NextCheckAt      *time.Time
	ExpiresAt        *time.Time
	// BlockUntil moves the end of the purchase block (continue).
	BlockUntil *time.Time
	// Lease sets the lease (owner and until); ReleaseLease clears it.
	LeaseOwner   string
	LeaseUntil   time.Time
	ReleaseLease bool
	// Notify records, with the change, that the member is owed a mail
	// about it (notified = FALSE): the caller sends it and marks it sent,
	// and the worker's sweep sends what a crash in between left unsent.
	Notify bool
}

// SettleFunc creates the goods inside the settlement's unit of work.
type SettleFunc func(tx Tx) (Granted, error)

// EndGoodsFunc ends the goods a refund pays back inside the unit of work
// that records the refund as made; true when it changed them.
type EndGoodsFunc func(tx Tx) (bool, error)

// SettleOutcome is what a settlement did.
type SettleOutcome struct {
	// Settled: the goods were granted.
	Settled bool
	// Refused is the reason nothing was granted though the money was
	// taken (the process is failed with it; a refund is recorded).
	Refused string
}

// RefundIntent is a recorded refund.
type RefundIntent struct {
	Reason string
	Amount int64
}

// Refund reasons the engine records itself.
const (
	RefundLate    = "late"    // captured after the process expired or failed
	RefundRefused = "refused" // captured, but the goods could not be granted
)

// Refusal reasons are the failure codes of a process whose capture was
// refunded instead of granted; each starts with RefusedPrefix.
const (
	RefusedPrefix       = "refused_"
	RefusedMemberErased = "refused_member_erased" // the account was deleted before the capture arrived
)

// IsRefusal reports whether a failure code is a refused grant's.
func IsRefusal(code string) bool { return strings.HasPrefix(code, RefusedPrefix) }

// RefusedGrant is what a product's Grant returns (possibly wrapped) when
// the member may not have the goods after all (the same pass twice, won
// by a race the checks before payment could not see). The engine then
// fails the process and refunds the capture instead of settling.
type RefusedGrant struct{ Reason string }

func (r *RefusedGrant) Error() string { return "payment: grant refused: " + r.Reason }

// RefuseGrant returns a *RefusedGrant for reason (RefusedPrefix is added
// when missing: "already_held" becomes the failure code
// "refused_already_held").
func RefuseGrant(reason string) error {
	if !IsRefusal(reason) {
		reason = RefusedPrefix + reason
	}
	return &RefusedGrant{Reason: reason}
}

// Store keeps payment processes. Every status change is conditional on
// the current status, so an illegal or repeated move changes nothing and
// reports false.
type Store interface {
	CardStore
	AuditStore
	// CreateProcess inserts p (status prepared), holding its member's
	// purchase block until p.BlockUntil (its ExpiresAt when zero). In the
	// same transaction, the block of a pending process of the member whose
	// BlockUntil has passed is given up (it stays pending, payable until
	// its deadline), and another prepared process of the member is expired
	// (failure code superseded). A pending process still blocking, or a
	// clash on (member, requestId), is ErrConflict; an open process of the
	// member with p's ExclusiveKey is ErrSameGoods.
	CreateProcess(ctx context.Context, p Process) error
	Process(ctx context.Context, id string) (Process, error)
	ProcessByRequest(ctx context.Context, memberID, requestID string) (Process, error)
	// BlockingProcess is the member's prepared or pending process that
	// blocks a new purchase at now (ErrNotFound): the one holding the
	// block, while its BlockUntil is after now.
	BlockingProcess(ctx context.Context, memberID string, now time.Time) (Process, error)
	// PendingProcesses are the member's pending processes, oldest first.
	PendingProcesses(ctx context.Context, memberID string) ([]Process, error)
	// NextProcess is the member's first process created after p
	// (ErrNotFound): for a superseded p, the order that replaced it.
	NextProcess(ctx context.Context, p Process) (Process, error)
	// Move changes status from → to (and the changes) when the process is
	// in from and, for a move to expired, when it is due.
	Move(ctx context.Context, id string, from, to Status, c Changes, now time.Time) (bool, error)
	Update(ctx context.Context, id string, c Changes, now time.Time) error
	// Settle moves pending → settled when the process has not expired,
	// releasing its lease, runs grant in the same transaction, stores what
	// it granted and saves card when not nil. Outcome Unsettled when the
	// process was not pending or expired. When the member is erased, or
	// grant refuses (a *RefusedGrant), nothing is granted: in the same
	// transaction the process moves to failed with the refusal's reason as
	// failure code and a refund of the whole amount is recorded under
	// RefundRefused, to be made by the caller (or, after a crash, by the
	// worker).
	Settle(ctx context.Context, id string, now time.Time, needsNotify bool, card *SavedCard, grant SettleFunc) (SettleOutcome, error)
	// ClaimRefunds leases processes with a refund recorded by the engine
	// itself (RefundLate, RefundRefused) and not done, recorded before
	// olderThan: a crash between recording and making it.
	ClaimRefunds(ctx context.Context, owner string, now, leaseUntil, olderThan time.Time, limit int) ([]Process, error)
	// OpenRefunds lists the refunds of a process not done yet.
	OpenRefunds(ctx context.Context, id string) ([]RefundIntent, error)
	// ClaimDue leases open processes whose next check is due and ended
	// ones not yet notified (Changes.Notify) or whose refund's mail is
	// owed, up to limit, for owner until leaseUntil.
	ClaimDue(ctx context.Context, owner string, now, leaseUntil time.Time, limit int) ([]Process, error)
	// ClaimOne leases one process when its lease is free.
	ClaimOne(ctx context.Context, id, owner string, now, leaseUntil time.Time) (bool, error)
	// ReleaseLeases frees every lease owner holds (processes and jobs),
	// returning how many it freed.
	ReleaseLeases(ctx context.Context, owner string) (int64, error)
	MarkNotified(ctx context.Context, id string) error
	// SetSlip records the slip of a process once; true for the caller
	// that recorded it.
	SetSlip(ctx context.Context, id string, slip json.RawMessage, now time.Time) (bool, error)
	// TakeSecret erases the secret when it is still secret; true for the
	// one caller that erased it.
	TakeSecret(ctx context.Context, id string, secret json.RawMessage, now time.Time) (bool, error)
	// SecretMailed records that the outbox holds the mail that carries the
	// process's secret (the clock of its erasure starts).
	SecretMailed(ctx context.Context, id string, now time.Time) error
	// ForgetSecrets erases the secrets mailed before mailedBefore and
	// those of processes settled before settledBefore; how many.
	ForgetSecrets(ctx context.Context, mailedBefore, settledBefore time.Time) (int64, error)
	// AddRefund records an intended refund (kept when it exists) and
	// returns the recorded amount and whether it is done.
	AddRefund(ctx context.Context, id, reason string, amount int64, now time.Time) (int64, bool, error)
	// CompleteRefund marks the refund done once and adds it to the
	// process (settled → refunded; an expired process keeps its status),
	// and in the same transaction runs end (nil: no goods to end), the
	// product's end of the goods the refund pays back; when end changed
	// them, the member's mail about it is recorded as owed in it too. It
	// reports whether this call recorded the mail as owed. A refund done
	// before changes nothing (its goods ended with it).
	CompleteRefund(ctx context.Context, id, reason string, now time.Time, end EndGoodsFunc) (bool, error)
	// RefundMailed records that the refund's mail is in the outbox (or can
	// never be sent).
	RefundMailed(ctx context.Context, id string) error
	// RecordEvent stores a webhook event id; false when it was stored before.
	SeenEvent(ctx context.Context, eventID string) (bool, error)
	RecordEvent(ctx context.Context, eventID, typ string, now time.Time) error
}
