package interp

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gpudiff/gpudiff/ir"
)

// Parallel workgroups (issue 26). A dispatch's first pass may run its
// workgroups on several goroutines (Options.Workers), each a wgWorker
// with its own frames, workgroup memory, shadows' table and dispatchRun,
// over the pass's one storage memory. It gives exactly what the
// sequential pass gives, or is abandoned and the pass runs sequentially
// (a later pass may too, for an entry point with subgroup calls, while
// the passes before found no race and no contended atomic: it assumes
// nothing a worker would miss; the subgroup logs are per subgroup, so
// each worker writes only its workgroups', subgroup.go):
//
//   - Every access to a leaf of a storage binding that the entry point
//     writes first claims the leaf for its workgroup: its race shadow's
//     word (shadow.go), 0 until then, becomes by compare-and-swap a
//     reference to the workgroup's record of the location, naming the
//     workgroup, and stays so (no extra memory per leaf, and one atomic
//     load per access after the first). A leaf that another workgroup
//     already claimed is not touched: the pass is abandoned. So no leaf
//     is accessed by two workgroups, and a workgroup reads only the
//     dispatch's initial values and its own writes, as it does in
//     sequence (where a leaf two workgroups access is either a
//     cross-workgroup race, which needs the sequential pass's order to
//     report, or a read shared by both, which the parallel pass gives up
//     on too: conservative, never wrong).
//   - Bindings nobody writes are read by every worker (no claim: they do
//     not change during the dispatch).
//   - Whatever depends on the order of workgroups abandons the pass: a
//     data race found (its report and the next pass's assumptions), an
//     atomic on a storage binding, an observed contended atomic, a fork
//     point (the dispatch's fork budget), an allowed set made, a
//     poisoned invocation (poisonRest writes every leaf), an access
//     through an invalid reference into a written storage binding, and
//     an error (the sequential pass finds the same error first).
//
// Results, indeterminate marks and race reports are therefore the same
// for any number of workers (TestParallelDispatchIsTheSameForAnyWorkers).

// errParallel stops an invocation of an abandoned parallel pass.
var errParallel = &ir.Error{Pass: "interp", Msg: "internal error: parallel pass abandoned (never reported)"}

// parallelDone and parallelAbandoned count the parallel passes finished
// and abandoned (for tests: which path a dispatch took).
var parallelDone, parallelAbandoned atomic.Int64

// workers is the number of goroutines a dispatch's workgroups may run
// on: Options.Workers, or GOMAXPROCS when it is 0.
func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// abandon stops the invocation because the parallel pass it is part of
// is abandoned.
func (fr *frame) abandon() {
	if !fr.stop {
		fr.err, fr.stop, fr.limit = errParallel, true, -1
	}
}

// claim claims leaves off..off+n-1 of var id for the invocation's
// workgroup in a parallel pass; false when another workgroup holds one of
// them (the caller then touches none and abandons). Always true in a
// sequential pass and for variables without claims.
func (sh *invShared) claim(id, off, n int32) bool {
	if !sh.claimed(int(id)) {
		return true
	}
	vs := sh.shadow[id]
	for j := off; j < off+n && int(j) < vs.len(); j++ {
		if sh.st.at(vs, id, j, false, sh.wg, true) == nil {
			return false
		}
	}
	return true
}

// leaves is the number of leaves of var id's memory (entryInfo.readOnly:
// a read-only binding's are its initial leaves).
func (sh *invShared) leaves(id int) int32 {
	if sh.d.e.readOnly[id] {
		return sh.run.initial[id].n
	}
	return sh.mem[id].n()
}

// claimed reports whether var id takes claims in this pass (a written
// storage binding of a parallel pass).
func (sh *invShared) claimed(id int) bool {
	return sh.par && sh.shadow[id] != nil && sh.shadow[id].full == nil
}

// mayAccess reports whether the invocation may access leaves off..off+n-1
// of var id (bad: through an invalid reference), claiming them in a
// parallel pass; false when the pass must be abandoned and the
// invocation stopped (the caller abandons): the leaves are another
// workgroup's, or an invalid reference may land on any of them — in a
// parallel pass, or in an owned binding, which keeps no race shadow
// (owned.go; runPass starts the pass again without it).
func (sh *invShared) mayAccess(id int, off, n int32, bad bool) bool {
	if bad {
		return !sh.claimed(id) && !sh.run.isOwned(id)
	}
	return sh.claim(int32(id), off, n)
}

// workerRun is a parallel worker's dispatchRun: the pass's read-only
// state shared, its own observations, journal and tables.
func (r *dispatchRun) workerRun(nvars int) *dispatchRun {
	w := newDispatchRun(nvars)
	w.initial, w.layout, w.owned = r.initial, r.layout, r.owned
	w.part, w.sg = r.part, r.sg // the subgroup logs: each workgroup's its own (subgroup.go)
	return w
}

// orderFree reports whether the worker's workgroups so far did nothing
// whose outcome depends on the order of workgroups (see above).
func (w *wgWorker) orderFree() bool {
	r := w.run
	if len(w.races) > 0 || len(r.racyObs) > 0 || len(r.atomicObs) > 0 || len(r.sets) > 0 || r.budget != forkBudget || len(r.prior) > 0 {
		return false
	}
	for _, s := range r.sticky {
		if s != 0 {
			return false
		}
	}
	return true
}

// runParallel runs a first pass's workgroups on workers goroutines over
// mem (the storage memory) and its shadows. ok false: abandoned (mem is
// then spoilt). err: ctx ended.
func (d *Dispatch) runParallel(ctx context.Context, mem []*cells, shadow, ashadow []*varShadow, workgroups [3]uint32, limit int64, maxPaths, workers int, run *dispatchRun) (ok bool, err error) {
	nwg := int64(workgroups[0]) * int64(workgroups[1]) * int64(workgroups[2])
	workers = int(min(int64(workers), nwg))
	var next atomic.Int64
	var abandoned atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		w := d.newWorker(run.workerRun(len(d.e.vars)), mem, shadow, ashadow, maxPaths, true)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer w.release()
			for !abandoned.Load() {
				k := next.Add(1) - 1
				if k >= nwg || ctx != nil && ctx.Err() != nil {
					return
				}
				wid := [3]uint32{uint32(k % int64(workgroups[0])), uint32(k / int64(workgroups[0]) % int64(workgroups[1])), uint32(k / (int64(workgroups[0]) * int64(workgroups[1])))}
				if err := w.workgroup(ctx, int32(k), wid, workgroups, limit, maxPaths); err != nil || !w.orderFree() {
					abandoned.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := stopped(ctx); err != nil {
		return false, err
	}
	if abandoned.Load() {
		parallelAbandoned.Add(1)
		return false, nil
	}
	parallelDone.Add(1)
	return true, nil
}
