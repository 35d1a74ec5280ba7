// Command cluster runs the production shape on this machine (make
// cluster): the sandbox gateway on its own, two `members serve` instances
// on one PostgreSQL database and nginx in front with deploy/nginx.conf,
// until Ctrl-C. The database is the schema "cluster" (the gateway's
// "cluster_gateway") of MEMBERS_TEST_PG, created when missing.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	_ "github.com/jackc/pgx/v5/stdlib"

	"members/deploy"
	"members/internal/loadgen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "cluster:", err)
		os.Exit(1)
	}
}

func run() error {
	bin := flag.String("bin", "bin/members", "the members binary (make build)")
	pg := loadgen.PostgresFlag(flag.CommandLine)
	schema := flag.String("schema", "cluster", "schema of the members database; the gateway's is SCHEMA_gateway")
	listen := flag.String("addr", "127.0.0.1:8088", "nginx's listen address")
	dir := flag.String("dir", "", "folder of nginx's prefix and the logs (empty: a new temporary folder)")
	flag.Parse()
	nginx, err := exec.LookPath("nginx")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nginx"); serr != nil {
			return fmt.Errorf("nginx is not installed: apt-get install nginx")
		}
		nginx = "/usr/sbin/nginx"
	}
	if *dir == "" {
		if *dir, err = os.MkdirTemp("", "members-cluster-"); err != nil {
			return err
		}
	}
	if *dir, err = filepath.Abs(*dir); err != nil {
		return err
	}
	dsn, err := schemaDSN(*pg, *schema)
	if err != nil {
		return err
	}
	gwDSN, err := schemaDSN(*pg, *schema+"_gateway")
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := deploy.Start(ctx, deploy.Options{Bin: *bin, Nginx: nginx, DSN: dsn, GatewayDSN: gwDSN, Dir: *dir, ProxyAddr: *listen, Demo: true})
	if err != nil {
		return err
	}
	defer c.Close()
	fmt.Printf(`members cluster:
  open %s (demo@example.com / Demo1234), nginx in front of
    instance a  http://%s  (metrics http://%s/metrics)
    instance b  http://%s  (metrics http://%s/metrics)
  sandbox gateway %s
  database %s, the gateway's %s
  logs and nginx.conf in %s
  Ctrl-C stops everything.
`, c.ProxyURL, c.Instances[0].Addr, c.Instances[0].MetricsAddr, c.Instances[1].Addr, c.Instances[1].MetricsAddr,
		c.GatewayURL, *schema, *schema+"_gateway", *dir)
	<-ctx.Done()
	fmt.Println("stopping…")
	return nil
}

// schemaDSN creates the schema when missing and returns the DSN that uses it.
func schemaDSN(server, schema string) (string, error) {
	db, err := sql.Open("pgx", server)
	if err != nil {
		return "", err
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE SCHEMA IF NOT EXISTS "` + schema + `"`); err != nil {
		return "", fmt.Errorf("PostgreSQL at %s: %w", server, err)
	}
	u, err := url.Parse(server)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), nil
}
