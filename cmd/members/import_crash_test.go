package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"members/internal/apitest"
	"members/internal/app"
	"members/internal/store"
)

// memberImportLine is line n of a members import file; bad makes its
// e-mail invalid (a reject).
func memberImportLine(n int, bad bool) string {
	email := fmt.Sprintf("imported%d@example.com", n)
	if bad {
		email = "not-an-address"
	}
	return fmt.Sprintf(`{"memberNumber":"MM%06d","email":%q,"firstname":"Hanako","lastname":"Yamada","gender":"female",`+
		`"birth":"1988-04-12","tel":"0312345678","addressCountryCode":"JP","addressPostalCode":"5490001",`+
		`"addressStateAndCity":"Osaka","address1":"1 Senshu-kuko-kita","lang":"en"}`, n, email)
}

// importedMembers returns the member number → e-mail of every live
// member that has a member number.
func importedMembers(t *testing.T, dsn string) map[string]string {
	t.Helper()
	a, err := app.Open(context.Background(), app.Options{DSN: dsn, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	rows, err := a.DB.QueryContext(context.Background(), `SELECT member_number, email FROM members WHERE member_number IS NOT NULL AND deleted_at IS NULL`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[string]string{}
	for rows.Next() {
		var n, e string
		if err := rows.Scan(&n, &e); err != nil {
			t.Fatal(err)
		}
		got[n] = e
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestImportMembersKilledThenResumed kills the real `members import
// members` with SIGKILL in the middle of a batch (its members written in
// its transaction, not committed), then runs it again: the batch left
// nothing, the second run takes up where the database stands and the
// members are exactly the file's good lines, each whole, none twice.
func TestImportMembersKilledThenResumed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		importKilledThenResumed(t, apitest.DSN(t, engine))
	})
}

func importKilledThenResumed(t *testing.T, dsn string) {
	bin := membersBinary(t)
	dir := t.TempDir()
	const total, bad, crashAt, batch = 10, 7, 5, 3
	var file strings.Builder
	for n := 1; n <= total; n++ {
		file.WriteString(memberImportLine(n, n == bad) + "\n")
	}
	in := filepath.Join(dir, "members.ndjson")
	if err := os.WriteFile(in, []byte(file.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	rejects := filepath.Join(dir, "rejects.txt")
	importRun := func(crash bool) (string, string, error) {
		cmd := exec.Command(bin, "import", "members", in, "--db", dsn, "--batch", fmt.Sprint(batch), "--rejects", rejects)
		cmd.Env = append(os.Environ(), "MEMBERS_DB=")
		if crash {
			cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d", importCrashEnv, crashAt))
		}
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		return stdout.String(), stderr.String(), err
	}

	_, stderr, err := importRun(true)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("first run: %v, want killed by SIGKILL\n%s", err, stderr)
	}
	// The kill came in the transaction of the batch holding line crashAt
	// (lines 4 to 6), after its writes: only the batches before it are there.
	committed := (crashAt - 1) / batch * batch
	got := importedMembers(t, dsn)
	if len(got) != committed {
		t.Fatalf("after the kill %d members, want the %d of the batches committed before it: %v", len(got), committed, got)
	}

	stdout, stderr, err := importRun(false)
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("resumed run: %v, want exit 1 (a line rejected)\n%s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if last, want := lines[len(lines)-1], fmt.Sprintf("created %d, updated 0, unchanged %d, rejected 1", total-1-committed, committed); last != want {
		t.Errorf("resumed summary %q, want %q", last, want)
	}
	if strings.ContainsAny(stderr, "\r\x1b") || !strings.Contains(stderr, "rows/s") {
		t.Errorf("progress on a pipe is not plain lines:\n%s", stderr)
	}
	got = importedMembers(t, dsn)
	if len(got) != total-1 {
		t.Errorf("%d members, want %d: %v", len(got), total-1, got)
	}
	for n := 1; n <= total; n++ {
		e, ok := got[fmt.Sprintf("MM%06d", n)]
		if want := fmt.Sprintf("imported%d@example.com", n); n != bad && (!ok || e != want) {
			t.Errorf("member %d: %q, want %q", n, e, want)
		}
		if n == bad && ok {
			t.Errorf("the rejected line %d was stored", n)
		}
	}
	rej, err := os.ReadFile(rejects)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("line %d: email: validation.email\n", bad); string(rej) != want {
		t.Errorf("rejects %q, want %q", rej, want)
	}
}

// TestImportMembersDryRun writes nothing and counts what a run would do.
func TestImportMembersDryRun(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		importDryRun(t, apitest.DSN(t, engine))
	})
}

func importDryRun(t *testing.T, dsn string) {
	in := filepath.Join(t.TempDir(), "members.ndjson")
	if err := os.WriteFile(in, []byte(memberImportLine(1, false)+"\n"+memberImportLine(2, true)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := call(t, "import", "members", "--dry-run", in, "--db", dsn)
	var ec exitCode
	if !errors.As(err, &ec) || ec != 1 {
		t.Fatalf("dry run: %v, want exit 1", err)
	}
	if !strings.HasSuffix(stdout, "created 1, updated 0, unchanged 0, rejected 1\n") {
		t.Errorf("dry run summary %q", stdout)
	}
	if got := importedMembers(t, dsn); len(got) != 0 {
		t.Errorf("the dry run stored %v", got)
	}
}

// TestImportMembersRefusedLines: a password hash of a format not taken,
// and an address another line took in another case, are refused with
// their line's number and never stored; the other lines are.
func TestImportMembersRefusedLines(t *testing.T) {
	apitest.ForEachEngine(t, func(t *testing.T, engine store.Engine) {
		dsn := apitest.DSN(t, engine)
		dir := t.TempDir()
		md5crypt := strings.Replace(memberImportLine(2, false), `"lang":"en"`, `"lang":"en","passwordHash":"$1$saltsalt$qjXMvbEw8oaL.CzflDugX/"`, 1)
		upper := strings.Replace(memberImportLine(3, false), "imported3@", "IMPORTED1@", 1)
		in := filepath.Join(dir, "members.ndjson")
		if err := os.WriteFile(in, []byte(memberImportLine(1, false)+"\n"+md5crypt+"\n"+upper+"\n"+memberImportLine(4, false)+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		rejects := filepath.Join(dir, "rejects.txt")
		stdout, _, err := call(t, "import", "members", in, "--db", dsn, "--rejects", rejects)
		var ec exitCode
		if !errors.As(err, &ec) || ec != 1 {
			t.Fatalf("import: %v, want exit 1", err)
		}
		if !strings.HasSuffix(stdout, "created 2, updated 0, unchanged 0, rejected 2\n") {
			t.Errorf("summary %q", stdout)
		}
		rej, err := os.ReadFile(rejects)
		if err != nil {
			t.Fatal(err)
		}
		if want := "line 2: passwordHash: account.password_hash_format\nline 3: email: email_taken\n"; string(rej) != want {
			t.Errorf("rejects %q, want %q", rej, want)
		}
		got := importedMembers(t, dsn)
		if _, ok := got["MM000002"]; ok || len(got) != 2 {
			t.Errorf("members %v, want MM000001 and MM000004 only", got)
		}
	})
}
