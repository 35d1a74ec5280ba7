package loadgen

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"members/internal/app"
)

// DefaultPostgres is the PostgreSQL server of the benchmarks and tests
// (env MEMBERS_TEST_PG overrides).
const DefaultPostgres = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// PostgresFlag registers the commands' -pg flag: the PostgreSQL server,
// MEMBERS_TEST_PG or DefaultPostgres when not given; empty skips it.
func PostgresFlag(fs *flag.FlagSet) *string {
	def := os.Getenv("MEMBERS_TEST_PG")
	if def == "" {
		def = DefaultPostgres
	}
	return fs.String("pg", def, "PostgreSQL server (env MEMBERS_TEST_PG; empty: skip)")
}

// FreshSchema drops and creates schema on the PostgreSQL server base and
// returns the DSN that uses it.
func FreshSchema(base, schema string) (string, error) {
	dsn, err := SchemaDSN(base, schema)
	if err != nil {
		return "", err
	}
	return dsn, ResetSchema(base, schema)
}

// OpenQuiet opens (and migrates) the app on dsn with its log discarded.
func OpenQuiet(ctx context.Context, dsn string) (*app.App, error) {
	return app.Open(ctx, app.Options{DSN: dsn, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

// ServeApp serves the whole app of a on a port of its own: its base URL,
// and the function that stops it.
func ServeApp(ctx context.Context, a *app.App) (string, func(), error) {
	h, feats, err := a.Server(ctx, app.Config{Revision: "bench"})
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		feats.Close()
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close(); feats.Close() }, nil
}

// FreeAddr is a loopback address with a port nobody listens on now.
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
