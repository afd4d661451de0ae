// Package devices opens the adapters a user selects the way gpudiff runs
// them: each wgpu adapter behind an isolated worker process
// (harness/worker), every other implementation's (Dawn's, harness/dawn,
// already a node process per device) through harness.OpenAny. It is the
// one rule for opening adapters, used by the CLI and by every test that
// runs kernels on the machine's adapters.
//
// It must never: decide which adapters a command should use (callers pass
// the user's selectors), retry a device that failed to open, or print
// anything except to the writer it is given.
package devices

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gpudiff/gpudiff/harness"
	_ "github.com/gpudiff/gpudiff/harness/dawn" // registers Dawn (Tint) adapters when its npm package is installed
	"github.com/gpudiff/gpudiff/harness/worker"
)

// Options configures Open.
type Options struct {
	// Timeout bounds the dispatch phase of each dispatch (after its
	// pipeline is compiled) on a wgpu adapter (worker.Options.Timeout) or
	// a Dawn one (dawn.Device.SetTimeouts); 0 means the default (30 s).
	Timeout time.Duration
	// CompileTimeout bounds the compile phase of each dispatch (shader
	// modules and pipeline; worker.Options.CompileTimeout); 0 means the
	// default (60 s).
	CompileTimeout time.Duration
	// Warn receives warnings (an implementation the selectors name that
	// cannot list its adapters) and, when harness.LogEnabled, wgpu-native's
	// log lines from the workers, each prefixed with "[adapter] ". Nil
	// discards both.
	Warn io.Writer
	// Jobs is the number of devices opened per adapter, each its own
	// worker process (Dawn: its own node process) with its own device;
	// several make that adapter's entry of the Set a *Pool. 0 or 1: one
	// device per adapter, the adapter's own Runner. AutoJobs:
	// DefaultJobs for the number of adapters selected (what `gpudiff run`
	// uses when --jobs is not given).
	Jobs int
	// Variants also opens the variants of the adapters the selectors
	// select (harness.Variants: lavapipe at other subgroup sizes,
	// dawn-vulkan:llvmpipe-mesa25-lp128 and -lp512), which "all" and
	// prefixes leave out; they come after the selected adapters in the
	// Set. A caller runs a case on one only where harness.VariantRuns
	// says so (the case needs subgroups): elsewhere it repeats its base.
	Variants bool
}

// AutoJobs as Options.Jobs opens DefaultJobs devices per adapter.
const AutoJobs = -1

// Set is the opened devices, in the order harness.Select returns their
// adapters (then their variants, with Options.Variants). Close closes them
// all.
type Set []harness.Runner

// Close closes every device of s.
func (s Set) Close() {
	for _, d := range s {
		d.Close()
	}
}

// Open opens the adapters that sels select (harness.Select's rules: a
// name, an alias, a prefix or "all"; none selects wgpu's first Vulkan
// adapter of the system's drivers, a GPU before a CPU adapter). An implementation that cannot list
// its adapters (Dawn without its npm package) is skipped, with a warning
// when the selectors could name one of its adapters. Errors: no adapter at
// all (harness.AllAdapters' error), a selector that matches nothing
// (harness.Select's error), or a device that fails to open ("NAME: …";
// the devices opened before it are closed). With Options.Jobs > 1 each
// adapter's entry is a *Pool of that many devices, opened at once.
//
// With no selectors only wgpu's adapters of this process's driver set are
// listed (harness.LocalAdapters): the default is never another
// implementation's or driver set's adapter, so no other process is started
// to list them (`make run`'s execs stay as fast as before Dawn, Deno and
// Mesa 25).
func Open(sels []string, o Options) (Set, error) {
	var all []harness.AdapterInfo
	var err error
	if len(sels) == 0 {
		all, err = harness.LocalAdapters()
	}
	if len(all) == 0 {
		all, err = harness.AllAdapters()
	}
	if len(all) == 0 {
		return nil, err
	}
	if err != nil && o.Warn != nil {
		var ie *harness.ImplementationError
		if errors.As(err, &ie) && wantsImplementation(sels, ie.Implementation) {
			fmt.Fprintf(o.Warn, "gpudiff: warning: %v\n", err)
		}
	}
	sel, err := harness.Select(all, sels)
	if err != nil {
		return nil, err
	}
	if o.Variants {
		sel = append(sel, harness.Variants(all, sel)...)
	}
	var opened Set
	var logMu sync.Mutex
	jobs := max(o.Jobs, 1)
	if o.Jobs == AutoJobs {
		jobs = DefaultJobs(len(sel))
	}
	for _, a := range sel {
		// A wgpu adapter's members start at once (each is a worker
		// process of its own); other implementations' one after another.
		members := make([]harness.Runner, jobs)
		errs := make([]error, jobs)
		var wg sync.WaitGroup
		for m := range members {
			if a.Implementation != "wgpu" {
				members[m], errs[m] = openOne(a, o, &logMu)
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				members[m], errs[m] = openOne(a, o, &logMu)
			}()
		}
		wg.Wait()
		if i := slices.IndexFunc(errs, func(e error) bool { return e != nil }); i >= 0 {
			err := errs[i]
			for _, m := range members {
				if m != nil {
					m.Close()
				}
			}
			opened.Close()
			return nil, fmt.Errorf("%s: %w", a.Name, err)
		}
		if jobs == 1 {
			opened = append(opened, members[0])
		} else {
			opened = append(opened, NewPool(members))
		}
	}
	return opened, nil
}

// openOne opens one device of adapter a: a worker process for a wgpu
// adapter, harness.OpenAny for any other.
func openOne(a harness.AdapterInfo, o Options, logMu *sync.Mutex) (harness.Runner, error) {
	if a.Implementation != "wgpu" {
		d, err := harness.OpenAny(a.Name)
		if t, ok := d.(timeoutSetter); ok && err == nil {
			t.SetTimeouts(o.CompileTimeout, o.Timeout)
		}
		return d, err
	}
	wo := worker.Options{Timeout: o.Timeout, CompileTimeout: o.CompileTimeout}
	if harness.LogEnabled() && o.Warn != nil {
		// wgpu-native logs to the worker's stderr, which the
		// parent otherwise keeps only for crash reports.
		wo.Stderr = &prefixWriter{mu: logMu, w: o.Warn, prefix: "[" + a.Name + "] "}
	}
	wd, err := worker.Start(a.Name, wo)
	if err != nil {
		return nil, err // not a typed nil *worker.Device in the interface
	}
	return wd, nil
}

// timeoutSetter is a device of another implementation whose phases have
// time limits (harness/dawn.Device).
type timeoutSetter interface {
	SetTimeouts(compile, dispatch time.Duration)
}

// wantsImplementation reports whether the selectors could name an adapter
// of impl (so a failure to list it deserves a warning).
func wantsImplementation(sels []string, impl string) bool {
	for _, s := range sels {
		if s == "all" || strings.HasPrefix(s, impl) {
			return true
		}
	}
	return false
}

// prefixWriter copies complete lines to w, each after prefix; writers that
// share mu share w without interleaving inside a line (and one writer may
// be used by several goroutines: a restarted worker's stderr and its
// predecessor's). A last line without a newline is held until its newline
// arrives.
type prefixWriter struct {
	mu      *sync.Mutex
	w       io.Writer
	prefix  string
	partial []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.partial = append(p.partial, b...)
	i := bytes.LastIndexByte(p.partial, '\n')
	if i < 0 {
		return len(b), nil
	}
	var out bytes.Buffer
	for _, line := range bytes.SplitAfter(p.partial[:i+1], []byte("\n")) {
		if len(line) > 0 {
			out.WriteString(p.prefix)
			out.Write(line)
		}
	}
	p.partial = append(p.partial[:0], p.partial[i+1:]...)
	if _, err := p.w.Write(out.Bytes()); err != nil {
		return 0, err
	}
	return len(b), nil
}
