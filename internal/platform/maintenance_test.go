package platform

import (
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
