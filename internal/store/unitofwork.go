package store

import (
	"database/sql"
	"errors"

	"members/internal/payment"
)

// unitOfWork is the settlement transaction (or the one recording a
// refund as made) handed to the payment products as a payment.Tx: a
// product passes it back to its own store (PointStore.Create,
// PassStore.InsertPass, CouponStore.InsertCoupon, CouponStore.EndByRefund),
// which writes in the transaction, so the domains never see the database.
type unitOfWork struct{ tx *sql.Tx }

// UnitOfWork marks the settlement transaction (payment.Tx).
func (unitOfWork) UnitOfWork() {}

// UnitOfWork wraps tx for a product's Grant (the engine's settlement, and
// tests that grant in a transaction of their own) or EndGoods (a refund's
// record).
func UnitOfWork(tx *sql.Tx) payment.Tx { return unitOfWork{tx: tx} }

// errForeignTx is a payment.Tx this package did not make (a wiring fault);
// errNoTx a write that exists only inside a settlement, called without one.
var (
	errForeignTx = errors.New("store: unit of work from another store")
	errNoTx      = errors.New("store: no unit of work")
)

// TxOf is the transaction behind a unit of work (nil for a nil one): for
// the stores here, and for a product of the tests that writes its own rows.
func TxOf(t payment.Tx) (*sql.Tx, error) {
	if t == nil {
		return nil, nil
	}
	u, ok := t.(unitOfWork)
	if !ok || u.tx == nil {
		return nil, errForeignTx
	}
	return u.tx, nil
}

// grantTx is TxOf for a write that happens only inside a settlement (or a
// refund's record).
func grantTx(t payment.Tx) (*sql.Tx, error) {
	tx, err := TxOf(t)
	if err == nil && tx == nil {
		err = errNoTx
	}
	return tx, err
}
