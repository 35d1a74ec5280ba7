package demo

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"members/internal/auth"
	"members/internal/store"
)

// BenchSessions gives each of the members a session of its own, written
// directly into the database (no login, so no password hashing), and
// returns the session cookie values in the same order. The benchmarks of
// `make bench` load the server with them.
func BenchSessions(ctx context.Context, db *store.DB, memberIDs []string, now time.Time) ([]string, error) {
	st := store.NewAuthStore(db)
	out := make([]string, 0, len(memberIDs))
	for _, id := range memberIDs {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			return nil, fmt.Errorf("bench session: %w", err)
		}
		tok := hex.EncodeToString(b)
		if err := st.CreateSession(ctx, auth.Session{IDHash: auth.HashToken(tok), MemberID: id, LogID: tok[:16],
			CreatedAt: now, LastSeenAt: now, ClientAddr: "127.0.0.1", UserAgent: "wrk"}); err != nil {
			return nil, fmt.Errorf("bench session of %s: %w", id, err)
		}
		out = append(out, tok)
	}
	return out, nil
}
