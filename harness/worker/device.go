package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpudiff/gpudiff/harness"
)

// Subcommand is the hidden gpudiff subcommand that runs Serve; the default
// Options.Command re-executes the running binary with it.
const Subcommand = "__worker"

// MarkerEnv is set to "1" in every worker's environment. A test binary that
// is its own worker checks it in TestMain and calls Serve instead of
// running tests.
const MarkerEnv = "GPUDIFF_WORKER"

// ExitServeError is the exit status of a worker whose Serve returned an
// error (e.g. after a lost device).
const ExitServeError = 4

// Defaults of Options.
const (
	DefaultTimeout        = 30 * time.Second
	DefaultCompileTimeout = 60 * time.Second
	DefaultStartTimeout   = 60 * time.Second
	DefaultMaxStarts      = 3
)

// Options configures the workers of a Device. The zero value is ready to
// use.
type Options struct {
	// Timeout bounds the run phase of each dispatch — from the worker's
	// report that the pipeline is created to its reply: the buffers, the
	// dispatch and the readback — and how long Close waits for a worker to
	// exit. A worker that exceeds it is killed and Run returns a
	// *TimeoutError with Phase PhaseDispatch (a hang). On a backend that
	// compiles at the first dispatch (harness.CompilesAtFirstDispatch: GL)
	// the run phase has CompileTimeout + Timeout instead, and its timeout
	// Phase PhaseFirstDispatch (a slow compile or a hang). Zero means
	// DefaultTimeout (30 s).
	Timeout time.Duration
	// CompileTimeout bounds the compile phase of each dispatch: from
	// sending it to the worker (in RunAll, from the reply to the one
	// before) to the worker's report that the shader modules and the
	// pipeline are created. A worker that exceeds it is killed and Run
	// returns a *TimeoutError with Phase PhaseCompile (a slow compiler,
	// not a hang). Zero means DefaultCompileTimeout (60 s).
	CompileTimeout time.Duration
	// StartTimeout bounds each worker start: the process start, the WebGPU
	// instance and opening the adapter (about 0.1 s on an idle machine,
	// seconds on a loaded one). A worker that exceeds it is killed and
	// counts as a failed start (see MaxStarts). Zero means
	// DefaultStartTimeout (60 s).
	StartTimeout time.Duration
	// Command starts a worker: the program and its arguments. Nil means
	// the running binary (os.Executable) with the argument Subcommand.
	// Whatever it runs must end up calling Serve on its stdin and stdout.
	Command []string
	// Env is added to the parent's environment for the worker ("KEY=value";
	// later entries win): fault injection (FaultEnv), driver selection
	// (VK_ICD_FILENAMES, MESA_*), logging (harness.LogEnv).
	Env []string
	// MaxStarts is how many workers in a row may die or time out before
	// opening the adapter before the Device gives up (*StartError). Zero
	// means DefaultMaxStarts (3).
	MaxStarts int
	// Stderr, when not nil, receives a copy of everything the workers
	// write to stderr. Writes to it must not block for long.
	Stderr io.Writer
}

// withDefaults fills in the zero fields of o.
func (o Options) withDefaults() (Options, error) {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.CompileTimeout <= 0 {
		o.CompileTimeout = DefaultCompileTimeout
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = DefaultStartTimeout
	}
	if o.MaxStarts <= 0 {
		o.MaxStarts = DefaultMaxStarts
	}
	if len(o.Command) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return o, fmt.Errorf("worker: finding the running binary to re-execute: %w", err)
		}
		o.Command = []string{exe, Subcommand}
	}
	return o, nil
}

// Device runs dispatches on one adapter in a worker process. It is a
// harness.Runner (Info, Run, Close), so code written against that interface
// runs in-process or isolated alike.
//
// A Device is safe for concurrent use, but it runs one dispatch at a time:
// concurrent Runs wait for each other, and Close waits for a Run in
// progress. Devices of different adapters (or several of the same adapter)
// are independent processes and run in parallel.
type Device struct {
	adapter string // as given to Start
	opts    Options
	env     []string
	info    harness.AdapterInfo

	mu       sync.Mutex
	p        *proc        // the live worker; nil until the next Run starts one
	nextID   uint64       // request ids, increasing across workers
	starts   atomic.Int64 // worker processes started
	failures int          // workers in a row that failed to start
	gaveUp   *StartError
	closed   bool
}

// Start starts a worker process for the named wgpu adapter (a name as
// harness.Open accepts it: AdapterInfo.Name, an alias or an unambiguous
// prefix) and opens the adapter in it, so Info is
// known and the first Run pays no start-up cost. Workers that die or time
// out while starting are retried up to opts.MaxStarts times.
//
// An adapter of a driver set other than this process's (its name carries
// the set's suffix, harness.DriverSetOf: "wgpu-vulkan:llvmpipe-mesa25")
// gets a worker started with the set's Env (harness.DriverSet), whose
// harness opens it among that set's drivers alone; its Info's driver fields
// are what that worker loaded. Such a name must be a full name or an alias
// (a prefix carries no suffix and resolves among this process's set).
//
// Errors: *harness.UnknownAdapterError or *harness.AmbiguousAdapterError
// when the name designates no single adapter; *harness.DeviceError when the adapter refuses a device; a
// *StartError when MaxStarts workers in a row died or timed out first;
// other errors when the worker command cannot be found.
func Start(adapter string, opts Options) (*Device, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(), opts.Env...)
	if set, ok := harness.DriverSetOf(adapter); ok && set.Name != harness.CurrentDriverSet() {
		env = append(env, set.Env...) // after opts.Env: nothing selects other drivers
	}
	env = append(env, MarkerEnv+"=1")
	d := &Device{adapter: adapter, opts: opts, env: env}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.restart(context.Background()); err != nil {
		var se *StartError
		if errors.As(err, &se) && se.Attempts == 0 {
			return nil, se.Err // the adapter itself failed to open in a healthy worker
		}
		return nil, err
	}
	return d, nil
}

var _ harness.Runner = (*Device)(nil)

// init lets harness.OpenAny open the wgpu adapters of other driver sets,
// which need a worker process (Start).
func init() {
	harness.RegisterDriverSetOpener(func(name string) (harness.Runner, error) {
		d, err := Start(name, Options{})
		if err != nil {
			return nil, err // not a typed nil *Device in the interface
		}
		return d, nil
	})
}

// name is the adapter's name for errors: AdapterInfo.Name once a worker
// has opened it, else the name given to Start.
func (d *Device) name() string {
	if d.info.Name != "" {
		return d.info.Name
	}
	return d.adapter
}

// Info describes the adapter, as the worker's harness.Device reported it
// when Start opened it, with the driver fields as this process finds them
// (harness.WithDriver; the worker does not probe drivers). It does not wait
// for a Run in progress.
func (d *Device) Info() harness.AdapterInfo { return harness.WithDriver(d.info) }

// Starts returns how many worker processes the Device has started: 1 plus
// one for each restart after a crash, timeout or cancellation, and one for
// each worker that failed to start. It does not wait for a Run in
// progress.
func (d *Device) Starts() int { return int(d.starts.Load()) }

// Run runs k with job in the worker, starting a fresh worker first when the
// last one died, and returns the output buffer's job.OutputSize bytes.
//
// Errors, by type:
//   - *harness.CompileError, *harness.DeviceError and the harness's other
//     errors are the worker's harness.Device.Run errors, with the same
//     types and fields (a DeviceError's Err keeps only its text). The
//     worker stays up, except after a Broken DeviceError (below).
//   - *CrashError: the worker died during the dispatch: a signal, an
//     abort, an exit, a broken protocol stream, or a Broken DeviceError
//     (a lost device, in CrashError.Err) after which it exits.
//   - *TimeoutError: compiling took longer than Options.CompileTimeout
//     (Phase PhaseCompile) or running longer than Options.Timeout (Phase
//     PhaseDispatch; on GL, whose compile ends at the first dispatch,
//     longer than both limits together: PhaseFirstDispatch); the worker
//     was killed. errors.Is(err,
//     context.DeadlineExceeded) holds.
//   - an error wrapping ctx.Err() when ctx ended first: the worker was
//     killed, because a dispatch cannot be stopped any other way. A ctx
//     already done on entry returns ctx.Err() and touches no worker.
//   - *StartError when the replacement worker could not be started; the
//     Device has given up and every later Run returns the same error.
//   - an error for a closed Device.
//
// After a CrashError, TimeoutError or cancellation the next Run starts a
// new worker; nothing else is lost.
func (d *Device) Run(ctx context.Context, k harness.Kernel, job harness.Dispatch) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.closed:
		return nil, errors.New("worker: Run on a closed Device")
	case d.gaveUp != nil:
		return nil, d.gaveUp
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if d.p != nil && d.p.done() { // died while idle: nobody's dispatch
		d.p = nil
	}
	if d.p == nil {
		if err := d.restart(ctx); err != nil {
			return nil, err
		}
	}
	d.nextID++
	req := request{ID: d.nextID, Op: opRun, Adapter: d.adapter, Kernel: k, Dispatch: job}
	rep, err := d.exchange(ctx, req, OpDispatch, d.opts.CompileTimeout)
	if err != nil {
		d.p = nil
		return nil, err
	}
	if rep.Err != nil {
		return nil, rep.Err.err()
	}
	if rep.Output == nil {
		rep.Output = []byte{} // gob sends an empty slice as nil
	}
	return rep.Output, nil
}

// restart starts workers until one has opened the adapter, at most
// MaxStarts in a row. A worker that opens the adapter resets the count.
// When the count runs out it sets d.gaveUp. A healthy worker whose open
// fails (unknown adapter, refused device) is final too: it returns a
// *StartError with Attempts 0 and the open error. d.mu is held.
func (d *Device) restart(ctx context.Context) error {
	var last error
	for d.failures < d.opts.MaxStarts {
		if err := ctx.Err(); err != nil {
			return err
		}
		p, err := spawn(d.opts.Command, d.env, d.opts.Stderr)
		if err != nil {
			d.gaveUp = &StartError{Adapter: d.name(), Attempts: d.failures, Err: err}
			return d.gaveUp
		}
		d.starts.Add(1)
		d.p = p
		d.nextID++
		rep, err := d.exchange(ctx, request{ID: d.nextID, Op: opOpen, Adapter: d.adapter}, OpStart, d.opts.StartTimeout)
		if err != nil {
			d.p = nil
			if ctx.Err() != nil {
				return err // the caller gave up, not the worker
			}
			d.failures++
			last = err
			continue
		}
		if rep.Err != nil {
			d.close()
			d.gaveUp = &StartError{Adapter: d.name(), Err: rep.Err.err()}
			return d.gaveUp
		}
		if d.info.Name != "" && rep.Info.Name != d.info.Name {
			d.close()
			d.gaveUp = &StartError{Adapter: d.name(),
				Err: fmt.Errorf("worker: restarted worker opened %q, not %q", rep.Info.Name, d.info.Name)}
			return d.gaveUp
		}
		if d.info.Name == "" {
			d.info = rep.Info // in Start, before anyone can call Info
		}
		d.failures = 0
		return nil
	}
	d.gaveUp = &StartError{Adapter: d.name(), Attempts: d.failures, Err: last}
	return d.gaveUp
}

// exchange sends req to the live worker d.p and waits for its reply, the
// worker's death, the time limit, or the end of ctx, whichever comes
// first. Any error means the worker is dead (and waited for); the caller
// drops it. op is OpStart or OpDispatch, for the errors. limit bounds the
// wait for the reply (OpStart) or for the progress frame that ends a
// dispatch's compile phase (OpDispatch); the dispatch phase after it has
// Options.Timeout.
func (d *Device) exchange(ctx context.Context, req request, op string, limit time.Duration) (reply, error) {
	p := d.p
	ph := phaseTimer(op, limit)
	defer ph.timer.Stop()
	wrote := p.send(req)
	for {
		select {
		case <-wrote:
			// A failed write means the worker is gone or going: its
			// stdout ends next, and that is reported below.
			wrote = nil
		case rep, ok := <-p.replies:
			switch {
			case !ok:
				if p.readErr != nil {
					p.kill() // alive, but its stream is garbage
				}
				return reply{}, d.crashed(ctx, p, ph.timer.C, op, req.Kernel.Label, nil, p.readErr)
			case rep.ID != req.ID:
				p.kill()
				return reply{}, d.crashed(ctx, p, ph.timer.C, op, req.Kernel.Label, nil,
					fmt.Errorf("protocol: reply to request %d while waiting for %d", rep.ID, req.ID))
			case rep.Compiled:
				ph.compiled(d.opts.CompileTimeout, d.opts.Timeout, harness.CompilesAtFirstDispatch(d.info.Backend))
				continue
			case rep.Err.broken():
				return reply{}, d.crashed(ctx, p, ph.timer.C, op, req.Kernel.Label, rep.Err.err(), nil)
			}
			if wrote != nil {
				<-wrote // the worker read the whole request: the write is over
			}
			return rep, nil
		case <-ph.timer.C:
			p.kill()
			return reply{}, &TimeoutError{Adapter: d.name(), Op: op, Phase: ph.phase, Label: req.Kernel.Label,
				After: ph.limit, StderrTail: tail(p.stderr.String())}
		case <-ctx.Done():
			p.kill()
			return reply{}, fmt.Errorf("worker: %s: %s abandoned, worker killed: %w",
				d.name(), opText(op, req.Kernel.Label), ctx.Err())
		}
	}
}

// phased is the timer of one request: its phase (PhaseCompile, then
// PhaseDispatch, of a dispatch; "" for OpStart) and that phase's limit.
type phased struct {
	timer *time.Timer
	phase string
	limit time.Duration
}

// phaseTimer starts the timer of a request of op whose first phase has
// limit: a dispatch's compile phase, or a start.
func phaseTimer(op string, limit time.Duration) *phased {
	ph := &phased{timer: time.NewTimer(limit), limit: limit}
	if op == OpDispatch {
		ph.phase = PhaseCompile
	}
	return ph
}

// compiled switches a dispatch's timer to its dispatch phase, of limit
// run, or on a backend that compiles at the first dispatch (lazy,
// harness.CompilesAtFirstDispatch) to PhaseFirstDispatch, of limit compile
// + run (a second progress frame changes nothing).
func (ph *phased) compiled(compile, run time.Duration, lazy bool) {
	if ph.phase != PhaseCompile {
		return
	}
	ph.phase, ph.limit = PhaseDispatch, run
	if lazy {
		ph.phase, ph.limit = PhaseFirstDispatch, compile+run
	}
	ph.timer.Reset(ph.limit)
}

// restart sets the timer for the compile phase of the next dispatch, of
// limit compile (RunAll: the worker starts it once it has answered the one
// before).
func (ph *phased) restart(compile time.Duration) {
	ph.phase, ph.limit = PhaseCompile, compile
	ph.timer.Reset(compile)
}

// crashed waits for a dying worker to exit — killing it when the time
// limit or ctx ends first — and describes its death. cause is the Broken
// DeviceError it reported, if any; why says what the parent saw, if
// anything beyond the exit.
func (d *Device) crashed(ctx context.Context, p *proc, limit <-chan time.Time, op, label string, cause, why error) *CrashError {
	select {
	case <-p.exited:
	case <-limit:
		p.kill()
		if why == nil {
			why = errors.New("closed its output but did not exit within the time limit")
		}
	case <-ctx.Done():
		p.kill()
	}
	status, signal := p.status()
	detail := ""
	if why != nil {
		detail = why.Error()
	}
	if cause == nil {
		cause = deathError(d.name(), status, detail)
	}
	return &CrashError{Adapter: d.name(), Op: op, Label: label, Status: status, Signal: signal,
		StderrTail: tail(p.stderr.String()), Detail: detail, Err: cause}
}

// Shutdown stops the worker: it closes the worker's stdin, so Serve closes
// its devices and exits, and waits up to Options.Timeout for that before
// killing the worker's process group. It waits for a Run in progress
// first. It is safe to call more than once (and with Close); the Device
// cannot be used afterwards. When it returns, the worker has been waited
// for: no zombie, and nothing left in its process group unless something
// the worker started escaped it.
//
// The error reports a worker that did not exit cleanly (an exit status
// other than 0, or killed after the time limit); the Device is closed
// either way.
func (d *Device) Shutdown() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	d.closed = true
	return d.close()
}

// Close is Shutdown without its error, the method harness.Runner asks
// for.
func (d *Device) Close() { _ = d.Shutdown() }

// close stops d.p, if any, as Close describes. d.mu is held.
func (d *Device) close() error {
	p := d.p
	d.p = nil
	if p == nil {
		return nil
	}
	p.stdin.Close()
	timer := time.NewTimer(d.opts.Timeout)
	defer timer.Stop()
	select {
	case <-p.exited:
	case <-timer.C:
		p.kill()
		return fmt.Errorf("worker: %s: worker did not exit within %v of Close; killed", d.name(), d.opts.Timeout)
	}
	if st := p.cmd.ProcessState; st == nil || !st.Success() {
		status, _ := p.status()
		return fmt.Errorf("worker: %s: worker exited uncleanly on Close (%s): %s", d.name(), status, tail(p.stderr.String()))
	}
	return nil
}
