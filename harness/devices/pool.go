package devices

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/gpudiff/gpudiff/harness"
)

// WorkerMemory is the memory budgeted per device (one wgpu worker process)
// when DefaultJobs caps the devices by memory. Measured (TestWorkerMemory
// logs it): a worker process holds 95 MiB resident on lavapipe and 114 MiB
// on SwiftShader after 60 modules; LLVM's peak while compiling a large
// module adds to that. 256 MiB per device leaves room for those peaks and
// for the campaign's own heap (the interpreter stages).
const WorkerMemory = 256 << 20

// DefaultJobs is the number of devices per adapter that `gpudiff run`
// opens when --jobs is not given, for adapters adapters: the number of
// CPUs (a driver compiles each module on a CPU, a software adapter —
// lavapipe, SwiftShader, llvmpipe GL — also executes it on the CPUs that
// the interpreter uses, so more devices than CPUs only queue), and at most
// as many as the available memory holds at WorkerMemory per device, every
// adapter counted; never less than 1.
func DefaultJobs(adapters int) int {
	n := runtime.NumCPU()
	if adapters < 1 {
		adapters = 1
	}
	if avail := memAvailable(); avail > 0 {
		n = min(n, int(avail/WorkerMemory/uint64(adapters)))
	}
	return max(n, 1)
}

// memAvailable is /proc/meminfo's MemAvailable in bytes, 0 when unknown.
func memAvailable() uint64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// Pool is several devices of one adapter (Open with Options.Jobs > 1),
// each its own worker process, used as one device: Run and RunAll take
// whichever member is free (waiting while all are busy), so up to Jobs()
// callers run at once, each on a device of its own. Every member is the
// same adapter, so a dispatch's result does not depend on which member
// ran it. Info is the adapter's.
type Pool struct {
	members []harness.Runner
	free    chan harness.Runner
}

// NewPool makes a pool of members, which must be devices of one adapter.
func NewPool(members []harness.Runner) *Pool {
	p := &Pool{members: members, free: make(chan harness.Runner, len(members))}
	for _, m := range members {
		p.free <- m
	}
	return p
}

// Jobs is the number of members: how many callers may run at once.
func (p *Pool) Jobs() int { return len(p.members) }

// Members are the pool's devices, in the order they were opened.
func (p *Pool) Members() []harness.Runner { return p.members }

// Info is the adapter's information (every member's).
func (p *Pool) Info() harness.AdapterInfo { return p.members[0].Info() }

// acquire takes a free member, waiting for one; ok is false when ctx ended
// first.
func (p *Pool) acquire(ctx context.Context) (harness.Runner, bool) {
	select {
	case m := <-p.free:
		return m, true
	default:
	}
	select {
	case m := <-p.free:
		return m, true
	case <-ctx.Done():
		return nil, false
	}
}

// Run runs one dispatch on a free member.
func (p *Pool) Run(ctx context.Context, k harness.Kernel, job harness.Dispatch) ([]byte, error) {
	m, ok := p.acquire(ctx)
	if !ok {
		return nil, ctx.Err()
	}
	defer func() { p.free <- m }()
	return m.Run(ctx, k, job)
}

// runAller is a device that runs several dispatches in order at once
// (worker.Device.RunAll).
type runAller interface {
	RunAll(ctx context.Context, ks []harness.Kernel, jobs []harness.Dispatch) ([][]byte, []error)
}

// RunAll runs ks[i] with jobs[i] in order on one free member, as that many
// Run calls on it would (through the member's RunAll when it has one).
func (p *Pool) RunAll(ctx context.Context, ks []harness.Kernel, jobs []harness.Dispatch) ([][]byte, []error) {
	m, ok := p.acquire(ctx)
	if !ok {
		outs, errs := make([][]byte, len(ks)), make([]error, len(ks))
		for i := range errs {
			errs[i] = ctx.Err()
		}
		return outs, errs
	}
	defer func() { p.free <- m }()
	if ra, ok := m.(runAller); ok {
		return ra.RunAll(ctx, ks, jobs)
	}
	outs, errs := make([][]byte, len(ks)), make([]error, len(ks))
	for i := range ks {
		outs[i], errs[i] = m.Run(ctx, ks[i], jobs[i])
	}
	return outs, errs
}

// Close closes every member.
func (p *Pool) Close() {
	var wg sync.WaitGroup
	for _, m := range p.members {
		wg.Add(1)
		go func() { defer wg.Done(); m.Close() }()
	}
	wg.Wait()
}
