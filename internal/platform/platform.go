// Package platform holds the operator-controlled switches of the product
// (cookie consent, topic banner, pass availability flags, origin access
// restriction) and the client error beacon.
package platform

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"members/internal/apperr"
	"members/internal/ratelimit"
	"members/internal/validate"
)

// Setting keys.
const (
	KeyCookieConsent = "cookie_consent"
	KeyTopicBanner   = "topic_banner"
	KeyGogoPass      = "gogo_pass_status"
	KeyCouponTicket  = "coupon_ticket_status"
	KeyOriginAccess  = "origin_access"
	// KeyGogoPassMaintenance holds the operator's maintenance override of
	// the unlimited pass (MaintenanceMode).
	KeyGogoPassMaintenance = "gogo_pass_maintenance" // #nosec G101 -- a settings key named after the pass, not a credential
)

// CookieConsent says whether visitors must consent to cookies, and which
// scripts to load. Empty URLs load nothing.
type CookieConsent struct {
	Required         bool   `json:"isCookieConsentRequired"`
	ConsentScriptURL string `json:"consentScriptUrl,omitempty"`
	AnalyticsTagURL  string `json:"analyticsTagUrl,omitempty"`
}

// TopicBanner is the notice shown on a page.
type TopicBanner struct {
	TargetPage string `json:"target_page"`
	IsActive   bool   `json:"is_active"`
	Message1   string `json:"message1"`
	Message2   string `json:"message2"`
	Href       string `json:"href"`
}

// GogoPassStatus are the unlimited pass flags. IsGogoPassMaintenance is
// not stored: GogoPassStatus computes it from the maintenance mode and the
// clock, so the client can show the maintenance page before a purchase.
type GogoPassStatus struct {
	IsGogoPassPublic       bool `json:"isGogoPassPublic"`
	IsGogoPassPurchasable  bool `json:"isGogoPassPurchasable"`
	IsGogoPassLotteryPhase bool `json:"isGogoPassLotteryPhase"`
	IsGogoPassMaintenance  bool `json:"isGogoPassMaintenance"`
	// LotteryDrawAt is when the operator plans the lottery draw (RFC 3339;
	// empty when not announced), shown to members before the draw.
	LotteryDrawAt string `json:"lotteryDrawAt,omitempty"`
	// MaintenanceFrom and MaintenanceUntil are the daily maintenance
	// window the pass is in now (RFC 3339), so a notice names it; computed,
	// never stored, and empty outside maintenance or when the operator
	// forced it (no window is known then).
	MaintenanceFrom  string `json:"maintenanceFrom,omitempty"`
	MaintenanceUntil string `json:"maintenanceUntil,omitempty"`
}

// MaintenanceMode is the operator's override of the pass maintenance
// window: "on" forces maintenance, "off" lifts it (even inside the daily
// window), "auto" (the default) follows the clock.
type MaintenanceMode string

// Maintenance modes.
const (
	MaintenanceAuto MaintenanceMode = "auto"
	MaintenanceOn   MaintenanceMode = "on"
	MaintenanceOff  MaintenanceMode = "off"
)

// ParseMaintenanceMode accepts on, off and auto.
func ParseMaintenanceMode(s string) (MaintenanceMode, error) {
	switch m := MaintenanceMode(s); m {
	case MaintenanceAuto, MaintenanceOn, MaintenanceOff:
		return m, nil
	}
	return "", fmt.Errorf("maintenance must be on, off or auto, not %q", s)
}

// japan is Japan time (UTC+9, no daylight saving), fixed so the window
// does not depend on the host's time zone database.
var japan = time.FixedZone("JST", 9*60*60)

// Pass maintenance window, Japan time: from 03:00 (inclusive) to 05:00
// (exclusive), every day.
const (
	MaintenanceStartHour = 3
	MaintenanceEndHour   = 5
)

// InPassMaintenance reports whether the pass is under maintenance at now.
func InPassMaintenance(now time.Time, mode MaintenanceMode) bool {
	switch mode {
	case MaintenanceOn:
		return true
	case MaintenanceOff:
		return false
	}
	h := now.In(japan).Hour()
	return h >= MaintenanceStartHour && h < MaintenanceEndHour
}

// PassMaintenanceWindow is the daily maintenance window containing now,
// in Japan time; ok is false outside it.
func PassMaintenanceWindow(now time.Time) (from, until time.Time, ok bool) {
	t := now.In(japan)
	if h := t.Hour(); h < MaintenanceStartHour || h >= MaintenanceEndHour {
		return time.Time{}, time.Time{}, false
	}
	y, m, d := t.Date()
	return time.Date(y, m, d, MaintenanceStartHour, 0, 0, 0, japan), time.Date(y, m, d, MaintenanceEndHour, 0, 0, 0, japan), true
}

// CouponTicketStatus is the coupon pass flag.
type CouponTicketStatus struct {
	IsCouponTicketPublic bool `json:"isCouponTicketPublic"`
}

// OriginAccessConfig is the admission control: when Enabled, at most Limit
// callers are admitted per window of WindowSeconds.
type OriginAccessConfig struct {
	Enabled       bool `json:"enabled"`
	Limit         int  `json:"limit"`
	WindowSeconds int  `json:"windowSeconds"`
}

// OriginAccess is the answer to a caller.
type OriginAccess struct {
	RestrictionEnabled bool `json:"restriction_enabled"`
	AllowedToCallAPI   bool `json:"allowed_to_call_api"`
	TimeToLive         int  `json:"time_to_live"`
}

// ExceptionReport is a client-side error sent by the beacon.
type ExceptionReport struct {
	Name, Message, Stack, Path, ClientAddr string
	ReceivedAt                             time.Time
}

// ErrUnset is what a SettingsStore returns for a key never set.
var ErrUnset = errors.New("platform: setting unset")

// SettingsStore stores JSON settings by key.
type SettingsStore interface {
	// Get returns ErrUnset when the key has no value.
	Get(ctx context.Context, key string, v any) error
	Set(ctx context.Context, key string, v any) error
}

// ReportStore keeps exception reports.
type ReportStore interface {
	InsertReport(ctx context.Context, r ExceptionReport) error
}

// Beacon limits: per client address and overall, per minute.
const (
	ReportsPerAddrPerMinute = 10
	ReportsPerMinute        = 600
	maxReportField          = 4000
)

// DefaultOriginTTL is how long an unrestricted answer may be cached (s).
const DefaultOriginTTL = 300

// Service reads and changes the switches.
type Service struct {
	settings SettingsStore
	reports  ReportStore
	counters ratelimit.Counters
	now      func() time.Time
}

// NewService wires the service.
func NewService(settings SettingsStore, reports ReportStore, counters ratelimit.Counters, now func() time.Time) *Service {
	return &Service{settings: settings, reports: reports, counters: counters, now: now}
}

// get reads a setting, leaving v at its zero (default) value when unset.
func (s *Service) get(ctx context.Context, key string, v any) error {
	if err := s.settings.Get(ctx, key, v); err != nil && !errors.Is(err, ErrUnset) {
		return fmt.Errorf("setting %s: %w", key, err)
	}
	return nil
}

// CookieConsent returns the consent setting (not required by default).
func (s *Service) CookieConsent(ctx context.Context) (CookieConsent, error) {
	var v CookieConsent
	return v, s.get(ctx, KeyCookieConsent, &v)
}

// TopicBanner returns the banner (inactive by default).
func (s *Service) TopicBanner(ctx context.Context) (TopicBanner, error) {
	var v TopicBanner
	return v, s.get(ctx, KeyTopicBanner, &v)
}

// GogoPassStatus returns the pass flags (all false by default) and
// whether the pass is under maintenance now.
func (s *Service) GogoPassStatus(ctx context.Context) (GogoPassStatus, error) {
	var v GogoPassStatus
	if err := s.get(ctx, KeyGogoPass, &v); err != nil {
		return v, err
	}
	mode, err := s.GogoPassMaintenanceMode(ctx)
	if err != nil {
		return v, err
	}
	now := s.now()
	v.IsGogoPassMaintenance = InPassMaintenance(now, mode)
	v.MaintenanceFrom, v.MaintenanceUntil = "", ""
	if from, until, ok := PassMaintenanceWindow(now); ok && mode == MaintenanceAuto {
		v.MaintenanceFrom, v.MaintenanceUntil = from.Format(time.RFC3339), until.Format(time.RFC3339)
	}
	return v, nil
}

// GogoPassMaintenanceMode returns the operator's mode (auto by default).
func (s *Service) GogoPassMaintenanceMode(ctx context.Context) (MaintenanceMode, error) {
	v := MaintenanceAuto
	if err := s.get(ctx, KeyGogoPassMaintenance, &v); err != nil {
		return MaintenanceAuto, err
	}
	if _, err := ParseMaintenanceMode(string(v)); err != nil {
		return MaintenanceAuto, nil
	}
	return v, nil
}

// GogoPassMaintenance reports whether pass purchase and exchange are
// closed for maintenance now.
func (s *Service) GogoPassMaintenance(ctx context.Context) (bool, error) {
	m, err := s.GogoPassMaintenanceMode(ctx)
	if err != nil {
		return false, err
	}
	return InPassMaintenance(s.now(), m), nil
}

// CouponTicketStatus returns the coupon flag (false by default).
func (s *Service) CouponTicketStatus(ctx context.Context) (CouponTicketStatus, error) {
	var v CouponTicketStatus
	return v, s.get(ctx, KeyCouponTicket, &v)
}

// OriginAccessConfig returns the admission control setting (off by default).
func (s *Service) OriginAccessConfig(ctx context.Context) (OriginAccessConfig, error) {
	var v OriginAccessConfig
	return v, s.get(ctx, KeyOriginAccess, &v)
}

// Set stores one setting after checking it; operators call it.
func (s *Service) Set(ctx context.Context, key string, v any) error {
	if c, ok := v.(OriginAccessConfig); ok && c.Enabled && (c.Limit < 1 || c.WindowSeconds < 1) {
		return fmt.Errorf("origin access: limit and window must be at least 1")
	}
	if c, ok := v.(GogoPassStatus); ok {
		c.IsGogoPassMaintenance = false // computed, never stored
		c.MaintenanceFrom, c.MaintenanceUntil = "", ""
		v = c
	}
	if m, ok := v.(MaintenanceMode); ok {
		if _, err := ParseMaintenanceMode(string(m)); err != nil {
			return err
		}
	}
	return s.settings.Set(ctx, key, v)
}

// RequestOriginAccess admits the caller or tells it to wait. Admitted
// callers are counted in the current window; once Limit is reached the
// rest are refused until the window ends, which is also how long either
// answer may be cached.
func (s *Service) RequestOriginAccess(ctx context.Context) (OriginAccess, error) {
	cfg, err := s.OriginAccessConfig(ctx)
	if err != nil {
		return OriginAccess{}, err
	}
	if !cfg.Enabled {
		return OriginAccess{RestrictionEnabled: false, AllowedToCallAPI: true, TimeToLive: DefaultOriginTTL}, nil
	}
	w := ratelimit.Window{Counters: s.counters, Length: time.Duration(cfg.WindowSeconds) * time.Second, Limit: cfg.Limit, Now: s.now}
	ok, err := w.Allow(ctx, "origin_access")
	if err != nil {
		return OriginAccess{}, fmt.Errorf("origin access: %w", err)
	}
	ttl := int((w.Remaining() + time.Second - 1) / time.Second)
	if ttl < 1 {
		ttl = 1
	}
	return OriginAccess{RestrictionEnabled: true, AllowedToCallAPI: ok, TimeToLive: ttl}, nil
}

// Report stores a client error report, dropping it silently beyond the
// rate limits. Error: Invalid when name or message is blank.
func (s *Service) Report(ctx context.Context, r ExceptionReport) error {
	f := validate.Errors{}
	f.Required("name", r.Name)
	f.Required("message", r.Message)
	if !f.Empty() {
		return apperr.FromFields(f)
	}
	minute := ratelimit.Window{Counters: s.counters, Length: time.Minute, Limit: ReportsPerAddrPerMinute, Now: s.now}
	if ok, err := minute.Allow(ctx, "beacon:addr:"+r.ClientAddr); err != nil || !ok {
		return err
	}
	minute.Limit = ReportsPerMinute
	if ok, err := minute.Allow(ctx, "beacon:all"); err != nil || !ok {
		return err
	}
	r.Name, r.Message, r.Stack, r.Path = clip(r.Name), clip(r.Message), clip(r.Stack), clip(r.Path)
	r.ReceivedAt = s.now()
	return s.reports.InsertReport(ctx, r)
}

func clip(s string) string {
	s = strings.ToValidUTF8(s, "")
	if len(s) > maxReportField {
		s = strings.ToValidUTF8(s[:maxReportField], "")
	}
	return s
}
