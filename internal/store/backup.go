package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ErrBackupPostgres is Backup's answer for a PostgreSQL database: its
// backups are PostgreSQL's own tools' (pg_dump -Fc, or a base backup with
// WAL archiving for point-in-time recovery; docs/operations.md).
var ErrBackupPostgres = errors.New("backup copies SQLite databases; back up PostgreSQL with its own tools: " +
	"pg_dump -Fc -f members.dump DSN and pg_restore (or a base backup with WAL archiving for point-in-time recovery), docs/operations.md \"Backup and restore\"")

// TableRows is one table of a backup and its number of rows.
type TableRows struct {
	Table string
	Rows  int64
}

// BackupReport is what Backup wrote and found in its copy.
type BackupReport struct {
	Out       string
	Bytes     int64
	Took      time.Duration
	Integrity string // PRAGMA integrity_check of the copy: "ok"
	Tables    []TableRows
}

// Backup copies the SQLite database of dsn, which may be serving, to out
// with VACUUM INTO: one read transaction, so the copy is the database as
// of one moment (a plain cp of a database in WAL mode can miss what the
// log holds, or copy a page half written), while writers go on. The copy
// is written next to out and checks (integrity_check, every table's rows
// counted) before it takes out's name; out must not exist. A PostgreSQL
// dsn gets ErrBackupPostgres.
func Backup(ctx context.Context, dsn, out string) (BackupReport, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return BackupReport{}, ErrBackupPostgres
	}
	path := strings.TrimPrefix(dsn, "sqlite:")
	if path == "" || path == ":memory:" || strings.Contains(path, "mode=memory") {
		return BackupReport{}, fmt.Errorf("backup: %q is not a database file", dsn)
	}
	if !strings.HasPrefix(path, "file:") {
		if _, err := os.Stat(path); err != nil {
			return BackupReport{}, fmt.Errorf("backup: the database: %w", err)
		}
	}
	if out == "" {
		return BackupReport{}, errors.New("backup: --out FILE is required")
	}
	if _, err := os.Stat(out); err == nil {
		return BackupReport{}, fmt.Errorf("backup: %s exists; give a new file", out)
	}
	start := time.Now()
	db, err := Open(ctx, dsn)
	if err != nil {
		return BackupReport{}, err
	}
	defer db.Close()
	tmp := filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".partial")
	_ = os.Remove(tmp)
	if _, err := db.ExecContext(ctx, `VACUUM INTO $1`, tmp); err != nil {
		_ = os.Remove(tmp)
		return BackupReport{}, fmt.Errorf("backup: copy: %w", err)
	}
	rep, err := checkCopy(ctx, tmp)
	if err != nil {
		_ = os.Remove(tmp)
		return BackupReport{}, err
	}
	if err := os.Rename(tmp, out); err != nil {
		_ = os.Remove(tmp)
		return BackupReport{}, fmt.Errorf("backup: %w", err)
	}
	st, err := os.Stat(out)
	if err != nil {
		return BackupReport{}, fmt.Errorf("backup: %w", err)
	}
	rep.Out, rep.Bytes, rep.Took = out, st.Size(), time.Since(start)
	return rep, nil
}

// checkCopy opens the copy read-only, runs integrity_check and counts the
// rows of every table.
func checkCopy(ctx context.Context, path string) (BackupReport, error) {
	var rep BackupReport
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return rep, fmt.Errorf("backup: open the copy: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	problems, err := Column(ctx, db, `PRAGMA integrity_check`)
	if err != nil {
		return rep, fmt.Errorf("backup: check the copy: %w", err)
	}
	rep.Integrity = strings.Join(problems, "; ")
	if rep.Integrity != "ok" {
		return rep, fmt.Errorf("backup: the copy fails integrity_check: %s", rep.Integrity)
	}
	tables, err := Column(ctx, db, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return rep, fmt.Errorf("backup: the copy's tables: %w", err)
	}
	if len(tables) == 0 {
		return rep, errors.New("backup: the copy has no tables: is --db the right file?")
	}
	for _, name := range tables {
		var n int64
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM "`+strings.ReplaceAll(name, `"`, `""`)+`"`).Scan(&n); err != nil {
			return rep, fmt.Errorf("backup: count %s in the copy: %w", name, err)
		}
		rep.Tables = append(rep.Tables, TableRows{Table: name, Rows: n})
	}
	return rep, nil
}

// Column returns the first column, as text, of every row of q.
func Column(ctx context.Context, db *sql.DB, q string) ([]string, error) {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
