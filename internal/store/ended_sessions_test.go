package store_test

import (
	"context"
	"testing"
	"time"

	"members/internal/apitest"
	"members/internal/auth"
	"members/internal/store"
)

// Why a session ended on purpose is remembered, so its device erases the
// trips it keeps: a password change or reset and the account's deletion
// are "ended", the security centre's sign-outs "elsewhere"; a session that
// ran out, or was never, has no record.
func TestSessionEndingIsRememberedWithItsReason(t *testing.T) {
	t.Parallel()
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		ctx := context.Background()
		db := apitest.OpenDB(t, engine)
		st, sec, priv := store.NewAuthStore(db), store.NewSecurityStore(db), store.NewPrivacyStore(db)
		memberID := store.NewID()
		if _, err := db.ExecContext(ctx, `INSERT INTO members (id, email, email_key, password_hash, created_at, updated_at) VALUES ($1, $2, $2, 'x', 0, 0)`,
			memberID, memberID+"@example.com"); err != nil {
			t.Fatal(err)
		}
		now := time.UnixMilli(1_700_000_000_000)
		for _, h := range []string{"keep", "pw", "desk", "gone"} {
			if err := st.CreateSession(ctx, auth.Session{IDHash: h, MemberID: memberID, LogID: h, CreatedAt: now, LastSeenAt: now}); err != nil {
				t.Fatal(err)
			}
		}
		reason := func(h string) string {
			t.Helper()
			r, err := st.SessionEnding(ctx, h)
			if err != nil {
				t.Fatal(err)
			}
			return r
		}
		if err := sec.DeleteSession(ctx, memberID, "desk"); err != nil {
			t.Fatal(err)
		}
		// a password change ends every other session ("desk" is gone already)
		if err := st.DeleteMemberSessions(ctx, memberID, "gone"); err != nil {
			t.Fatal(err)
		}
		for h, want := range map[string]string{"desk": auth.EndedElsewhere, "keep": auth.EndedOnPurpose, "pw": auth.EndedOnPurpose, "gone": "", "never": ""} {
			if got := reason(h); got != want {
				t.Errorf("session %s: reason %q, want %q", h, got, want)
			}
		}
		if err := priv.Erase(ctx, memberID, now); err != nil {
			t.Fatal(err)
		}
		if got := reason("gone"); got != auth.EndedOnPurpose {
			t.Errorf("after the account's deletion: reason %q, want %q", got, auth.EndedOnPurpose)
		}
	})
}
