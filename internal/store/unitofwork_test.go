package store

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"members/internal/coupon"
	"members/internal/pass"
)

type foreignTx struct{}

func (foreignTx) UnitOfWork() {}

func TestUnitOfWork(t *testing.T) {
	tx := &sql.Tx{}
	if got, err := TxOf(UnitOfWork(tx)); err != nil || got != tx {
		t.Errorf("TxOf(UnitOfWork(tx)) = %p, %v", got, err)
	}
	if got, err := TxOf(nil); err != nil || got != nil {
		t.Errorf("TxOf(nil) = %p, %v", got, err)
	}
	if _, err := TxOf(foreignTx{}); !errors.Is(err, errForeignTx) {
		t.Errorf("a foreign unit of work = %v", err)
	}
	// A pass or coupon exists only through a settlement: without its unit
	// of work nothing is written.
	ctx := context.Background()
	if err := (&PassStore{}).InsertPass(ctx, nil, pass.Pass{}); !errors.Is(err, errNoTx) {
		t.Errorf("pass without a unit of work = %v", err)
	}
	if err := (&CouponStore{}).InsertCoupon(ctx, foreignTx{}, coupon.Coupon{}); !errors.Is(err, errForeignTx) {
		t.Errorf("coupon in a foreign unit of work = %v", err)
	}
}
