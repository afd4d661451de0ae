package interp

import (
	"maps"
	"slices"

	"github.com/gpudiff/gpudiff/ir"
)

// The state of one dispatch run (dispatch.go), shared by its invocations:
// the journal of the current segment's shared writes (so that the
// explorer of fork.go can undo a path), the allowed-set table that slots
// point into (slot.setID), what the previous pass learnt about races and
// contended atomics (ARCHITECTURE.md "Verdicts that are never false"), and
// what this pass observes.
//
// Passes. The reference runs a workgroup's invocations one after another,
// so when an access races with a later one, the earlier has already
// returned its value: a read of a neighbour's slot made before the
// neighbour's write returned the prior value as if it were the only one.
// The same holds for atomics: the value an atomicAdd returns is exact
// only if no other invocation can update the location concurrently, which
// is known only once all have run. So a dispatch that finds races or
// contended atomics runs again, knowing them: a racy read then returns an
// indeterminate value whose allowed set is the location's prior value and
// every value written to it in the racing scope; a contended atomic
// returns an interval (atomicAdd/atomicSub counters) or any value. A pass
// whose observations exceed what it assumed runs again with their union
// (at most maxPasses).

// maxPasses bounds the re-runs of a dispatch.
const maxPasses = 4

type memWrite struct {
	id, off int32
	old     slot
}

// scopeKey names a location within the scope its accesses are unordered
// in: a workgroup's epoch (wg, ep), or the whole dispatch (wg = -1) for
// accesses of different workgroups.
type scopeKey struct {
	id, off int32
	wg      int32
	ep      uint32
}

// racyScope is what a pass learns of a racy location in a scope: the
// values written there (any: one was indeterminate, or too many).
type racyScope struct {
	written ir.ValueSet
	any     bool
}

// atomicScope is what a pass learns of a contended atomic location in a
// scope: the sums of the deltas of its atomicAdd/atomicSub operations
// (positive and negative, as signed amounts of the element type) and
// whether another kind of write, or an indeterminate operand, occurred.
type atomicScope struct {
	pos, neg int64
	kinds    uint16 // 1 << atomicClass of every write
	other    bool   // a write that is not an add/sub of a determinate amount
}

// atomicClass groups the atomic writes that commute with each other:
// the final value after writes of one class is the same in any order;
// exchanges, stores and compare-exchanges commute with nothing.
func atomicClass(op ir.AtomicOp) int {
	switch op {
	case ir.AtomicAdd, ir.AtomicSub:
		return 1
	case ir.AtomicAnd:
		return 2
	case ir.AtomicOr:
		return 3
	case ir.AtomicXor:
		return 4
	case ir.AtomicMin:
		return 5
	case ir.AtomicMax:
		return 6
	}
	return 7 // and 8: never commutes, even with itself
}

// ordered reports whether the final value of a scope's location is the
// same in every order of its writes.
func (s *atomicScope) ordered() bool {
	return s.kinds&(1<<7) == 0 && s.kinds&(s.kinds-1) == 0
}

type dispatchRun struct {
	journal []memWrite
	jhash   journalHash // the journal's part of fork point states (fork.go)
	// journaling is set while a segment may fork (segment): only then
	// can a path be undone, so only then does write journal. Outside it
	// (a dispatch that does not fork, poisonRest after a segment) a
	// journal would hold an entry per write for nothing: 32 bytes a leaf
	// of every binding a stopped invocation makes indeterminate.
	journaling bool
	sets       []ir.ValueSet

	// Assumptions (from the previous pass) and observations (this pass).
	racy, racyObs     map[scopeKey]*racyScope
	atomic, atomicObs map[scopeKey]*atomicScope
	prior             map[scopeKey]slot // value at the first access in the scope (this pass)
	initial           []leafView        // per storage or uniform var: its leaves at dispatch start (the caller's bytes)
	layout            []*leafMap        // per var: its leaves' offsets and kinds (entryInfo.layout)
	sticky            []int32           // per var: reason id when an invocation's rest made it indeterminate
	budget            int64             // steps left for forked paths (fork.go)
	tex               *texState         // textures and samplers (texture.go)

	// gen counts the changes of each var's memory (write and the undo of
	// a path); anywhere memoizes loadAnywhere's set per var at a gen, so
	// a loop of out-of-bounds loads does not rebuild it every step.
	gen      []uint64
	anywhere map[int32]anywhereMemo
	// storedAnywhere notes, per var, the gen at which every leaf was any
	// value (indeterminate, no allowed set): storeAnywhere's no-op.
	storedAnywhere map[int32]uint64
	// owned, per shared var (nil: none): an owned binding in this
	// dispatch (owned.go), without race shadow or claims.
	owned []bool
	// part is the dispatch's subgroup partition, sg its subgroup state
	// (nil: no subgroup call; subgroup.go), shared by parallel workers.
	part *SubgroupPartition
	sg   *sgState
}

// isOwned reports whether var i is owned in the dispatch (owned.go).
func (r *dispatchRun) isOwned(i int) bool { return r.owned != nil && r.owned[i] }

type anywhereMemo struct {
	gen uint64
	set int32
	ok  bool
}

// forgetAnywhere drops loadAnywhere's memo (memory replaced or cleared
// other than by write, or the sets reset).
func (r *dispatchRun) forgetAnywhere() { clear(r.anywhere); clear(r.storedAnywhere) }

func newDispatchRun(nvars int) *dispatchRun {
	return &dispatchRun{
		racyObs: map[scopeKey]*racyScope{}, atomicObs: map[scopeKey]*atomicScope{},
		prior: map[scopeKey]slot{}, sticky: make([]int32, nvars), budget: forkBudget,
		gen: make([]uint64, nvars), anywhere: map[int32]anywhereMemo{}, storedAnywhere: map[int32]uint64{},
	}
}

// addSet stores an allowed set and returns its id (slot.setID).
func (r *dispatchRun) addSet(s ir.ValueSet) int32 {
	if s.IsAny() {
		return 0
	}
	r.sets = append(r.sets, s)
	return int32(len(r.sets))
}

func (r *dispatchRun) set(id int32) ir.ValueSet {
	if id <= 0 || int(id) > len(r.sets) {
		return ir.ValueSet{}
	}
	return r.sets[id-1]
}

// write stores v into leaf off of var id, journaled while a segment may
// fork (dispatchRun.journaling).
func (sh *invShared) write(id, off int32, v slot) {
	mem := sh.mem[id]
	if sh.run.journaling {
		sh.run.journal = append(sh.run.journal, memWrite{id: id, off: off, old: mem.get(off)})
	}
	sh.run.gen[id]++
	if w := sh.run.sticky[id]; w != 0 {
		v.taint(-w)
	}
	mem.put(off, v)
}

// scopes returns the keys of leaf off of var id for this invocation: its
// workgroup's current epoch, and the whole dispatch.
func (sh *invShared) scopes(id, off int32) (local, global scopeKey) {
	space := 1
	if sh.d.e.vars[id].Space == ir.SpaceWorkgroup {
		space = 0
	}
	return scopeKey{id: id, off: off, wg: sh.wg, ep: sh.ep[space]}, scopeKey{id: id, off: off, wg: -1}
}

// racyAssumed returns the assumed racy scope of a location, if any.
func (sh *invShared) racyAssumed(id, off int32) (scopeKey, *racyScope) {
	if len(sh.run.racy) == 0 {
		return scopeKey{}, nil
	}
	l, g := sh.scopes(id, off)
	if s := sh.run.racy[g]; s != nil {
		return g, s
	}
	return l, sh.run.racy[l]
}

// priorOf returns the value a location held when its scope began: the
// dispatch's initial value for the whole-dispatch scope, else the value
// at the first access in the scope this pass (cur, when this is it).
func (sh *invShared) priorOf(k scopeKey, cur slot) slot {
	if k.wg < 0 && sh.run.initial[k.id].m != nil {
		return slot{bits: sh.run.initial[k.id].at(k.off)}
	}
	if p, ok := sh.run.prior[k]; ok {
		return p
	}
	sh.run.prior[k] = cur
	return cur
}

// load finishes the read of leaf off of var id into *dst (a copy of the
// memory): the race check, and the allowed set of a racy read.
func (sh *invShared) load(id, off int32, dst *slot, pos, race int32) {
	if w := sh.run.sticky[id]; w != 0 {
		dst.taint(-w)
	}
	if k, rs := sh.racyAssumed(id, off); rs != nil {
		p := sh.priorOf(k, *dst)
		dst.taint(-race)
		if !rs.any && p.why >= 0 {
			if s, ok := rs.written.Add(p.bits, p.err); ok {
				dst.giveSet(sh.run.addSet(s))
			}
		}
		sh.check(int(id), off, false, pos)
		return
	}
	if sh.check(int(id), off, false, pos) {
		dst.taint(-race)
	}
}

// store writes v to leaf off of var id: the race check, and, in a scope
// known to race, the value's indeterminacy and the observation of what it
// writes.
func (sh *invShared) store(id, off int32, v slot, pos, race int32) {
	if k, rs := sh.racyAssumed(id, off); rs != nil {
		p := sh.priorOf(k, sh.mem[id].get(off))
		sh.observeWrite(k, v)
		if !rs.any && v.why >= 0 && p.why >= 0 {
			s, ok := rs.written.Add(p.bits, p.err)
			if ok {
				s, ok = s.Add(v.bits, v.err)
			}
			if ok {
				v = slot{bits: v.bits, why: -race}
				v.giveSet(sh.run.addSet(s))
			} else {
				v.taint(-race)
			}
		} else {
			v.taint(-race)
		}
		sh.check(int(id), off, true, pos)
		sh.write(id, off, v)
		return
	}
	if sh.check(int(id), off, true, pos) {
		v.taint(-race)
	}
	sh.write(id, off, v)
}

// observeWrite records a value written in a racy scope (this pass).
func (sh *invShared) observeWrite(k scopeKey, v slot) {
	o := sh.run.racyObs[k]
	if o == nil {
		o = &racyScope{}
		sh.run.racyObs[k] = o
	}
	if o.any {
		return
	}
	if v.why < 0 {
		o.any = true
		return
	}
	var ok bool
	if o.written, ok = o.written.Add(v.bits, v.err); !ok {
		o.any = true
	}
}

// markAll makes every leaf of var id any value (reason why > 0), through
// write (journaled while a segment may fork).
func (sh *invShared) markAll(id int32, why int32) {
	if !sh.run.journaling && !sh.par {
		// Nothing to undo: every leaf as write leaves it (tainted with
		// the sticky reason, if any), a shared page per 1024 leaves.
		if w := sh.run.sticky[id]; w != 0 {
			why = w
		}
		sh.run.gen[id]++
		sh.mem[id].fill(-why)
		return
	}
	for off := range sh.mem[id].n() {
		v := sh.mem[id].get(off)
		v.taint(-why)
		sh.write(id, off, v)
	}
}

// storeAnywhere is a store of vals through an invalid reference into var
// id (WGSL #out-of-bounds-access-sec: it may land on any location of the
// variable, or nowhere): each leaf becomes its prior value or a leaf of
// vals of its type, or any value when that set is not cheap. A leaf
// already indeterminate keeps its reason (the first one; it is any value
// now).
//
// A leaf that this leaves as it was (already any value) is not written:
// a loop of such stores into a large buffer (a twin's masked store
// through an indeterminate index in every unrolled iteration, each its
// own reason) journals each leaf once, not once per store; and once a
// pass leaves every leaf any value, further stores are skipped until the
// variable changes (storedAnywhere, at its gen).
//
// A variable of more than maxStoreAnywhereLeaves leaves becomes sticky
// instead (every leaf any value for the rest of the pass, or of the
// workgroup for workgroup memory: load and write taint what they read and
// store, and the pass taints the leaves at its end, runPass), which costs
// nothing per leaf, every path of a fork included. It is coarser: a leaf
// stored after it is any value too, where WGSL would have the value
// stored (sound: any value contains it), and the allowed sets {prior,
// stored} are forgone (they last only until the next such store anyway).
func (sh *invShared) storeAnywhere(id int32, vals []slot, why int32) {
	if sh.mem[id].n() > maxStoreAnywhereLeaves {
		if sh.run.sticky[id] == 0 {
			sh.run.sticky[id] = why
		}
		return
	}
	if g, ok := sh.run.storedAnywhere[id]; ok && g == sh.run.gen[id] {
		return
	}
	lm := sh.run.layout[id]
	mem := sh.mem[id]
	var valKind ir.Kind
	if len(vals) == 1 && mem.n() > 0 {
		valKind = lm.kind(0) // a scalar stored: compared by bits within a leaf of the same kind
	}
	allAny := sh.run.sticky[id] == 0 // (write taints with the sticky reason instead)
	for off := range mem.n() {
		cur := mem.get(off)
		nv := cur
		if cur.why < 0 {
			nv.taint(cur.why)
		} else {
			nv.taint(-why)
		}
		if len(vals) == 1 && vals[0].why >= 0 && cur.why >= 0 && lm.kind(off) == valKind && lm.oneKind {
			if s, ok := (ir.ValueSet{}).Add(cur.bits, cur.err); ok {
				if s, ok = s.Add(vals[0].bits, vals[0].err); ok {
					nv.giveSet(sh.run.addSet(s))
				}
			}
		}
		if nv.setID() != 0 {
			allAny = false
		}
		if nv != cur {
			sh.write(id, off, nv)
		}
	}
	if allAny {
		sh.run.storedAnywhere[id] = sh.run.gen[id]
	}
}

// atomicResult finishes the value an atomic operation returns (dst, a
// copy of the location's old value) and observes the operation: op, its
// operand v, and whether it wrote (write), for the scopes' sums. It
// reports whether the value written depends on the order of concurrent
// invocations' writes (the location's final value is then any value).
func (sh *invShared) atomicResult(id, off int32, op ir.AtomicOp, write bool, v slot, signed bool, dst *slot, reason int32) (orderDependent bool) {
	r := sh.run
	l, g := sh.scopes(id, off)
	// Observe contention with the race shadow's ordering rules, on a
	// shadow of its own (sh.ashadow).
	a := sh.st.at(sh.ashadow[id], id, off, true, sh.wg, sh.par)
	me := sh.accessor(l.ep, 1)
	if other, _ := sh.st.observe(a, &me, write); other.inv != 0 {
		k := l
		if !me.same(other) {
			k = g
		}
		if r.atomicObs[k] == nil {
			r.atomicObs[k] = &atomicScope{}
		}
	}
	delta, isAdd := int64(0), false
	if op == ir.AtomicAdd || op == ir.AtomicSub {
		isAdd = true
		if signed {
			delta = int64(int32(v.bits))
		} else {
			delta = int64(v.bits)
		}
		if op == ir.AtomicSub {
			delta = -delta
		}
	}
	for _, k := range [2]scopeKey{l, g} {
		if _, ok := r.prior[k]; !ok && k.wg >= 0 && r.atomic[k] != nil {
			r.prior[k] = sh.mem[id].get(off)
		}
		s := r.atomicObsScope(k)
		if write {
			s.kinds |= 1 << atomicClass(op)
		}
		switch {
		case !write:
		case !isAdd || v.why < 0:
			s.other = true
		case delta >= 0:
			s.pos += delta
		default:
			s.neg += delta
		}
	}
	if a := r.atomic[g]; a != nil && !a.ordered() {
		orderDependent = true
	} else if a := r.atomic[l]; a != nil && !a.ordered() {
		orderDependent = true
	}
	// The returned value.
	k, as := l, r.atomic[l]
	if ga := r.atomic[g]; ga != nil {
		k, as = g, ga
	}
	if as == nil {
		if isAdd {
			sh.addOwn(l, delta)
			sh.addOwn(g, delta)
		}
		return orderDependent
	}
	own := sh.own[k]
	res := slot{bits: dst.bits, why: -reason}
	if as != nil && !as.other {
		var prior slot
		if k.wg < 0 {
			prior = slot{bits: r.initial[id].at(off)}
		} else {
			prior = r.prior[k]
		}
		if prior.why >= 0 {
			base := int64(prior.bits)
			lo64, hi64 := int64(0), int64(1<<32-1)
			if signed {
				base = int64(int32(prior.bits))
				lo64, hi64 = -1<<31, 1<<31-1
			}
			// The value is the prior one, plus the invocation's own
			// deltas before this operation, plus some of the other
			// invocations' deltas: at most all the sums hold beyond
			// this invocation's own (before this operation, and this
			// operation's own delta).
			lo, hi := base+own[0]+as.neg-min(delta, 0), base+own[1]+as.pos-max(delta, 0)
			if lo >= lo64 && hi <= hi64 && lo <= hi {
				res.giveSet(r.addSet(ir.Interval(uint32(lo), uint32(hi))))
			}
		}
	}
	if isAdd {
		sh.addOwn(l, delta)
		sh.addOwn(g, delta)
	}
	*dst = res
	return orderDependent
}

func (r *dispatchRun) atomicObsScope(k scopeKey) *atomicScope {
	// Sums are kept only for scopes found contended (or assumed so):
	// other scopes need none, and a histogram's millions of adds stay
	// cheap. A scope found contended later in the pass has partial
	// sums: the pass then runs again (its observation exceeds what it
	// assumed), and that pass, assuming it, sums from the start.
	if s := r.atomicObs[k]; s != nil {
		return s
	}
	if r.atomic[k] != nil {
		s := &atomicScope{}
		r.atomicObs[k] = s
		return s
	}
	return &atomicScope{}
}

// addOwn adds the invocation's own delta to a scope: own[0] sums its
// positive deltas, own[1] its negative ones (only for assumed scopes).
func (sh *invShared) addOwn(k scopeKey, delta int64) {
	if sh.run.atomic[k] == nil {
		return
	}
	if sh.own == nil {
		sh.own = map[scopeKey][2]int64{}
	}
	o := sh.own[k]
	if delta >= 0 {
		o[0] += delta
	} else {
		o[1] += delta
	}
	sh.own[k] = o
}

// settled reports whether what this pass observed stays within what it
// assumed; when not, it folds the observations into the assumptions of
// the next pass.
func (r *dispatchRun) settled() bool {
	ok := true
	if r.racy == nil {
		r.racy = map[scopeKey]*racyScope{}
	}
	for k, o := range r.racyObs {
		a := r.racy[k]
		if a == nil {
			r.racy[k] = o
			ok = false
			continue
		}
		if a.any {
			continue
		}
		if o.any {
			a.any, ok = true, false
			continue
		}
		for _, v := range o.written.Values {
			if !slices.Contains(a.written.Values, v) {
				ok = false
				var fits bool
				if a.written, fits = a.written.Add(v, 0); !fits {
					a.any = true
				}
			}
		}
	}
	if r.atomic == nil {
		r.atomic = map[scopeKey]*atomicScope{}
	}
	for k, o := range r.atomicObs {
		a := r.atomic[k]
		if a == nil {
			r.atomic[k] = &atomicScope{pos: o.pos, neg: o.neg, other: o.other, kinds: o.kinds}
			ok = false
			continue
		}
		if o.other && !a.other || o.pos > a.pos || o.neg < a.neg || o.kinds&^a.kinds != 0 {
			a.other = a.other || o.other
			a.kinds |= o.kinds
			a.pos, a.neg = max(a.pos, o.pos), min(a.neg, o.neg)
			ok = false
		}
	}
	return ok
}

// next resets the per-pass state for another pass.
func (r *dispatchRun) next() {
	r.racyObs, r.atomicObs = map[scopeKey]*racyScope{}, map[scopeKey]*atomicScope{}
	r.prior = map[scopeKey]slot{}
	r.sets = r.sets[:0]
	r.resetJournal()
	r.forgetAnywhere()
	clear(r.sticky)
	r.budget = forkBudget
}

// segment runs an invocation of an entry point from where it stands to
// its next barrier or its end, on every path its fork points allow, and
// leaves the frame and shared memory as their union: shared locations the
// paths leave differently become indeterminate with the union of their
// values as the allowed set. When the paths cannot be joined — they end at
// different barriers or in different states at one, one of them could
// not be explored (budget, depth) — the invocation stops with fr.poison
// set and the caller makes the rest of it indeterminate (poisonRest).
func (d *Dispatch) segment(fr *frame, run *dispatchRun, maxPaths int) ctl {
	start := fr.resume
	run.resetJournal()
	clear(fr.sh.sgSeen)
	fr.sh.sgPath = 0
	if maxPaths <= 1 {
		return d.body.execAt(fr, start)
	}
	run.journaling = true
	defer func() { run.journaling = false }()
	copy(fr.snap, fr.s)
	steps0, limit0 := fr.steps, fr.limit
	own0 := maps.Clone(fr.sh.own)
	f := &fr.forkBuf
	f.begin()
	fr.fork = f
	fr.calls = fr.calls[:0]
	defer func() { fr.fork = nil }()
	k := d.body.execAt(fr, start)
	if len(f.taken) == 0 && !f.pruned || fr.err != nil {
		return k
	}
	// Several paths: the subgroup operands this invocation logs on them
	// are uncertain unless every path, all explored, logged the same
	// (subgroup_run.go).
	var pruned []int32 // the paths dropped as cycles
	if f.pruned {
		pruned = append(pruned, 0)
	}
	complete := false
	defer func() { fr.sh.sgForked(complete, pruned) }()
	type path struct {
		k       ctl
		resume  int
		barrier uint32
		s       []slot
		eff     map[[2]int32]slot
		poison  bool
	}
	var paths []path
	record := func(k ctl) {
		if !f.pruned {
			p := path{k: k, resume: fr.resume, barrier: fr.barrier, poison: fr.poison != 0 || fr.err != nil, eff: map[[2]int32]slot{}}
			if k == cBarrier {
				p.s = slices.Clone(fr.s)
			}
			for _, w := range run.journal {
				p.eff[[2]int32{w.id, w.off}] = fr.sh.mem[w.id].get(w.off)
			}
			paths = append(paths, p)
		}
		for i := len(run.journal) - 1; i >= 0; i-- {
			w := run.journal[i]
			fr.sh.mem[w.id].put(w.off, w.old)
			run.gen[w.id]++
		}
		run.resetJournal()
	}
	record(k)
	stack := f.alternatives(nil, 0)
	n, steps := 1, int64(0)
	for ; len(stack) > 0 && n < maxPaths && steps <= maxForkSteps && run.budget > 0; n++ {
		script := stack[len(stack)-1].script()
		stack = stack[:len(stack)-1]
		copy(fr.s, fr.snap)
		fr.steps, fr.limit, fr.stop, fr.err, fr.poison, fr.cause, fr.resume = steps0, limit0, false, nil, 0, 0, start
		fr.sh.own = maps.Clone(own0)
		f.reset(script)
		fr.calls = fr.calls[:0]
		fr.sh.sgPath++
		k = d.body.execAt(fr, start)
		if f.pruned {
			pruned = append(pruned, fr.sh.sgPath)
		}
		steps += fr.steps - steps0
		run.budget -= fr.steps - steps0
		stack = f.alternatives(stack, len(script))
		record(k)
	}
	complete = len(stack) == 0
	join := len(stack) == 0 && len(paths) > 0
	for _, p := range paths {
		if p.poison || p.k != paths[0].k || p.k == cBarrier && (p.barrier != paths[0].barrier || p.resume != paths[0].resume || !slices.Equal(p.s, paths[0].s)) {
			join = false
		}
	}
	fr.err = nil
	if !join {
		fr.stop, fr.limit, fr.poison = true, -1, f.first
		if fr.poison == 0 {
			fr.poison = d.e.rest
		}
		return cAbort
	}
	// Join: every location any path wrote holds the union of what the
	// paths leave there.
	locs := map[[2]int32]bool{}
	for _, p := range paths {
		for l := range p.eff {
			locs[l] = true
		}
	}
	for l := range locs {
		base := fr.sh.mem[l[0]].get(l[1])
		v0, ok := paths[0].eff[l]
		if !ok {
			v0 = base
		}
		u, same, any := ir.ValueSet{}, true, false
		kind := run.layout[l[0]].kind(l[1])
		for _, p := range paths {
			v, ok := p.eff[l]
			if !ok {
				v = base
			}
			if v != v0 {
				same = false
			}
			if any {
				continue
			}
			var s ir.ValueSet
			switch {
			case v.why >= 0:
				s, ok = ir.ValueSet{}.Add(v.bits, v.err)
			case v.setID() != 0:
				s, ok = run.set(v.setID()), true
			default:
				ok = false
			}
			if ok && !u.IsAny() {
				s, ok = u.Union(s, kind)
			}
			if !ok {
				any = true
				continue
			}
			u = s
		}
		v := v0
		if !same {
			v = slot{bits: v0.bits, why: -f.first}
			if !any {
				v.giveSet(run.addSet(u))
			}
		}
		fr.sh.write(l[0], l[1], v)
	}
	if k := paths[0].k; k == cBarrier {
		copy(fr.s, paths[0].s)
		fr.resume, fr.barrier = paths[0].resume, paths[0].barrier
		fr.stop, fr.limit = false, limit0
		return cBarrier
	}
	return paths[0].k
}

// poisonRest makes what the stopped invocation fr could still have
// written indeterminate: every leaf of every shared variable its entry
// point stores to, for the rest of the workgroup (workgroup memory) or
// of the dispatch (storage), including what later stores leave there and
// loads read (sticky). The invocation waits at no further barrier.
func (d *Dispatch) poisonRest(fr *frame, run *dispatchRun) {
	why := fr.poison
	if why <= 0 {
		why = d.e.rest
	}
	for i, g := range d.e.vars {
		if !d.e.writes[i] || g.Space == ir.SpaceUniform || g.Access == ir.AccessRead {
			continue
		}
		if run.sticky[i] != 0 {
			// Already any value for the rest of the pass: loads and
			// stores taint with the sticky reason, and the pass taints
			// every leaf at its end (runPass), so marking every leaf
			// again per stopped invocation (quadratic in a dispatch whose
			// invocations all stop) changes nothing.
			continue
		}
		run.sticky[i] = why
		fr.sh.markAll(int32(i), why)
	}
	run.tex.poison()
}

// sharedWrites reports, per shared variable, whether the entry point's
// call graph stores to it or writes it with an atomic.
func sharedWrites(m *ir.Module, entry string, ids map[string]int, n int) []bool {
	w := make([]bool, n)
	mark := func(e ir.Expr) {
		if id := ir.RootIdent(e); id != nil && id.Ref == ir.RefShared {
			if i, ok := ids[id.Name]; ok {
				w[i] = true
			}
		}
	}
	for _, fn := range m.CallGraph(entry) {
		ir.Inspect(fn.Body, func(nd ir.Node) bool {
			switch x := nd.(type) {
			case *ir.Assign:
				mark(x.LHS)
			case *ir.Atomic:
				if x.Op != ir.AtomicLoad {
					mark(x.Ptr())
				}
			}
			return true
		})
	}
	return w
}

// hasAtomic reports whether t contains an atomic.
func hasAtomic(t *ir.Type) bool {
	switch t.Kind {
	case ir.KindAtomic:
		return true
	case ir.KindArray, ir.KindRuntimeArray:
		return hasAtomic(t.Elem)
	case ir.KindStruct:
		for _, f := range t.Struct.Fields {
			if hasAtomic(f.Type) {
				return true
			}
		}
	}
	return false
}

// resetJournal empties the journal (and its fork-state hash).
func (r *dispatchRun) resetJournal() {
	r.journal = r.journal[:0]
	r.jhash.reset()
}

// maxAnywhereLeaves bounds the bindings whose values loadAnywhere lists.
const maxAnywhereLeaves = 1024

// maxStoreAnywhereLeaves bounds the variables whose leaves storeAnywhere
// changes one by one (journaled: 1.77M leaves per store and per forked
// path made a real shader's twin run for minutes, Tint's
// benchmark/cluster-lights.wgsl); a larger one becomes sticky.
const maxStoreAnywhereLeaves = 1 << 16

// loadAnywhere makes *dst the result of a load through an invalid
// reference into var id (WGSL #out-of-bounds-access-sec "Invalid Load":
// a value from any location of the binding, or zero): indeterminate
// (reason why < 0), with the binding's values and zero as its allowed set
// when the binding is small, its leaves all of one kind and determinate.
func (sh *invShared) loadAnywhere(id int32, dst *slot, why int32) {
	dst.taint(why)
	if sh.leaves(int(id)) > maxAnywhereLeaves || sh.run.sticky[id] != 0 || !sh.run.layout[id].oneKind {
		return
	}
	if m, hit := sh.run.anywhere[id]; hit && m.gen == sh.run.gen[id] {
		if m.ok {
			dst.giveSet(m.set)
		}
		return
	}
	memo := anywhereMemo{gen: sh.run.gen[id]}
	defer func() { sh.run.anywhere[id] = memo }()
	var mem []slot
	if sh.d.e.readOnly[id] {
		init := &sh.run.initial[id]
		mem = make([]slot, init.n)
		for j := range mem {
			mem[j].bits = init.at(int32(j))
		}
	} else {
		mem = make([]slot, sh.mem[id].n())
		for j := range mem {
			mem[j] = sh.mem[id].get(int32(j))
		}
	}
	if set, ok := anywhereSet(mem); ok {
		dst.giveSet(sh.run.addSet(set))
		memo.set, memo.ok = dst.setID(), true
	}
}

// anywhereSet is the allowed set of a load through an invalid reference
// into a variable whose leaves are mem (WGSL #out-of-bounds-access-sec
// "Invalid Load": any of its leaves' values, or zero); ok is false (any
// value) when a leaf is indeterminate or the set outgrows its cap. The
// caller checks the variable's size and kinds (loadAnywhere; a
// function-mode program's bindings, render.go).
func anywhereSet(mem []slot) (ir.ValueSet, bool) {
	set, ok := ir.ValueSet{}.Add(0, 0)
	for _, v := range mem {
		if !ok || v.why < 0 {
			return ir.ValueSet{}, false
		}
		set, ok = set.Add(v.bits, v.err)
	}
	return set, ok
}
