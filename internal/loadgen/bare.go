package loadgen

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Bare is the bare server of the benchmarks (cmd/benchbare): a separate
// process answering 204, the yardstick the members server is compared to.
type Bare struct {
	URL string // http://127.0.0.1:PORT/
	cmd *exec.Cmd
	dir string
}

// StartBare builds cmd/benchbare (run from the repository's root, as make
// bench does) and starts it.
func StartBare(ctx context.Context) (*Bare, error) {
	dir, err := os.MkdirTemp("", "benchbare-")
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, "benchbare")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/benchbare").CombinedOutput(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("build the bare server: %w\n%s", err, out)
	}
	cmd := exec.CommandContext(ctx, bin) // #nosec G204 -- the binary built just above
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("start the bare server: %w", err)
	}
	b := &Bare{cmd: cmd, dir: dir}
	addr := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		addr <- strings.TrimSpace(line)
	}()
	select {
	case a := <-addr:
		if a == "" {
			b.Stop()
			return nil, fmt.Errorf("the bare server did not start")
		}
		b.URL = "http://" + a + "/"
	case <-time.After(10 * time.Second):
		b.Stop()
		return nil, fmt.Errorf("the bare server did not start within 10 s")
	}
	return b, nil
}

// Stop ends the bare server.
func (b *Bare) Stop() {
	_ = b.cmd.Process.Kill()
	_ = b.cmd.Wait()
	_ = os.RemoveAll(b.dir)
}
