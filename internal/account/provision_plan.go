package account

import (
	"context"
	"errors"

	"members/internal/apperr"
)

// Plan answers what Provision would do with the member of number
// (created, updated or unchanged) without writing anything: the members
// import's dry run. Errors as Provision's: Invalid (field rules).
func (p *Provisioner) Plan(ctx context.Context, number string, in ProvisionInput) (string, error) {
	m, e := p.Validate(number, in)
	if !e.Empty() {
		return "", apperr.FromFields(e)
	}
	cur, err := p.store.Provisioned(ctx, number)
	switch {
	case errors.Is(err, ErrNotFound):
		return OutcomeCreated, nil
	case err != nil:
		return "", err
	case sameFields(cur.Member, m):
		return OutcomeUnchanged, nil
	}
	return OutcomeUpdated, nil
}
