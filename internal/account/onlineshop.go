package account

import (
	"context"
	"fmt"
)

// Online-shop link states of the profile's onlineShopAccountStatus.
const (
	OnlineShopUnknown    = "unknown"
	OnlineShopRegistered = "registered"
)

// RegisterOnlineShop links the member to the airline's online shop
// (POST /api/external_services/online_shop/register): the status
// moves from unknown to registered; a repeat changes nothing.
func (s *Service) RegisterOnlineShop(ctx context.Context, memberID string) (string, error) {
	m, err := s.member(ctx, memberID)
	if err != nil {
		return "", err
	}
	if m.OnlineShopAccountStatus == OnlineShopRegistered {
		return OnlineShopRegistered, nil
	}
	if err := s.Store.SetOnlineShopStatus(ctx, memberID, OnlineShopRegistered, s.Now()); err != nil {
		return "", fmt.Errorf("online shop: %w", err)
	}
	return OnlineShopRegistered, nil
}
