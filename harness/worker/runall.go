package worker

import (
	"context"
	"fmt"

	"github.com/gpudiff/gpudiff/harness"
)

// RunAll runs ks[i] with jobs[i] for every i, in order, exactly as that
// many Run calls would — same outputs, same errors, a fresh worker after a
// dispatch that ends one — and returns each dispatch's output or error.
// The difference is speed: it writes the requests ahead, so the worker
// goes from one dispatch to the next without waiting for the parent to
// read a reply and send the next request (two process wake-ups, which on
// a loaded machine cost about as much as a small dispatch).
//
// The time limits of each dispatch (Options.CompileTimeout, then
// Options.Timeout from the worker's report that its pipeline is created)
// start when the worker has answered the one before it, which is when the
// worker starts it: each kernel's phases are timed as Run times them. When
// ctx ends, the dispatch in progress and those not yet answered get an
// error wrapping ctx.Err() (the worker is killed, as Run kills it).
func (d *Device) RunAll(ctx context.Context, ks []harness.Kernel, jobs []harness.Dispatch) ([][]byte, []error) {
	outs, errs := make([][]byte, len(ks)), make([]error, len(ks))
	if len(ks) != len(jobs) {
		for i := range errs {
			errs[i] = fmt.Errorf("worker: RunAll needs one dispatch per kernel (%d kernels, %d dispatches)", len(ks), len(jobs))
		}
		return outs, errs
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for start := 0; start < len(ks); {
		if err := d.ready(ctx); err != nil {
			for i := start; i < len(ks); i++ {
				errs[i] = err
			}
			break
		}
		start += d.runAhead(ctx, ks[start:], jobs[start:], outs[start:], errs[start:])
	}
	return outs, errs
}

// ready is Run's checks and restart before a dispatch. d.mu is held.
func (d *Device) ready(ctx context.Context) error {
	switch {
	case d.closed:
		return fmt.Errorf("worker: Run on a closed Device")
	case d.gaveUp != nil:
		return d.gaveUp
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if d.p != nil && d.p.done() { // died while idle: nobody's dispatch
		d.p = nil
	}
	if d.p == nil {
		return d.restart(ctx)
	}
	return nil
}

// runAhead sends every request to the live worker and collects replies in
// order until all are answered or one ends the worker; it returns how many
// dispatches got their output or error (the last of them the one that
// ended the worker, if one did). d.mu is held.
func (d *Device) runAhead(ctx context.Context, ks []harness.Kernel, jobs []harness.Dispatch, outs [][]byte, errs []error) int {
	p := d.p
	reqs := make([]request, len(ks))
	for i := range ks {
		d.nextID++
		reqs[i] = request{ID: d.nextID, Op: opRun, Adapter: d.adapter, Kernel: ks[i], Dispatch: jobs[i]}
	}
	// One writer, in order (the gob stream is one per worker). It ends
	// when every request is written or the worker is gone (a write to a
	// dead worker fails).
	written := make(chan struct{})
	go func() {
		defer close(written)
		for i := range reqs {
			if err := p.enc.Encode(&reqs[i]); err != nil {
				return
			}
		}
	}()
	dead := func(i int, err error) int {
		errs[i] = err
		d.p = nil
		<-written
		return i + 1
	}
	ph := phaseTimer(OpDispatch, d.opts.CompileTimeout)
	defer ph.timer.Stop()
	for i, req := range reqs {
	wait: // until request i's reply: past its progress frame
		for {
			select {
			case rep, ok := <-p.replies:
				switch {
				case !ok:
					if p.readErr != nil {
						p.kill() // alive, but its stream is garbage
					}
					return dead(i, d.crashed(ctx, p, ph.timer.C, OpDispatch, req.Kernel.Label, nil, p.readErr))
				case rep.ID != req.ID:
					p.kill()
					return dead(i, d.crashed(ctx, p, ph.timer.C, OpDispatch, req.Kernel.Label, nil,
						fmt.Errorf("protocol: reply to request %d while waiting for %d", rep.ID, req.ID)))
				case rep.Compiled:
					ph.compiled(d.opts.CompileTimeout, d.opts.Timeout, harness.CompilesAtFirstDispatch(d.info.Backend))
					continue wait
				case rep.Err.broken():
					return dead(i, d.crashed(ctx, p, ph.timer.C, OpDispatch, req.Kernel.Label, rep.Err.err(), nil))
				}
				if rep.Err != nil {
					errs[i] = rep.Err.err()
				} else {
					if rep.Output == nil {
						rep.Output = []byte{} // gob sends an empty slice as nil
					}
					outs[i] = rep.Output
				}
				ph.restart(d.opts.CompileTimeout) // the worker starts compiling the next one now
				break wait
			case <-ph.timer.C:
				p.kill()
				return dead(i, &TimeoutError{Adapter: d.name(), Op: OpDispatch, Phase: ph.phase, Label: req.Kernel.Label,
					After: ph.limit, StderrTail: tail(p.stderr.String())})
			case <-ctx.Done():
				p.kill()
				return dead(i, fmt.Errorf("worker: %s: %s abandoned, worker killed: %w",
					d.name(), opText(OpDispatch, req.Kernel.Label), ctx.Err()))
			}
		}
	}
	<-written
	return len(reqs)
}
