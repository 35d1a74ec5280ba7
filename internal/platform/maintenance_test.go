package platform

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// TestPassMaintenanceWindow checks the edges of 03:00-05:00 Japan time
// (18:00-20:00 UTC the day before) and the operator's override.
func TestPassMaintenanceWindow(t *testing.T) {
	jst := time.FixedZone("JST", 9*3600)
	tests := []struct {
		at   time.Time
		mode MaintenanceMode
		want bool
	}{
		{time.Date(2026, 11, 20, 2, 59, 59, 999e6, jst), MaintenanceAuto, false},
		{time.Date(2026, 11, 20, 3, 0, 0, 0, jst), MaintenanceAuto, true},
		{time.Date(2026, 11, 20, 4, 59, 59, 0, jst), MaintenanceAuto, true},
		{time.Date(2026, 11, 20, 5, 0, 0, 0, jst), MaintenanceAuto, false},
		{time.Date(2026, 11, 19, 18, 0, 0, 0, time.UTC), MaintenanceAuto, true},   // 03:00 JST
		{time.Date(2026, 11, 19, 17, 59, 0, 0, time.UTC), MaintenanceAuto, false}, // 02:59 JST
		{time.Date(2026, 11, 20, 3, 30, 0, 0, time.UTC), MaintenanceAuto, false},  // 03:30 UTC is 12:30 JST
		{time.Date(2026, 11, 20, 12, 0, 0, 0, jst), MaintenanceOn, true},
		{time.Date(2026, 11, 20, 4, 0, 0, 0, jst), MaintenanceOff, false},
	}
	for _, tt := range tests {
		if got := InPassMaintenance(tt.at, tt.mode); got != tt.want {
			t.Errorf("InPassMaintenance(%s, %s) = %v, want %v", tt.at, tt.mode, got, tt.want)
		}
	}
	for _, s := range []string{"on", "off", "auto"} {
		if _, err := ParseMaintenanceMode(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	if _, err := ParseMaintenanceMode("sometimes"); err == nil {
		t.Error("an unknown mode must be refused")
	}
}

// memSettings is a settings store in memory.
type memSettings map[string]any

func (m memSettings) Get(_ context.Context, key string, v any) error {
	x, ok := m[key]
	if !ok {
		return ErrUnset
	}
	b, _ := json.Marshal(x)
	return json.Unmarshal(b, v)
}

func (m memSettings) Set(_ context.Context, key string, v any) error { m[key] = v; return nil }

// The status names the window the pass is in (so a notice does not state
// a time that is not the one), and none when the operator forced
// maintenance or outside it.
func TestGogoPassStatusNamesTheWindow(t *testing.T) {
	jst := time.FixedZone("JST", 9*3600)
	now := time.Date(2026, 11, 19, 18, 30, 0, 0, time.UTC) // 03:30 JST on the 20th
	settings := memSettings{}
	s := NewService(settings, nil, nil, func() time.Time { return now })
	ctx := context.Background()
	v, err := s.GogoPassStatus(ctx)
	if err != nil || !v.IsGogoPassMaintenance || v.MaintenanceFrom != "2026-11-20T03:00:00+09:00" || v.MaintenanceUntil != "2026-11-20T05:00:00+09:00" {
		t.Fatalf("in the window: %+v %v", v, err)
	}
	now = time.Date(2026, 11, 20, 12, 0, 0, 0, jst)
	if v, _ := s.GogoPassStatus(ctx); v.IsGogoPassMaintenance || v.MaintenanceFrom != "" || v.MaintenanceUntil != "" {
		t.Fatalf("outside: %+v", v)
	}
	settings[KeyGogoPassMaintenance] = MaintenanceOn
	if v, _ := s.GogoPassStatus(ctx); !v.IsGogoPassMaintenance || v.MaintenanceFrom != "" || v.MaintenanceUntil != "" {
		t.Fatalf("forced: %+v", v)
	}
}
