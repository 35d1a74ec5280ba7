// Package deploy runs the production shape on one machine: the sandbox
// payment gateway on its own, two `members serve` instances on one
// PostgreSQL database, and nginx in front of them with deploy/nginx.conf
// (make cluster, and the cluster test). Every process is a real one.
package deploy

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"text/template"
	"time"
)

//go:embed nginx.conf
var nginxConf string

// Test keys of the sandbox gateway shared by the cluster's processes (they
// move no money).
const (
	GatewayKey           = "sk_test_cluster"
	GatewayWebhookSecret = "whsec_cluster"
)

// FailTimeout is how long nginx leaves an instance alone after a failed
// request (fail_timeout in nginx.conf). In a rolling restart, an instance
// ready again may still be left alone for that long: wait until it takes
// requests through the proxy (WaitTraffic) before stopping the next one.
const FailTimeout = 2 * time.Second

// Options start a cluster.
type Options struct {
	// Bin is the members binary, Nginx the nginx binary.
	Bin, Nginx string
	// DSN is the members database (PostgreSQL), GatewayDSN the gateway's.
	DSN, GatewayDSN string
	// Dir holds nginx's prefix and every process's log.
	Dir string
	// ProxyAddr is nginx's listen address (empty: a free loopback port).
	ProxyAddr string
	// Demo loads the demo members into an empty database (first instance).
	Demo bool
	// Serve are more flags for every instance.
	Serve []string
}

// Cluster is the running gateway, instances and proxy.
type Cluster struct {
	o          Options
	ProxyURL   string
	GatewayURL string
	Instances  [2]*Instance
	gateway    *Proc
	nginx      *Proc
}

// Instance is one `members serve`.
type Instance struct {
	Name        string
	Addr        string // listen address
	MetricsAddr string
	proc        *Proc
}

// Proc is a child process with its output in a log file.
type Proc struct {
	cmd  *exec.Cmd
	log  *os.File
	from int64 // where this run's output starts in log (a restart appends)
	done chan struct{}
	err  error
}

// Start starts the gateway, both instances (one after the other: the
// first migrates and loads the demo) and nginx, each once it answers.
func Start(ctx context.Context, o Options) (*Cluster, error) {
	if err := os.MkdirAll(filepath.Join(o.Dir, "tmp"), 0o750); err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	c := &Cluster{o: o}
	ok := false
	defer func() {
		if !ok {
			c.Close()
		}
	}()
	gwAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	proxyAddr := o.ProxyAddr
	if proxyAddr == "" {
		if proxyAddr, err = freeAddr(); err != nil {
			return nil, err
		}
	}
	c.ProxyURL = "http://" + proxyAddr
	c.GatewayURL = "http://" + gwAddr + "/gateway"
	c.gateway, err = start(o.Dir, "gateway", o.Bin, "gateway", "--addr", gwAddr, "--db", o.GatewayDSN,
		"--key", GatewayKey, "--webhook-secret", GatewayWebhookSecret,
		"--webhook-url", c.ProxyURL+"/webhooks/gateway", "--trusted-proxies", "127.0.0.1/32")
	if err != nil {
		return nil, err
	}
	if err := waitHTTP(ctx, "http://"+gwAddr+"/gateway/v1/tokens", 30*time.Second, c.gateway, func(code int) bool { return code != 0 }); err != nil {
		return nil, fmt.Errorf("gateway: %w\n%s", err, c.gateway.Tail())
	}
	for i, name := range []string{"a", "b"} {
		addr, err := freeAddr()
		if err != nil {
			return nil, err
		}
		maddr, err := freeAddr()
		if err != nil {
			return nil, err
		}
		c.Instances[i] = &Instance{Name: name, Addr: addr, MetricsAddr: maddr}
		if err := c.StartInstance(ctx, i); err != nil {
			return nil, err
		}
	}
	if err := c.startNginx(ctx, proxyAddr); err != nil {
		return nil, err
	}
	ok = true
	return c, nil
}

// StartInstance starts instance i (again) and waits until it is ready.
// A first start whose port another process took meanwhile (freeAddr gives
// the port back before the instance binds it, and tests running beside
// this one start servers too) is made again on other ports; a restart
// keeps its ports, which nginx knows.
func (c *Cluster) StartInstance(ctx context.Context, i int) error {
	in := c.Instances[i]
	first := in.proc == nil
	for try := 1; ; try++ {
		args := []string{"serve", "--addr", in.Addr, "--db", c.o.DSN, "--metrics-addr", in.MetricsAddr,
			"--public-url", c.ProxyURL, "--trusted-proxies", "127.0.0.1/32",
			"--gateway-url", c.GatewayURL, "--gateway-key", GatewayKey, "--gateway-webhook-secret", GatewayWebhookSecret,
			"--log-requests", "off"}
		if c.o.Demo && i == 0 {
			args = append(args, "--demo")
		}
		args = append(args, c.o.Serve...)
		p, err := start(c.o.Dir, "instance-"+in.Name, c.o.Bin, args...)
		if err != nil {
			return err
		}
		in.proc = p
		// what answers at the address is this instance only once it says
		// it listens there
		err = waitOutput(ctx, p, "listening on http://"+in.Addr+" ", 60*time.Second)
		if err != nil && first && try < 5 && strings.Contains(p.output(), "address already in use") {
			if in.Addr, err = freeAddr(); err != nil {
				return err
			}
			if in.MetricsAddr, err = freeAddr(); err != nil {
				return err
			}
			continue
		}
		if err == nil {
			err = waitHTTP(ctx, "http://"+in.Addr+"/readyz", 60*time.Second, p, func(code int) bool { return code == 200 })
		}
		if err != nil {
			return fmt.Errorf("instance %s: %w\n%s", in.Name, err, p.Tail())
		}
		return nil
	}
}

// output is what this run of p has printed so far.
func (p *Proc) output() string {
	b, err := os.ReadFile(p.log.Name())
	if err != nil || int64(len(b)) < p.from {
		return ""
	}
	return string(b[p.from:])
}

// waitOutput waits until this run of p has printed line, p exits or within
// passes.
func waitOutput(ctx context.Context, p *Proc, line string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for !strings.Contains(p.output(), line) {
		if p.Exited() {
			return fmt.Errorf("exited before it printed %q", line)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no %q after %s", line, within)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return nil
}

func (c *Cluster) startNginx(ctx context.Context, listen string) error {
	tpl, err := template.New("nginx").Parse(nginxConf)
	if err != nil {
		return fmt.Errorf("nginx.conf: %w", err)
	}
	var b bytes.Buffer
	if err := tpl.Execute(&b, map[string]any{
		"Prefix": c.o.Dir, "Listen": listen, "AsRoot": os.Geteuid() == 0, "FailTimeout": int(FailTimeout.Seconds()),
		"Instances": []string{c.Instances[0].Addr, c.Instances[1].Addr},
	}); err != nil {
		return fmt.Errorf("nginx.conf: %w", err)
	}
	conf := filepath.Join(c.o.Dir, "nginx.conf")
	if err := os.WriteFile(conf, b.Bytes(), 0o600); err != nil {
		return fmt.Errorf("nginx.conf: %w", err)
	}
	p, err := start(c.o.Dir, "nginx", c.o.Nginx, "-e", filepath.Join(c.o.Dir, "error.log"), "-p", c.o.Dir, "-c", conf)
	if err != nil {
		return err
	}
	c.nginx = p
	if err := waitHTTP(ctx, c.ProxyURL+"/proxy-healthz", 20*time.Second, p, func(code int) bool { return code == 200 }); err != nil {
		errLog, _ := os.ReadFile(filepath.Join(c.o.Dir, "error.log")) // #nosec G304 -- the cluster's own log
		return fmt.Errorf("nginx: %w\n%s\n%s", err, p.Tail(), errLog)
	}
	return nil
}

// WaitTraffic waits until instance i has answered requests other than
// its readiness probe, i.e. the proxy sends it members again. Its metrics
// count them (a restarted instance starts from 0).
func (c *Cluster) WaitTraffic(ctx context.Context, i int, within time.Duration) error {
	in := c.Instances[i]
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(within)
	for {
		if res, err := client.Get("http://" + in.MetricsAddr + "/metrics"); err == nil {
			b, _ := io.ReadAll(res.Body)
			_ = res.Body.Close()
			for _, line := range strings.Split(string(b), "\n") {
				if strings.HasPrefix(line, "members_http_requests_total{") && !strings.Contains(line, `route="GET /readyz"`) &&
					!strings.HasSuffix(line, " 0") {
					return nil
				}
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("instance %s took no request through the proxy within %s", in.Name, within)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Kill ends instance i with SIGKILL: no shutdown code runs.
func (c *Cluster) Kill(i int) {
	c.Instances[i].proc.signal(syscall.SIGKILL)
	_ = c.Instances[i].proc.Wait(10 * time.Second)
}

// Stop sends SIGTERM to instance i and waits for its exit; the error is
// its exit status when not 0.
func (c *Cluster) Stop(i int, within time.Duration) error {
	p := c.Instances[i].proc
	p.signal(syscall.SIGTERM)
	return p.Wait(within)
}

// Log is instance i's output so far.
func (c *Cluster) Log(i int) string { return c.Instances[i].proc.Tail() }

// Pids are the process ids of the gateway, the instances and nginx (its
// master; the worker's CPU is not counted).
func (c *Cluster) Pids() []int {
	var out []int
	for _, p := range []*Proc{c.gateway, c.Instances[0].proc, c.Instances[1].proc, c.nginx} {
		if p != nil {
			out = append(out, p.cmd.Process.Pid)
		}
	}
	return out
}

// ProxyErrors is nginx's error log, its "no live upstreams" lines counted
// rather than repeated, at most its last 60 other lines.
func (c *Cluster) ProxyErrors() string {
	b, err := os.ReadFile(filepath.Join(c.o.Dir, "error.log")) // #nosec G304 -- the cluster's own log
	if err != nil {
		return ""
	}
	var keep []string
	noLive := 0
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "no live upstreams") {
			noLive++
			continue
		}
		keep = append(keep, line)
	}
	if len(keep) > 60 {
		keep = keep[len(keep)-60:]
	}
	return fmt.Sprintf("%s\n(%d lines \"no live upstreams\")", strings.Join(keep, "\n"), noLive)
}

// Close stops nginx, the instances and the gateway.
func (c *Cluster) Close() {
	var ps []*Proc
	if c.nginx != nil {
		ps = append(ps, c.nginx)
	}
	for _, in := range c.Instances {
		if in != nil && in.proc != nil {
			ps = append(ps, in.proc)
		}
	}
	if c.gateway != nil {
		ps = append(ps, c.gateway)
	}
	for _, p := range ps {
		p.signal(syscall.SIGTERM)
		if p.Wait(20*time.Second) != nil {
			p.signal(syscall.SIGKILL)
			_ = p.Wait(5 * time.Second)
		}
		_ = p.log.Close()
	}
}

// Wait waits for the process to end within d; its exit error, or a
// timeout error.
func (p *Proc) Wait(d time.Duration) error {
	select {
	case <-p.done:
		return p.err
	case <-time.After(d):
		return fmt.Errorf("%s: still running after %s", p.cmd.Path, d)
	}
}

// Exited reports whether the process has ended.
func (p *Proc) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func (p *Proc) signal(s os.Signal) {
	if !p.Exited() {
		_ = p.cmd.Process.Signal(s)
	}
}

// Tail is the last 8 KiB of the process's output.
func (p *Proc) Tail() string {
	b, err := os.ReadFile(p.log.Name())
	if err != nil {
		return ""
	}
	if len(b) > 8<<10 {
		b = b[len(b)-8<<10:]
	}
	return string(b)
}

func start(dir, name, bin string, args ...string) (*Proc, error) {
	f, err := os.OpenFile(filepath.Join(dir, name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600) // #nosec G304 -- the cluster's own folder
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	fmt.Fprintf(f, "--- %s %s\n", time.Now().Format(time.RFC3339), strings.Join(append([]string{bin}, args...), " "))
	from, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	cmd := exec.Command(bin, args...) // #nosec G204 -- the cluster's own binaries
	cmd.Stdout, cmd.Stderr = f, f
	cmd.Env = os.Environ()
	if err := cmd.Start(); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &Proc{cmd: cmd, log: f, from: from, done: make(chan struct{})}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	return p, nil
}

// waitHTTP polls url until ok(status) (0: no answer), the process exits
// or within passes.
func waitHTTP(ctx context.Context, url string, within time.Duration, p *Proc, ok func(int) bool) error {
	client := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(within)
	for {
		code := 0
		if res, err := client.Get(url); err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			_ = res.Body.Close()
			code = res.StatusCode
		}
		if ok(code) {
			return nil
		}
		if p.Exited() {
			return errors.New("exited before it answered")
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no answer at %s after %s (last status %d)", url, within, code)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("free port: %w", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
