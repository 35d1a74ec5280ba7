package payment

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// brokenStore hands out one process and fails every write the background
// work makes afterwards; what it does not override is never called.
type brokenStore struct {
	Store
	due []Process
}

var errBroken = errors.New("disk on fire")

func (s *brokenStore) ClaimDue(context.Context, string, time.Time, time.Time, int) ([]Process, error) {
	ps := s.due
	s.due = nil
	return ps, nil
}

func (s *brokenStore) Move(context.Context, string, Status, Status, Changes, time.Time) (bool, error) {
	return false, errBroken
}

// ClaimRefunds finds no refund due (the refund path has its own tests).
func (s *brokenStore) ClaimRefunds(context.Context, string, time.Time, time.Time, time.Time, int) ([]Process, error) {
	return nil, nil
}

func (s *brokenStore) Update(context.Context, string, Changes, time.Time) error { return errBroken }

func (s *brokenStore) MarkNotified(context.Context, string) error { return errBroken }

func TestWorkerLogsStoreFailures(t *testing.T) {
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		p    Process
		op   string
	}{
		{"prepared and due to expire", Process{ID: "p1", Status: Prepared, ExpiresAt: now.Add(-time.Minute)}, "expire prepared"},
		{"prepared and still open", Process{ID: "p2", Status: Prepared, ExpiresAt: now.Add(time.Minute)}, "release prepared"},
		{"settled without a notifier", Process{ID: "p3", Status: Settled, Notified: true}, "release settled"},
		{"failed, its mail owed", Process{ID: "p4", Status: Failed}, "mark notified"},
		{"expired, nothing owed", Process{ID: "p5", Status: Expired, Notified: true}, "release ended"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := slog.New(slog.NewJSONHandler(&buf, nil))
			e := NewEngine(&brokenStore{due: []Process{tt.p}}, nil, Config{}, func() time.Time { return now }, log)
			if _, err := e.RunOnce(context.Background()); err != nil {
				t.Fatalf("RunOnce: %v", err)
			}
			out := buf.String()
			for _, want := range []string{`"level":"ERROR"`, `"op":"` + tt.op + `"`, `"process":"` + tt.p.ID + `"`, "disk on fire"} {
				if !strings.Contains(out, want) {
					t.Errorf("log lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

func TestStoreFailedAtShutdownIsInfo(t *testing.T) {
	var buf bytes.Buffer
	e := NewEngine(&brokenStore{}, nil, Config{}, time.Now, slog.New(slog.NewTextHandler(&buf, nil)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e.storeFailed(ctx, "release", "p9", context.Canceled)
	if out := buf.String(); !strings.Contains(out, "level=INFO") || strings.Contains(out, "level=ERROR") {
		t.Errorf("a failure while stopping is not a fault:\n%s", out)
	}
	buf.Reset()
	e.storeFailed(context.Background(), "release", "p9", nil)
	if buf.Len() != 0 {
		t.Errorf("nil error logged: %s", buf.String())
	}
}

// ForgetSecrets finds no secret to erase (TestForgetSecrets in the store).
func (s *brokenStore) ForgetSecrets(context.Context, time.Time, time.Time) (int64, error) {
	return 0, nil
}
