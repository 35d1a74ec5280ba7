package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/demo"
	"members/internal/store"
)

// TestFlightSegmentsUseIndex: a flight event finds its bookings through the
// (flight, depart_at) index of reservation_segments on both engines, never
// by scanning the table. PostgreSQL is told to avoid sequential scans where
// it can (its planner would scan a table this small); without the index it
// reads the whole table anyway (a sequential scan, or a full scan of the
// primary key), and the test fails on both engines.
func TestFlightSegmentsUseIndex(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		ctx := context.Background()
		db := apitest.OpenDB(t, engine)
		if err := demo.SeedBench(ctx, db, "!", 2, 0, 50, time.Now(), nil); err != nil {
			t.Fatal(err)
		}
		from := time.Now()
		args := []any{"MM001", from.UnixMilli(), from.Add(48 * time.Hour).UnixMilli()}
		var plan []string
		if err := db.Tx(ctx, func(tx *sql.Tx) error {
			prefix := "EXPLAIN QUERY PLAN "
			if engine == store.Postgres {
				prefix = "EXPLAIN "
				if _, err := tx.ExecContext(ctx, `SET LOCAL enable_seqscan = off`); err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `ANALYZE reservation_segments`); err != nil {
					return err
				}
			}
			rows, err := tx.QueryContext(ctx, prefix+store.FlightSegmentsSQL, args...)
			if err != nil {
				return err
			}
			defer rows.Close()
			cols, err := rows.Columns()
			if err != nil {
				return err
			}
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					return err
				}
				line, _ := vals[len(vals)-1].(string)
				if b, ok := vals[len(vals)-1].([]byte); ok {
					line = string(b)
				}
				plan = append(plan, line)
			}
			return rows.Err()
		}); err != nil {
			t.Fatal(err)
		}
		text := strings.Join(plan, "\n")
		for _, bad := range []string{"SCAN s\n", "SCAN reservation_segments", "Seq Scan on reservation_segments"} {
			if strings.Contains(text+"\n", bad) {
				t.Errorf("the flight's bookings are found by a scan:\n%s", text)
			}
		}
		if !strings.Contains(text, "reservation_segments_flight") {
			t.Errorf("plan does not use the (flight, depart_at) index:\n%s", text)
		}
	})
}

// TestFlightSegmentsUpdateUsesKey: the statement that gives a flight's
// segments their new state finds each by its key, never by a scan.
func TestFlightSegmentsUpdateUsesKey(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		t.Parallel()
		ctx := context.Background()
		db := apitest.OpenDB(t, engine)
		if err := demo.SeedBench(ctx, db, "!", 2, 0, 50, time.Now(), nil); err != nil {
			t.Fatal(err)
		}
		args := []any{int64(1), int64(2), nil, nil, "CANCELLED", "", "", 1, "cancellation", "", "", "a", "1", "b", "2"}
		var plan []string
		if err := db.Tx(ctx, func(tx *sql.Tx) error {
			prefix := "EXPLAIN QUERY PLAN "
			if engine == store.Postgres {
				// a table of 80 rows is read whole; one of millions by key
				prefix = "EXPLAIN "
				if _, err := tx.ExecContext(ctx, `SET LOCAL enable_seqscan = off`); err != nil {
					return err
				}
			}
			rows, err := tx.QueryContext(ctx, prefix+store.FlightSegmentsUpdateSQL(engine, 2), args...)
			if err != nil {
				return err
			}
			defer rows.Close()
			cols, err := rows.Columns()
			if err != nil {
				return err
			}
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					return err
				}
				line := fmt.Sprint(vals[len(vals)-1])
				if b, ok := vals[len(vals)-1].([]byte); ok {
					line = string(b)
				}
				plan = append(plan, line)
			}
			return rows.Err()
		}); err != nil {
			t.Fatal(err)
		}
		text := strings.Join(plan, "\n")
		for _, bad := range []string{"SCAN reservation_segments", "Seq Scan on reservation_segments"} {
			if strings.Contains(text, bad) {
				t.Errorf("a flight's segments are updated through a scan:\n%s", text)
			}
		}
	})
}
