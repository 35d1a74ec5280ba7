package oidcprovider

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// Site is a client a member granted, as the security centre lists it
// ("Sites that use your account").
type Site struct {
	ClientID   string
	Name       string
	FirstParty bool
	// Scopes granted, in the provider's order.
	Scopes     []string
	GrantedAt  time.Time
	LastUsedAt time.Time
}

// Sites lists the member's granted clients, the last used first.
func (p *Provider) Sites(ctx context.Context, memberID string) ([]Site, error) {
	return sites(ctx, p.store, memberID)
}

func sites(ctx context.Context, store Store, memberID string) ([]Site, error) {
	gs, err := store.Grants(ctx, memberID)
	if err != nil {
		return nil, fmt.Errorf("sites: %w", err)
	}
	out := make([]Site, 0, len(gs))
	for _, g := range gs {
		var scopes []string
		for _, s := range Scopes {
			if slices.Contains(g.Scopes, s) {
				scopes = append(scopes, s)
			}
		}
		out = append(out, Site{ClientID: g.ClientID, Name: g.ClientName, FirstParty: g.FirstParty, Scopes: scopes,
			GrantedAt: g.CreatedAt.UTC(), LastUsedAt: g.LastUsedAt.UTC()})
	}
	slices.SortStableFunc(out, func(a, b Site) int { return b.LastUsedAt.Compare(a.LastUsedAt) })
	return out, nil
}

// RevokeSite takes back what the member granted the client: the grant,
// its access and refresh tokens; the client gets a logout token (when it
// takes them). ErrNotFound when the member granted it nothing.
func (p *Provider) RevokeSite(ctx context.Context, memberID, clientID string) error {
	if err := p.store.RevokeGrant(ctx, memberID, clientID, p.cfg.Now()); err != nil {
		return err
	}
	p.Nudge()
	return nil
}
