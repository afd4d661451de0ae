package worker

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"
)

// proc is one worker process and the parent's ends of its pipes.
type proc struct {
	cmd   *exec.Cmd
	pid   int
	stdin io.WriteCloser
	enc   *gob.Encoder
	// replies delivers the worker's replies in order; it is closed when the
	// worker's stdout ends (the worker exited or broke the protocol), after
	// readErr is set.
	replies chan reply
	readErr error         // why stdout ended when not at EOF: a protocol error
	exited  chan struct{} // closed once the process has been waited for and its stderr read to the end
	stopped chan struct{} // closed by kill: the reader stops delivering
	stopMu  sync.Once
	stderr  *ring
}

// stderrKeep is how many bytes of a worker's stderr the parent keeps; the
// tails reported are cut from them. It holds the first fatal-signal report
// even after GOTRACEBACK=crash has dumped a few dozen threads after it.
const stderrKeep = 256 << 10

// ioDelay bounds how long the parent waits, after a worker exited, for its
// stderr to end (a process the worker started could hold it open).
const ioDelay = 2 * time.Second

// spawn starts a worker process running command with env, in a process
// group of its own and with SIGKILL as its parent-death signal. Its stderr
// is kept in a ring (and copied to tee when not nil).
func spawn(command, env []string, tee io.Writer) (*proc, error) {
	if len(command) == 0 {
		return nil, errors.New("worker: empty command")
	}
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Env = env
	// Setpgid: a timeout kills the worker and anything it started.
	// Pdeathsig: a worker does not outlive a parent that was killed (one
	// that exits normally closes the worker's stdin, which ends Serve).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p := &proc{
		cmd:     cmd,
		replies: make(chan reply, 1),
		exited:  make(chan struct{}),
		stopped: make(chan struct{}),
		stderr:  &ring{max: stderrKeep, tee: tee},
	}
	cmd.Stderr = p.stderr
	cmd.WaitDelay = ioDelay
	// The worker writes its stdout straight into a pipe that only the
	// reader closes, so a reply written just before the worker exits is
	// not lost when Wait returns (exec's StdoutPipe would be closed by it).
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("worker: pipe: %w", err)
	}
	cmd.Stdout = outW
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("worker: pipe: %w", err)
	}
	err = startOnSpawner(cmd)
	outW.Close()
	if err != nil {
		outR.Close()
		return nil, fmt.Errorf("worker: starting %q: %w", command[0], err)
	}
	p.pid = cmd.Process.Pid
	p.enc = gob.NewEncoder(p.stdin)
	go func() {
		cmd.Wait() // the state is in cmd.ProcessState
		close(p.exited)
	}()
	go p.read(outR)
	return p, nil
}

// read decodes replies from the worker's stdout until it ends.
func (p *proc) read(out *os.File) {
	defer out.Close()
	defer close(p.replies)
	dec := gob.NewDecoder(bufio.NewReader(out))
	for {
		var r reply
		if err := dec.Decode(&r); err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				p.readErr = fmt.Errorf("protocol stream broken: %w", err)
			}
			return
		}
		select {
		case p.replies <- r:
		case <-p.stopped:
			return
		}
	}
}

// send writes r to the worker on a goroutine (a worker that stopped
// reading must not block the parent) and reports the result on the
// returned channel.
func (p *proc) send(r request) <-chan error {
	done := make(chan error, 1)
	go func() { done <- p.enc.Encode(&r) }()
	return done
}

// kill sends SIGKILL to the worker's process group, unless the worker has
// already been waited for, and waits for it.
func (p *proc) kill() {
	p.stopMu.Do(func() { close(p.stopped) })
	select {
	case <-p.exited:
	default:
		syscall.Kill(-p.pid, syscall.SIGKILL)
		p.cmd.Process.Kill()
		<-p.exited
	}
}

// done reports whether the worker has exited and been waited for.
func (p *proc) done() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// status describes how the worker ended; p must be done. signal is the
// fatal signal: the one the Go runtime reported in stderr, if it did (with
// GOTRACEBACK=crash it then dies by SIGABRT, or by the SIGQUIT it relays
// to dump every thread, whatever the signal was), else
// the one that ended the process, if any.
func (p *proc) status() (status, signal string) {
	st := p.cmd.ProcessState
	if st == nil {
		return "not waited for", ""
	}
	if signal = reportedSignal(p.stderr.String()); signal != "" {
		return st.String(), signal
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return st.String(), signalName(ws.Signal())
	}
	return st.String(), ""
}

// spawner starts processes from one goroutine locked to its OS thread for
// good: Linux sends the parent-death signal when the thread that created a
// child exits, not the process, and Go may end threads (go.dev/issue/27505).
var spawner = sync.OnceValue(func() chan<- func() {
	ch := make(chan func())
	go func() {
		runtime.LockOSThread() // never unlocked: the thread lives as long as the process
		for f := range ch {
			f()
		}
	}()
	return ch
})

func startOnSpawner(cmd *exec.Cmd) error {
	done := make(chan error, 1)
	spawner() <- func() { done <- cmd.Start() }
	return <-done
}

// ring is an io.Writer keeping the last max bytes written to it, and
// copying everything to tee when tee is not nil. It is safe for concurrent
// use.
type ring struct {
	mu  sync.Mutex
	buf []byte
	max int
	tee io.Writer
}

func (r *ring) Write(b []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, b...)
	if len(r.buf) > 2*r.max {
		r.buf = r.buf[:copy(r.buf, r.buf[len(r.buf)-r.max:])]
	}
	if r.tee != nil {
		r.tee.Write(b) // a failing tee must not stop the worker
	}
	return len(b), nil
}

// String returns the last max bytes written.
func (r *ring) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(r.buf[max(0, len(r.buf)-r.max):])
}
