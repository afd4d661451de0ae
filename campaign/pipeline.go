package campaign

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/oracle"
)

// The pipelined campaign.
//
// RunCampaign checks programs in stages that overlap:
//
//	producer ─► prep (GOMAXPROCS goroutines: generate, check.Prepare:
//	            interpret, flatten, interpret the twin, encode)
//	         ─► batcher (in index order: groups consecutive programs into
//	            units of BatchPrograms, builds and emits their batch module,
//	            check.NewBatch)
//	         ─► Jobs goroutines per device (units in order; a pool of N
//	            devices of one adapter, harness/devices.Pool, runs N units
//	            at once, one per member; each device runs ahead of the
//	            others as far as the window allows; check's batched
//	            execution step, check.RunUnit)
//	         ─► collector (in index order: Execution.Judge, shrink, save,
//	            record)
//
// (pipeline.produce, prep, batch and batcher.flush, device and runUnit,
// collect.)
//
// so that while a device compiles program i's modules, the CPU stages of
// programs i+1, … run, and devices of different adapters (worker processes)
// compile at the same time. At most window programs are between the
// producer and the collector. Records, OnProgram calls and the summary
// come in index order and are exactly those of checking the programs one
// after another: every stage is a stage of check.Execute, batched runs
// count only when they agree with the reference, and a program with a
// finding that rests on a batched run is executed again unbatched before
// it is recorded.

// DefaultBatchPrograms is Config.BatchPrograms when it is 0: three
// programs per batch module (about six functions). On lavapipe, which runs
// LLVM once per pipeline at its first dispatch, three programs per module
// cost about 0.7 of three modules each; more cost more again (the merged
// function grows past what LLVM handles in linear time).
const DefaultBatchPrograms = 3

// pipeJob is one program in the pipeline.
type pipeJob struct {
	i           int
	outstanding *atomic.Int64  // the pipeline's count of programs on the devices
	prior       *ProgramRecord // a record of a resumed journal: nothing to run
	pr          *program       // set when ready is closed
	ready       chan struct{}  // prep is done
	done        chan struct{}  // every device has run it (closed once)
	// runs[k] are the runs on device k, in Execute's order.
	runs    [][]oracle.Run
	pending atomic.Int32 // devices still to run it
	// batched[k] names the runs on device k that came from a batch
	// module (check.RunName).
	batched [][]string
	skipped atomic.Bool // a device did not run it (the campaign is ending)
}

func (j *pipeJob) deviceDone() {
	if j.pending.Add(-1) == 0 {
		j.outstanding.Add(-1)
		close(j.done)
	}
}

// unit is what the device stages run together: programs in order and,
// when they can share one, their batch module (check.Batch).
type unit struct {
	jobs  []*pipeJob
	batch *check.Batch // nil: each function in a module of its own
	paths []check.Path
}

// jobber is a device that serves several callers at once, each on a
// device of its own (harness/devices.Pool: N worker processes of one
// adapter).
type jobber interface{ Jobs() int }

// jobsOf is how many units device d runs at once: its Jobs, else 1.
func jobsOf(d check.Device) int {
	if j, ok := d.(jobber); ok {
		return max(j.Jobs(), 1)
	}
	return 1
}

// pipeline is one campaign's pipeline: its stages (produce, prep, batch,
// device, collect) and the channels and state they share.
type pipeline struct {
	ctx    context.Context
	cancel context.CancelFunc
	cfg    Config
	start  time.Time
	prior  map[int]ProgramRecord
	saved  map[string]bool
	k      int           // programs per unit
	slots  chan struct{} // the window: one slot per program between producer and collector
	order  chan *pipeJob // producer → collector
	work   chan *pipeJob // producer → prep
	// batchIn carries every program, in index order, to the batcher.
	batchIn chan *pipeJob
	devIn   []chan *unit // batcher → each device
	wg      sync.WaitGroup
	// outstanding counts programs sent to the devices and not done on all
	// of them.
	outstanding atomic.Int64
	// halt is set when Duration has passed: no program is started after
	// it (programs a device has started finish; the first one not started
	// ends the campaign).
	halt   atomic.Bool
	halted chan struct{}
	// tuners has one batch tuner per device stage (a pool's members
	// each their own: each is a process that warms up and measures).
	tuners []*batchTuner
	// jobs[d] is how many units device d runs at once (jobsOf); busy[d]
	// how many it is running now. A device stage that finishes a unit
	// sends on idle (without blocking), so that the batcher sends a
	// partial unit to a device that has nothing to do.
	jobs []int
	busy []atomic.Int32
	idle chan struct{}
}

// runPipeline checks the programs of cfg (whose Devices are already
// locked) and hands each record to emit in index order; emit returns false
// to stop. It returns when every stage has stopped.
func runPipeline(ctx context.Context, cfg Config, start time.Time, prior map[int]ProgramRecord,
	saved map[string]bool, emit func(rec ProgramRecord, fresh bool) bool) {
	ctx, cancelCause := context.WithCancelCause(ctx)
	cancel := func() { cancelCause(nil) }
	defer cancel()
	if cfg.Duration > 0 {
		// What is still running deadlineGrace after the deadline is
		// abandoned (errDeadline): every wait on a device ends there.
		t := time.AfterFunc(time.Until(start.Add(cfg.Duration+deadlineGrace(cfg.Duration))), func() { cancelCause(errDeadline) })
		defer t.Stop()
	}
	k := cfg.BatchPrograms
	if k == 0 {
		k = DefaultBatchPrograms
	}
	if k < 1 {
		k = 1
	}
	// The window holds four units per device member (each member runs one
	// while the next waits, emitted, in its channel) and a prep stage's
	// worth per CPU.
	jobs := make([]int, len(cfg.Devices))
	most := 1
	for d, dev := range cfg.Devices {
		jobs[d] = jobsOf(dev)
		most = max(most, jobs[d])
	}
	window := 4*k*most + 2*runtime.GOMAXPROCS(0)
	cfg.Interp.Context = ctx // the reference stops with the pipeline (interruption, the deadline's abandonment)
	pl := &pipeline{jobs: jobs, busy: make([]atomic.Int32, len(cfg.Devices)), idle: make(chan struct{}, 1), ctx: ctx, cancel: cancel, cfg: cfg, start: start, prior: prior, saved: saved, k: k,
		slots: make(chan struct{}, window), order: make(chan *pipeJob, window), work: make(chan *pipeJob, window),
		batchIn: make(chan *pipeJob, window), devIn: make([]chan *unit, len(cfg.Devices)),
		halted: make(chan struct{})}
	for d := range pl.devIn {
		pl.devIn[d] = make(chan *unit, window)
	}
	if cfg.Duration > 0 {
		t := time.AfterFunc(cfg.Duration-time.Since(start), func() { pl.halt.Store(true); close(pl.halted) })
		defer t.Stop()
	}
	tuners := make([][]*batchTuner, len(cfg.Devices))
	for d := range tuners {
		for range jobs[d] {
			t := &batchTuner{}
			tuners[d] = append(tuners[d], t)
			pl.tuners = append(pl.tuners, t)
		}
	}
	pl.wg.Add(1)
	go pl.produce()
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		pl.wg.Add(1)
		go pl.prep()
	}
	pl.wg.Add(1)
	go pl.batch()
	for d, dev := range cfg.Devices {
		for m := range jobs[d] {
			pl.wg.Add(1)
			go pl.device(d, dev, tuners[d][m])
		}
	}
	pl.collect(emit)
	pl.wg.Wait()
}

// produce is the producer: the indices to check, in order, within the
// window.
func (pl *pipeline) produce() {
	defer pl.wg.Done()
	defer close(pl.order)
	defer close(pl.work)
	defer close(pl.batchIn)
	cfg := pl.cfg
	for n := 0; ; n++ {
		i := cfg.Shard + n*cfg.Shards
		// A resumed journal's records are part of the campaign
		// whatever the time: Duration only stops new programs.
		_, old := pl.prior[i]
		stop := pl.halted
		if old {
			stop = nil
		}
		if cfg.Count > 0 && i >= cfg.Count ||
			!old && cfg.Duration > 0 && (pl.halt.Load() || time.Since(pl.start) >= cfg.Duration) ||
			cfg.Count == 0 && cfg.Duration == 0 {
			return
		}
		select {
		case pl.slots <- struct{}{}:
		case <-pl.ctx.Done():
			return
		case <-stop:
			return
		}
		j := &pipeJob{i: i, outstanding: &pl.outstanding, ready: make(chan struct{}), done: make(chan struct{})}
		if r, ok := pl.prior[i]; ok {
			j.prior = &r
			close(j.ready)
			close(j.done)
		}
		pl.order <- j
		pl.batchIn <- j
		if j.prior == nil {
			pl.work <- j
		}
	}
}

// prep generates and interprets programs (check.Prepare), one of
// GOMAXPROCS goroutines. Once Duration has passed (halt) or the pipeline
// is ending, a program still to prep is skipped — no device will start it
// — and one whose prep the end of ctx may have cut short (the reference
// interpreter stops with it, Config.Interp.Context) is skipped too.
func (pl *pipeline) prep() {
	defer pl.wg.Done()
	for j := range pl.work {
		if pl.halt.Load() || pl.ctx.Err() != nil {
			j.pr = &program{i: j.i, done: true}
			j.skipped.Store(true)
			close(j.ready)
			continue
		}
		j.pr = startProgram(pl.cfg, j.i)
		if j.pr.entry != nil {
			j.pr.entry.run(pl.ctx) // an entry point is dispatched here, unbatched (entry.go)
		}
		if pl.ctx.Err() != nil {
			j.skipped.Store(true)
		}
		close(j.ready)
	}
}

// batch is the batcher: units of consecutive programs, in index order,
// that run on the GPUs.
func (pl *pipeline) batch() {
	defer pl.wg.Done()
	defer func() {
		for _, c := range pl.devIn {
			close(c)
		}
	}()
	b := &batcher{pl: pl}
	for {
		// A partial unit waits for more programs while every device is
		// busy; once one has nothing to do it goes (the window may be
		// full of programs waiting for it). A device stage that finishes
		// a unit wakes the batcher (idle): no polling.
		if len(b.group) > 0 && len(pl.batchIn) == 0 && pl.someIdle() {
			b.flush()
		}
		var j *pipeJob
		ok := true
		select {
		case j, ok = <-pl.batchIn:
		case <-pl.idle:
			continue
		case <-pl.ctx.Done():
			return
		}
		if !ok {
			break
		}
	wait:
		for {
			select {
			case <-j.ready:
				break wait
			case <-pl.idle:
				// The next program is still in prep: what is gathered
				// goes to a device that has nothing to do.
				if pl.someIdle() {
					b.flush()
				}
			case <-pl.ctx.Done():
				return
			}
		}
		if j.prior != nil {
			continue
		}
		if j.pr.done || len(pl.cfg.Devices) == 0 {
			close(j.done)
			continue
		}
		j.runs = make([][]oracle.Run, len(pl.cfg.Devices))
		j.batched = make([][]string, len(pl.cfg.Devices))
		j.pending.Store(int32(len(pl.cfg.Devices)))
		b.group = append(b.group, j)
		if len(b.group) == pl.k {
			b.flush()
		}
	}
	b.flush()
}

// someIdle reports whether some device has a member with no unit to run:
// none running on it and none waiting in its channel.
func (pl *pipeline) someIdle() bool {
	for d := range pl.devIn {
		if int(pl.busy[d].Load())+len(pl.devIn[d]) < pl.jobs[d] {
			return true
		}
	}
	return false
}

// batcher is the batcher's state: the unit being gathered.
type batcher struct {
	pl    *pipeline
	group []*pipeJob
	units int
}

// flush sends the gathered programs to every device as one unit, with
// their batch module when some device may run it, and emits ahead what
// the devices will run.
func (b *batcher) flush() {
	pl, group := b.pl, b.group
	if len(group) == 0 {
		return
	}
	// What the devices will run: the batch module where some
	// device batches, each function's own modules where some
	// device does not (or is still trying both).
	batch, own := false, false
	for _, t := range pl.tuners {
		bt, o := t.wants()
		batch, own = batch || bt, own || o
	}
	b.units++
	x0 := group[0].pr.x
	u := &unit{jobs: group, paths: x0.Paths()}
	if len(group) > 1 && (batch || b.units%16 == 0) { // every 16th: for the tuners to try batching again
		xs := make([]*check.Execution, len(group))
		for g, j := range group {
			xs[g] = j.pr.x
		}
		if b, err := check.NewBatch(xs); err == nil {
			u.batch = b
		}
	}
	// Emit it ahead of the devices.
	own = own || u.batch == nil
	for _, j := range group {
		x := j.pr.x
		for f := range x.Functions() {
			for _, p := range x.Paths() {
				if own {
					x.Kernel(f, p)
				}
			}
		}
	}
	if u.batch != nil && batch {
		for fi := range u.paths {
			u.batch.Kernel(fi)
		}
	}
	pl.outstanding.Add(int64(len(group)))
	for _, c := range pl.devIn {
		c <- u
	}
	b.group = nil
}

// device is device d's stage: it runs the units in order.
func (pl *pipeline) device(d int, dev check.Device, t *batchTuner) {
	defer pl.wg.Done()
	for u := range pl.devIn[d] {
		if pl.ctx.Err() != nil || pl.halt.Load() { // drain: the batcher may still send
			for _, j := range u.jobs {
				j.skipped.Store(true)
				j.deviceDone()
			}
			continue
		}
		pl.busy[d].Add(1)
		runUnit(pl.ctx, d, dev, u, t)
		pl.busy[d].Add(-1)
		select {
		case pl.idle <- struct{}{}:
		default:
		}
	}
}

// collect is the collector: in index order, it judges each program,
// finishes it (shrink, save) and hands its record to emit.
//
// At a Duration campaign's deadline plus deadlineGrace the pipeline's ctx
// ends with errDeadline: a program whose every run was made before then
// is still judged and recorded (its confirmation and shrinking, cut short
// by the same ctx, are recorded as far as they got: finishFailure); the
// first program that was not — its runs abandoned, its entry point's
// execution cut, or still waiting — ends the campaign, so the records stay
// a gapless prefix and a resumed campaign redoes that program. An
// interruption (ctx ending otherwise) records nothing half-judged.
func (pl *pipeline) collect(emit func(rec ProgramRecord, fresh bool) bool) {
	ctx := pl.ctx
	stopped := false
	for j := range pl.order {
		if stopped {
			continue
		}
		select {
		case <-j.done:
		case <-ctx.Done():
		}
		if ctx.Err() != nil && !(pastDeadline(ctx) && closed(j.done)) {
			stopped = true
			pl.cancel()
			continue
		}
		if j.skipped.Load() {
			stopped = true // Duration has passed; what is running finishes
			continue
		}
		if j.prior == nil && j.pr.entry != nil && j.pr.entry.err != nil && ctx.Err() != nil && errors.Is(j.pr.entry.err, context.Cause(ctx)) {
			stopped = true // the entry point's execution was cut short
			continue
		}
		var rec ProgramRecord
		fresh := j.prior == nil
		switch {
		case !fresh:
			rec = *j.prior
		case j.pr.entry != nil:
			rec = finishEntry(ctx, pl.cfg, j.pr, pl.saved)
			noteSlowCompiles(&rec, j.pr.entry.res)
		case j.pr.done:
			rec = j.pr.rec
		default:
			res := j.pr.x.Judge(j.runs)
			var batched map[string]bool
			for _, names := range j.batched {
				for _, n := range names {
					if batched == nil {
						batched = map[string]bool{}
					}
					batched[n] = true
				}
			}
			rec = finishProgram(ctx, pl.cfg, j.pr, res, batched, pl.saved)
			noteSlowCompiles(&rec, res)
		}
		if fresh && ctx.Err() != nil && !pastDeadline(ctx) {
			stopped = true // interrupted mid-program: its record would be wrong
			pl.cancel()
			continue
		}
		<-pl.slots
		if !emit(rec, fresh) {
			stopped = true
			pl.cancel()
		}
	}
}

// noteSlowCompiles records in rec the adapters whose stack did not finish
// compiling one of res's modules within the compile limit (performance
// notes: check.Result.SlowCompiles), each once, in device order.
func noteSlowCompiles(rec *ProgramRecord, res *check.Result) {
	if res == nil {
		return
	}
	for _, r := range res.SlowCompiles() {
		if !slices.Contains(rec.SlowCompiles, r.Adapter) {
			rec.SlowCompiles = append(rec.SlowCompiles, r.Adapter)
		}
	}
}

// errDeadline is the cause of a Duration campaign's pipeline ctx ending:
// its time (and deadlineGrace) is up.
var errDeadline = errors.New("campaign: the --duration budget is spent: work still running was abandoned")

// deadlineGrace is how long past a Duration campaign's deadline the work
// then in flight may take before it is abandoned: 2% of the duration,
// between 1 and 10 seconds (3 s of 150 s) — so that, with the worker
// processes' start and end, the campaign holds its Duration within 10%.
func deadlineGrace(d time.Duration) time.Duration {
	return min(max(d/50, time.Second), 10*time.Second)
}

// pastDeadline reports whether ctx ended because a Duration campaign's
// time was up (errDeadline), not by an interruption.
func pastDeadline(ctx context.Context) bool {
	return ctx.Err() != nil && errors.Is(context.Cause(ctx), errDeadline)
}

// closed reports whether c is closed, without waiting.
func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// runUnit runs every program of u on device d (index k) with check's
// batched execution step (check.RunUnit), with the batch module when the
// tuner says batching pays on this device, and tells the tuner what it
// cost. A unit whose runs ctx cut short (the deadline's abandonment, an
// interruption) marks its programs skipped: their runs are no result.
func runUnit(ctx context.Context, k int, d check.Device, u *unit, t *batchTuner) {
	defer func() {
		if ctx.Err() != nil {
			for _, j := range u.jobs {
				j.skipped.Store(true)
			}
		}
		for _, j := range u.jobs {
			j.deviceDone()
		}
	}()
	batched := t.batch(u.batch != nil)
	t0 := time.Now()
	xs := make([]*check.Execution, len(u.jobs))
	for g, j := range u.jobs {
		xs[g] = j.pr.x
	}
	b := u.batch
	if !batched {
		b = nil
	}
	runs, fromBatch := check.RunUnit(ctx, d, xs, b)
	// The work done: every function on every path, batched or not.
	// A batch that falls back counts with what its fallback cost: that is
	// what batching costs on a stack that often rejects or fails batches.
	work := 0
	for _, j := range u.jobs {
		work += j.pr.x.Work() * len(u.paths)
	}
	t.observe(batched, time.Since(t0), work)
	for g, j := range u.jobs {
		j.runs[k] = runs[g]
		j.batched[k] = append(j.batched[k], fromBatch[g]...)
	}
}

// batchTuner decides, per device, whether batch modules pay: it keeps a
// moving average of the wall time per unit of work (Execution.Work: IR
// nodes compiled, plus a share per module, so that big and small programs
// compare) batched and unbatched, a batch that fell back to modules of
// their own counting with its fallback. It tries each way twice first
// (after a first unit, unbatched, that warms the device up and is not
// measured; one each when one way costs over 1.5 times the other), then
// takes the cheaper one, trying the other again now and then (interval)
// so that the averages follow the machine's load. The batcher
// builds batch modules only while some device wants them (and for every
// 16th unit, so that the others can try again). (lavapipe compiles a batch
// of three programs in about 0.7 of the time of their own modules;
// SwiftShader takes longer for a batch.)
type batchTuner struct {
	cost  [2]float64 // seconds per unit of work: [unbatched, batched]
	seen  [2]int
	units int // units seen
	tried int // the unit that last tried the worse way
	// interval is how many units pass between tries of the worse way: 16
	// while the two are within 10% of each other, else 32, doubled by
	// every try that leaves the preference standing (at most 256), back to
	// the base when the preference flips — a nightly run's steady state
	// spends ever less on the slower way.
	interval int
	// wantBatch is the current preference once decided (the batcher
	// reads them to emit ahead what the device will run).
	wantBatch, decided atomic.Bool
}

// wants reports which modules the device is likely to run next: batch
// modules, its own modules per function, or (undecided) both.
func (t *batchTuner) wants() (batch, own bool) {
	if !t.decided.Load() {
		return true, true
	}
	b := t.wantBatch.Load()
	return b, !b
}

// clear reports whether one way already costs over 1.5 times the other:
// then one sample of each decides (SwiftShader compiles a batch of three
// programs far slower than their own modules).
func (t *batchTuner) clear() bool {
	if t.seen[0] == 0 || t.seen[1] == 0 {
		return false
	}
	r := t.cost[0] / t.cost[1]
	return r > 1.5 || r < 1/1.5
}

// batch decides whether the device runs the next unit batched; offered
// reports that the unit has a batch module.
func (t *batchTuner) batch(offered bool) bool {
	t.units++
	switch {
	case !offered:
		return false
	case t.units == 1:
		return false // a warm-up (not observed): the first dispatches of a device cost extra
	case !t.clear() && t.seen[1] < 2 && t.seen[1] <= t.seen[0]:
		return true
	case !t.clear() && t.seen[0] < 2:
		return false
	}
	better := t.cost[1] < t.cost[0]
	if t.decided.Load() && better != t.wantBatch.Load() {
		t.interval = 0 // the preference flipped: watch closely again
	}
	t.wantBatch.Store(better)
	t.decided.Store(true)
	// Try the other way again now and then: often while the two are
	// close, rarely when the other is far behind, ever more rarely while
	// the tries confirm the choice.
	base := 16
	if r := t.cost[0] / t.cost[1]; r > 1.1 || r < 1/1.1 {
		base = 32
	}
	t.interval = max(t.interval, base)
	if t.units-t.tried >= t.interval {
		if t.tried > 0 {
			t.interval = min(2*t.interval, 256)
		}
		t.tried = t.units
		return !better
	}
	return better
}

func (t *batchTuner) observe(batched bool, d time.Duration, work int) {
	if t.units == 1 {
		return // the warm-up unit
	}
	b := 0
	if batched {
		b = 1
	}
	c := d.Seconds() / float64(work)
	if t.seen[b] == 0 {
		t.cost[b] = c
	} else {
		t.cost[b] += 0.3 * (c - t.cost[b])
	}
	t.seen[b]++
}
