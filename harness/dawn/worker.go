package dawn

import (
	"bufio"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// workerSource is worker.mjs, run with `node --expose-gc --input-type=module
// -e` (Dawn) or, from a file (workerFile), `deno run` (Deno).
//
//go:embed worker.mjs
var workerSource string

// exitWait bounds how long a worker may take to exit after its stdin closes
// (Close) or after it said it would exit (a lost device) before it is
// killed.
const exitWait = 5 * time.Second

// worker is one node process running worker.mjs.
type worker struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  <-chan []byte // reply lines from fd 3; closed at EOF
	output *tail         // stdout and stderr, for post-mortems
	exited chan struct{} // closed once the process has been waited for
	err    error         // cmd.Wait's error, set before exited closes
}

// startWorker starts node or deno on worker.mjs with args, in its usual
// environment with env's KEY=VALUE pairs over it (workerEnv).
func startWorker(t tools, env []string, args ...string) (*worker, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	exe := t.node
	argv := append([]string{"--expose-gc", "--input-type=module", "-e", workerSource}, args...)
	if t.deno != "" {
		file, err := workerFile()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.impl(), err)
		}
		exe = t.deno
		argv = append([]string{"run", "--quiet", "--allow-all", "--no-prompt", "--no-config", "--no-lock", "--v8-flags=--expose-gc", file}, args...)
	}
	cmd := exec.Command(exe, argv...)
	cmd.Env = workerEnv(t, env)
	cmd.ExtraFiles = []*os.File{w} // fd 3
	out := &tail{max: 16 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	stdin, err := cmd.StdinPipe()
	if err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("%s: starting %s: %w", t.impl(), exe, err)
	}
	w.Close()
	lines := make(chan []byte)
	wk := &worker{cmd: cmd, stdin: stdin, lines: lines, output: out, exited: make(chan struct{})}
	go func() {
		defer close(lines)
		defer r.Close()
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 && err == nil {
				lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		wk.err = cmd.Wait()
		close(wk.exited)
	}()
	return wk, nil
}

// workerFile writes workerSource once per content into the temporary
// directory and returns its path. Deno runs the worker from a file, not
// with `deno eval`: Deno's panic report quotes its command line, which
// would bury the panic under the worker's whole source in a post-mortem.
func workerFile() (string, error) {
	workerFileOnce.Do(func() {
		sum := sha256.Sum256([]byte(workerSource))
		path := filepath.Join(os.TempDir(), fmt.Sprintf("gpudiff-worker-%x.mjs", sum[:8]))
		if b, err := os.ReadFile(path); err == nil && string(b) == workerSource {
			workerFilePath = path
			return
		}
		f, err := os.CreateTemp(filepath.Dir(path), "gpudiff-worker-*.mjs")
		if err != nil {
			workerFileErr = err
			return
		}
		_, err = f.WriteString(workerSource)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(f.Name(), path) // atomic: another process may write the same bytes
		}
		if err != nil {
			os.Remove(f.Name())
			workerFileErr = fmt.Errorf("writing the worker: %w", err)
			return
		}
		workerFilePath = path
	})
	return workerFilePath, workerFileErr
}

var (
	workerFileOnce sync.Once
	workerFilePath string
	workerFileErr  error
)

// pid is the worker's process id.
func (w *worker) pid() int { return w.cmd.Process.Pid }

// errDied is returned by read and Device.exchange when the worker's reply channel
// closed: the process exited or closed fd 3.
var errDied = errors.New("worker died")

// read waits for the next reply line and decodes it into v. It returns
// ctx.Err() when ctx ends first and errDied when the worker is gone.
func (w *worker) read(ctx context.Context, v any) error {
	select {
	case line, ok := <-w.lines:
		if !ok {
			return errDied
		}
		if err := json.Unmarshal(line, v); err != nil {
			return fmt.Errorf("bad reply %.200q: %w", line, err)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// kill ends the process at once and waits for it.
func (w *worker) kill() {
	w.cmd.Process.Kill()
	<-w.exited
}

// stop closes the worker's stdin, which makes it exit, and kills it if it
// has not exited within exitWait.
func (w *worker) stop() {
	w.stdin.Close()
	select {
	case <-w.exited:
	case <-time.After(exitWait):
		w.kill()
	}
}

// postMortem describes a worker that died: how it exited and the end of
// what it printed.
func (w *worker) postMortem() string {
	select {
	case <-w.exited:
	case <-time.After(exitWait):
		w.kill()
	}
	status := "exited normally"
	if w.err != nil {
		status = w.err.Error()
	}
	msg := fmt.Sprintf("%s worker (pid %d) %s", filepath.Base(w.cmd.Path), w.pid(), status)
	if out := strings.TrimSpace(w.output.String()); out != "" {
		msg += "; its last output:\n" + out
	}
	return msg
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
