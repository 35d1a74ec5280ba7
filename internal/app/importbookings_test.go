package app_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/booking"
	"members/internal/importer"
	"members/internal/store"
)

// importLines writes n booking snapshots a line (PNR IMP00001…), with a
// refused line (an unknown airport) after every 500th.
func importLines(t *testing.T, n int) (path string, bad int) {
	t.Helper()
	now := time.Now()
	var b bytes.Buffer
	for i := 1; i <= n; i++ {
		dep := now.In(booking.JST).AddDate(0, 0, 10+i%200).Truncate(time.Hour)
		line := map[string]any{"pnr": fmt.Sprintf("IMP%05d", i), "version": 1,
			"bookingDate": now.Add(-24 * time.Hour).In(booking.JST).Format(time.RFC3339), "statusCode": "CONFIRMED",
			"currency": "JPY", "totalAmount": 9800, "contactEmail": "traveller@example.com",
			"passengers": []any{map[string]any{"lastname": "TANAKA", "firstname": "KEN", "passengerType": "ADULT"}},
			"segments": []any{map[string]any{"key": "1", "flight": "MM301", "originAirportCode": "KIX", "destinationAirportCode": "OKA",
				"departDateTime": dep.Format(time.RFC3339), "arrivalDateTime": dep.Add(2 * time.Hour).Format(time.RFC3339),
				"statusCode": "CONFIRMED", "originTerminal": "1", "destinationTerminal": ""}}}
		raw, _ := json.Marshal(line)
		b.Write(raw)
		b.WriteByte('\n')
		if i%500 == 0 {
			bad++
			b.WriteString(strings.Replace(string(raw), `"OKA"`, `"LHR"`, 1)[:len(raw)] + "\n")
		}
	}
	path = filepath.Join(t.TempDir(), "bookings.ndjson")
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, bad
}

// stalled is a reader that never ends: the killed import's input after
// the file, so the kill finds it mid-run with lines read and not applied.
type stalled struct{}

func (stalled) Read([]byte) (int, error) { select {} }

const childDSN, childFile = "MEMBERS_TEST_IMPORT_DSN", "MEMBERS_TEST_IMPORT_FILE"

// An import of bookings killed with SIGKILL mid-run, then run again on
// the same file: every booking exactly once, the second run finding the
// first's as duplicate, the refused lines refused again.
func TestImportBookingsResumesAfterKill(t *testing.T) {
	if dsn := os.Getenv(childDSN); dsn != "" {
		f, err := os.Open(os.Getenv(childFile))
		if err != nil {
			t.Fatal(err)
		}
		a, err := app.Open(context.Background(), app.Options{DSN: dsn, Logger: apitest.Quiet()})
		if err != nil {
			t.Fatal(err)
		}
		_, err = a.ImportBookings(context.Background(), io.MultiReader(f, stalled{}), importer.Options{Batch: 100})
		t.Fatalf("the stalled import ended: %v", err)
	}
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		const n = 1250
		path, bad := importLines(t, n)
		dsn := apitest.DSN(t, engine)
		a, err := app.Open(t.Context(), app.Options{DSN: dsn, Logger: apitest.Quiet()})
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		count := func() (k int) {
			t.Helper()
			if err := a.DB.QueryRow(`SELECT COUNT(*) FROM reservations`).Scan(&k); err != nil {
				t.Fatal(err)
			}
			return k
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestImportBookingsResumesAfterKill$", "-test.count=1")
		cmd.Env = append(os.Environ(), childDSN+"="+dsn, childFile+"="+path)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The child applies every whole batch of the file, then waits on
		// its input holding the last lines: 12 batches of 100 lines (two
		// of them refused), 1200 bookings minus the two refused.
		want := 1200 - 2
		deadline := time.Now().Add(2 * time.Minute)
		for count() < want {
			if time.Now().After(deadline) {
				_ = cmd.Process.Kill()
				t.Fatalf("the child applied %d of %d bookings:\n%s", count(), want, out.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		killed := count()
		if killed != want {
			t.Fatalf("after the kill: %d bookings, want %d", killed, want)
		}

		var rejects bytes.Buffer
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sum, err := a.ImportBookings(t.Context(), bufio.NewReader(f), importer.Options{Batch: 100, Rejects: &rejects})
		if err != nil {
			t.Fatal(err)
		}
		if got, w := sum.String(), fmt.Sprintf("applied %d, stale 0, duplicate %d, rejected %d", n-killed, killed, bad); got != w {
			t.Fatalf("resumed run: %q, want %q", got, w)
		}
		if count() != n {
			t.Fatalf("bookings after the resumed run: %d, want %d", count(), n)
		}
		var segs int
		if err := a.DB.QueryRow(`SELECT COUNT(*) FROM reservation_segments`).Scan(&segs); err != nil || segs != n {
			t.Fatalf("segments: %d, want %d (%v)", segs, n, err)
		}
		if !strings.Contains(rejects.String(), "line 501: ") || !strings.Contains(rejects.String(), "segments[0].destinationAirportCode") {
			t.Fatalf("rejects:\n%s", rejects.String())
		}
		// A dry run of the same file writes nothing and finds all there.
		if _, err := f.Seek(0, 0); err != nil {
			t.Fatal(err)
		}
		sum, err = a.ImportBookings(t.Context(), f, importer.Options{DryRun: true})
		if err != nil || sum.String() != fmt.Sprintf("applied 0, stale 0, duplicate %d, rejected %d", n, bad) {
			t.Fatalf("dry run: %q %v", sum.String(), err)
		}
	})
}
