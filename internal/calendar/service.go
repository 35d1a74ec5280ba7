package calendar

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"members/internal/apperr"
	"members/internal/booking"
	"members/internal/i18n"
	"members/internal/validate"
)

// ErrNoFeed is what a Store returns when the member has no subscription,
// or no subscription has the token.
var ErrNoFeed = errors.New("calendar: no subscription")

// Store keeps each member's subscription token, as a SHA-256 hash only: a
// copy of the database does not open anyone's calendar.
type Store interface {
	// Feed returns the member's subscription; ErrNoFeed when none.
	Feed(ctx context.Context, memberID string) (Feed, error)
	// SaveFeed gives the member a subscription with tokenHash, replacing
	// any earlier one (whose URL stops working at once).
	SaveFeed(ctx context.Context, memberID, tokenHash string, at time.Time) error
	// DeleteFeed ends the member's subscription (no error when none).
	DeleteFeed(ctx context.Context, memberID string) error
	// UseFeed returns the member whose subscription has tokenHash and
	// records the fetch; ErrNoFeed when none.
	UseFeed(ctx context.Context, tokenHash string, at time.Time) (string, error)
}

// Reservations reads the member's bookings (internal/store.BookingStore).
type Reservations interface {
	// ByPNR returns the member's reservation; booking.ErrNotFound when it
	// does not exist or is somebody else's.
	ByPNR(ctx context.Context, memberID, pnr string) (booking.Reservation, error)
	Search(ctx context.Context, q booking.Query) ([]booking.Reservation, int, error)
}

// Feed is a member's subscription: when it was made and last fetched.
type Feed struct {
	CreatedAt  time.Time
	LastUsedAt *time.Time
}

// FeedPath is the subscription's address under the site.
const FeedPath = "/api/calendar/feed.ics"

// FeedWindow is how far back the feed reaches: bookings whose last flight
// departed within it stay listed (a trip just flown does not vanish at
// once); older ones leave the member's calendar app at its next refresh.
const FeedWindow = 30 * 24 * time.Hour

// FeedLimit caps the bookings in one feed (a calendar app refetches the
// whole file every hour).
const FeedLimit = 500

// tokenBytes is the token's entropy: 256 bits, base64url (43 characters).
const tokenBytes = 32

// Service is the calendar feature.
type Service struct {
	store     Store
	res       Reservations
	writer    *Writer
	catalog   *i18n.Catalog
	publicURL string
	now       func() time.Time
}

// NewService builds the service. publicURL is the site's base address
// (the subscription URL is made from it).
func NewService(s Store, r Reservations, w *Writer, c *i18n.Catalog, publicURL string, now func() time.Time) *Service {
	return &Service{store: s, res: r, writer: w, catalog: c, publicURL: strings.TrimRight(publicURL, "/"), now: now}
}

// notFound is the one answer for a booking that is missing or not the
// member's, and for an unknown or renewed subscription token.
var notFound = apperr.New(apperr.NotFound, "error.not_found")

// File is an iCalendar document and its file name.
type File struct {
	Name string
	Body string
}

// Booking returns the .ics file of one of the member's bookings: every
// segment, cancelled ones marked CANCELLED.
func (s *Service) Booking(ctx context.Context, memberID, pnr string, lang i18n.Lang) (File, error) {
	pnr = strings.ToUpper(strings.TrimSpace(pnr))
	if !validate.IsAlnum(pnr) || len(pnr) > booking.MaxPNRLength {
		return File{}, notFound
	}
	r, err := s.res.ByPNR(ctx, memberID, pnr)
	if errors.Is(err, booking.ErrNotFound) {
		return File{}, notFound
	}
	if err != nil {
		return File{}, fmt.Errorf("calendar reservation: %w", err)
	}
	body := s.writer.Write(Calendar{
		Name: s.catalog.T(lang, "security.calendar.booking_name", "pnr", r.PNR), Lang: lang,
		Reservations: []booking.Reservation{r}, Now: s.now(),
	})
	return File{Name: "booking-" + r.PNR + ".ics", Body: body}, nil
}

// FeedStatus says whether the member has a subscription.
type FeedStatus struct {
	Active     bool       `json:"active"`
	CreatedAt  *time.Time `json:"createdAt,omitempty"`
	LastUsedAt *time.Time `json:"lastUsedAt,omitempty"`
}

// Status returns the member's subscription state (never the URL: only its
// hash is kept).
func (s *Service) Status(ctx context.Context, memberID string) (FeedStatus, error) {
	f, err := s.store.Feed(ctx, memberID)
	if errors.Is(err, ErrNoFeed) {
		return FeedStatus{}, nil
	}
	if err != nil {
		return FeedStatus{}, fmt.Errorf("calendar feed: %w", err)
	}
	return FeedStatus{Active: true, CreatedAt: &f.CreatedAt, LastUsedAt: f.LastUsedAt}, nil
}

// NewFeed is a fresh subscription: the URL is shown once.
type NewFeed struct {
	URL       string    `json:"url"`
	CreatedAt time.Time `json:"createdAt"`
}

// Renew makes a new secret token for the member; the previous URL, if
// any, stops working. The feed's text is in lang.
func (s *Service) Renew(ctx context.Context, memberID string, lang i18n.Lang) (NewFeed, error) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return NewFeed{}, fmt.Errorf("calendar token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	now := s.now()
	if err := s.store.SaveFeed(ctx, memberID, HashToken(token), now); err != nil {
		return NewFeed{}, fmt.Errorf("save calendar feed: %w", err)
	}
	q := url.Values{"token": {token}, "lang": {string(lang)}}
	return NewFeed{URL: s.publicURL + FeedPath + "?" + q.Encode(), CreatedAt: now.UTC()}, nil
}

// Stop ends the member's subscription.
func (s *Service) Stop(ctx context.Context, memberID string) error {
	if err := s.store.DeleteFeed(ctx, memberID); err != nil {
		return fmt.Errorf("delete calendar feed: %w", err)
	}
	return nil
}

// HashToken is the stored form of a subscription token.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte("calendar-feed:" + token))
	return hex.EncodeToString(sum[:])
}

// Subscription returns the feed of the member holding token: the bookings
// whose last flight departs after now minus FeedWindow, cancelled ones
// included (their events say CANCELLED, so the calendar app updates them).
func (s *Service) Subscription(ctx context.Context, token string, lang i18n.Lang) (string, error) {
	if len(token) != base64.RawURLEncoding.EncodedLen(tokenBytes) {
		return "", notFound
	}
	now := s.now()
	memberID, err := s.store.UseFeed(ctx, HashToken(token), now)
	if errors.Is(err, ErrNoFeed) {
		return "", notFound
	}
	if err != nil {
		return "", fmt.Errorf("calendar feed: %w", err)
	}
	from := now.Add(-FeedWindow)
	rows, _, err := s.res.Search(ctx, booking.Query{MemberID: memberID, LastDepartFrom: &from, Limit: FeedLimit})
	if err != nil {
		return "", fmt.Errorf("calendar reservations: %w", err)
	}
	return s.writer.Write(Calendar{
		Name: s.catalog.T(lang, "security.calendar.feed_name"), Lang: lang, Reservations: rows, Feed: true, Now: now,
	}), nil
}
