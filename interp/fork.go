package interp

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"slices"
	"unsafe"

	"github.com/gpudiff/gpudiff/ir"
)

// Forks: control that depends on an indeterminate value
// (ARCHITECTURE.md "Verdicts that are never false").
//
// When a branch, loop exit, break-if or switch depends on an
// indeterminate value, or an atomicCompareExchangeWeak that would succeed
// may fail spuriously, WGSL allows every way the program can go there.
// The reference runs them all, within a budget, and unions the outcomes:
// each leaf is exact where every path agrees, an allowed set (ir.ValueSet)
// where they differ, and "any value" where a path could not say. Paths are
// explored by re-execution, as a stateless model checker does: a run
// replays a script of decisions (the alternative taken at each fork point
// met so far) and records the fork points it meets beyond it; the
// explorer then schedules, for each new fork point, the alternatives not
// taken. Re-execution keeps the compiled code free of snapshots: a fork
// may be deep inside a called function.
//
// A path that meets a fork point (the same instruction, reached through
// the same calls) in exactly the state (every slot of the frame, and the
// same shared writes since the start) in which this or another path met
// it before is dropped: the first visit's alternatives explore all it can
// still do (the visited set of a stateful model checker; states are kept
// as 128-bit hashes). This makes the canonical compare-exchange retry
// loop exact: a spurious failure leaves the state as it was, and the
// retry meets the same fork point in a state already explored.
//
// Past MaxPaths paths, or maxForkDepth fork points on one path, or
// maxForkSteps steps over all paths, the invocation falls back to the
// coarse rule: from the fork on, every output it can still write is any
// value.

// DefaultMaxPaths is the number of paths the reference explores per
// invocation (per segment between barriers, for an entry point) when
// Options.MaxPaths is 0.
const DefaultMaxPaths = 1024

// maxForkDepth bounds the fork points on one path; maxForkSteps the
// steps of all the paths of one invocation (or segment) beyond the
// first's.
//
// budget bounds the steps of all forked paths of one Run or dispatch
// (beyond each invocation's first path): once spent, later invocations
// no longer fork and take the coarse rule at once.
const (
	maxForkDepth  = 1024
	maxForkSteps  = 1_000_000
	forkBudget    = 4_000_000
	hashStepsCost = 4 // slots hashed per step charged (a fork point's state)
)

// forkAlt is an alternative not yet explored: the script base[:k] then
// alternative a (base is a finished path's taken decisions, shared).
type forkAlt struct {
	base []uint8
	k    int32
	a    uint8
}

func (x forkAlt) script() []uint8 {
	s := make([]uint8, x.k+1)
	copy(s, x.base[:x.k])
	s[x.k] = x.a
	return s
}

// forker replays and records the decisions of one path.
type forker struct {
	script []uint8 // the alternative to take at fork point k, replayed
	taken  []uint8 // the alternative taken at each fork point of this path
	nalt   []uint8 // the number of alternatives at each fork point
	seen   map[[2]uint64]struct{}
	h      [2]maphash.Hash
	first  int32 // reason id of the first fork point (for Why)
	cause  int32 // why of its condition
	pruned bool  // the path was dropped as a cycle
}

func (f *forker) reset(script []uint8) {
	f.script = script
	f.taken, f.nalt = f.taken[:0], f.nalt[:0]
	f.pruned = false
}

// maxKeptSeen bounds the fork point states a forker keeps allocated
// between explorations (release).
const maxKeptSeen = 1 << 10

// release drops the table of fork point states when an exploration grew
// it large: a map keeps its buckets when cleared, and each of a
// workgroup's frames has its forker, so otherwise every frame would hold
// the largest table it ever needed until its worker ends (9 MB of a
// 32-invocation workgroup that forks at each atomic-indexed store).
func (f *forker) release() {
	if len(f.seen) > maxKeptSeen {
		f.seen = nil
	}
}

// begin starts the exploration of a new invocation (or segment).
func (f *forker) begin() {
	f.reset(nil)
	f.first, f.cause = 0, 0
	if len(f.seen) > 0 {
		clear(f.seen) // allocated at the first fork point (most invocations have none)
	}
}

var hashSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// state hashes a fork point's identity and the state it is met in.
func (f *forker) state(fr *frame, r, pc int32) [2]uint64 {
	var out [2]uint64
	var b [24]byte
	for k := range f.h {
		h := &f.h[k]
		h.Reset()
		binary.LittleEndian.PutUint32(b[0:], uint32(r))
		binary.LittleEndian.PutUint32(b[4:], uint32(pc))
		h.Write(b[:8])
		for _, c := range fr.calls {
			binary.LittleEndian.PutUint32(b[0:], uint32(c))
			h.Write(b[:4])
		}
		h.WriteByte(0xff)
		if len(fr.s) > 0 {
			// The slots' bytes in one write (a slot's padding is zero:
			// frames are allocated zeroed and slots only copied or built
			// whole; a stray byte could only miss a prune, never add one).
			h.Write(unsafe.Slice((*byte)(unsafe.Pointer(&fr.s[0])), len(fr.s)*int(unsafe.Sizeof(slot{}))))
		}
		out[k] = h.Sum64()
	}
	if fr.sh != nil && fr.sh.run != nil {
		// The shared writes of the path so far, as a set of final
		// values (the order they were made in does not matter).
		sum := fr.sh.run.jhash.update(fr.sh.run.journal, fr.sh.mem)
		for k := range out {
			out[k] ^= sum[k] * 0x9e3779b97f4a7c15
		}
	}
	return out
}

// journalHash is the shared-write part of fork point states: over the
// distinct locations the current path's journal holds, the sum of a hash
// of (location, current value) per lane. It is kept incrementally, each
// journal entry folded in once (issue 26: hashing the whole journal at
// every fork point made a loop that forks and writes quadratic — Tint's
// benchmark/cluster-lights with --flat ran for over 10 minutes). Reset
// with the journal (dispatchRun.resetJournal).
type journalHash struct {
	n    int               // journal entries folded in
	vals map[[2]int32]slot // each location's value as folded in
	sum  [2]uint64
}

func (j *journalHash) reset() {
	j.n, j.sum = 0, [2]uint64{}
	clear(j.vals)
}

// update folds in the journal's entries since the last call with mem's
// current values, and returns the sums.
func (j *journalHash) update(journal []memWrite, mem []*cells) [2]uint64 {
	if j.n > len(journal) { // never: the journal is reset through resetJournal
		j.reset()
	}
	if j.vals == nil {
		j.vals = map[[2]int32]slot{}
	}
	for _, w := range journal[j.n:] {
		key := [2]int32{w.id, w.off}
		cur := mem[w.id].get(w.off)
		if old, ok := j.vals[key]; ok {
			if old == cur {
				continue
			}
			h := leafStateHash(key, old)
			j.sum[0] -= h[0]
			j.sum[1] -= h[1]
		}
		h := leafStateHash(key, cur)
		j.sum[0] += h[0]
		j.sum[1] += h[1]
		j.vals[key] = cur
	}
	j.n = len(journal)
	return j.sum
}

// leafStateHash hashes a shared location and its value (bits, reason,
// allowed set) in both lanes.
func leafStateHash(key [2]int32, v slot) [2]uint64 {
	var b [20]byte
	binary.LittleEndian.PutUint32(b[0:], uint32(key[0]))
	binary.LittleEndian.PutUint32(b[4:], uint32(key[1]))
	binary.LittleEndian.PutUint32(b[8:], v.bits)
	binary.LittleEndian.PutUint32(b[12:], uint32(v.why))
	binary.LittleEndian.PutUint32(b[16:], uint32(v.setID()))
	return [2]uint64{maphash.Bytes(hashSeeds[0], b[:]), maphash.Bytes(hashSeeds[1], b[:])}
}

// alternatives appends to stack the alternatives not taken at the fork
// points from index from on.
func (f *forker) alternatives(stack []forkAlt, from int) []forkAlt {
	base := slices.Clone(f.taken)
	for k := len(f.taken) - 1; k >= from; k-- {
		for a := 0; a < int(f.nalt[k]); a++ {
			if a != int(f.taken[k]) {
				stack = append(stack, forkAlt{base: base, k: int32(k), a: uint8(a)})
			}
		}
	}
	return stack
}

// branch decides a fork point at reason site r whose condition is
// indeterminate for reason cause: nalt alternatives, dflt the one the
// computed (best-guess) value takes. It returns the alternative to take,
// or stop when the invocation must end here (no forking: every output is
// poisoned; or the path is a cycle).
func (fr *frame) branch(r, pc, cause int32, nalt, dflt int) (alt int, stop bool) {
	f := fr.fork
	if fr.stop {
		return 0, true
	}
	if f == nil || len(f.taken) >= maxForkDepth || nalt > 255 {
		fr.poisonAll(r, cause)
		return 0, true
	}
	if len(f.taken) >= len(f.script) {
		// New ground (a replayed prefix meets its fork points in the
		// states it registered).
		fr.steps += int64(len(fr.s) / hashStepsCost)
		if f.seen == nil {
			f.seen = map[[2]uint64]struct{}{}
			f.h[0].SetSeed(hashSeeds[0])
			f.h[1].SetSeed(hashSeeds[1])
		}
		key := f.state(fr, r, pc)
		if _, ok := f.seen[key]; ok {
			f.pruned = true
			fr.stop, fr.limit = true, -1
			return 0, true
		}
		f.seen[key] = struct{}{}
	}
	if f.first == 0 {
		f.first, f.cause = r, cause
	}
	alt = dflt
	if k := len(f.taken); k < len(f.script) {
		alt = int(f.script[k])
		if alt >= nalt {
			// The replayed prefix met a fork point with fewer
			// alternatives than the path it was recorded on: the
			// replay diverged (seen with racy reads and a spurious
			// atomicCompareExchangeWeak in one dispatch). Nothing this
			// path computes can be trusted as one of the program's
			// outcomes: make what it touches indeterminate instead.
			fr.poisonAll(r, cause)
			return 0, true
		}
	}
	f.taken = append(f.taken, uint8(alt))
	f.nalt = append(f.nalt, uint8(nalt))
	return alt, false
}

// fork2 decides a two-way fork point: computed is the outcome the
// computed value gives; the result is the outcome to take.
func (fr *frame) fork2(r, pc, cause int32, computed bool) (bool, bool) {
	alt, stop := fr.branch(r, pc, cause, 2, 0)
	return computed != (alt == 1), stop
}

// explore runs one invocation of a function kernel on every path its
// fork points allow (at most maxPaths) and returns the union of their
// outputs (args and limit as invoke takes them; each path replays
// fr.fork's script).
func (p *Program) explore(fr *frame, maxPaths int, budget *int64, args []ir.Value, limit int64) Invocation {
	run := func() { p.invoke(fr, args, limit) }
	f := &fr.forkBuf
	f.begin()
	fr.fork = f
	defer func() { fr.fork = nil; f.release() }()
	fr.calls = fr.calls[:0]
	run()
	steps := int64(0)
	inv := p.collect(fr)
	if len(f.taken) == 0 && !f.pruned {
		return inv
	}
	if inv.Err != nil {
		// The path the computed values take fails (step limit): an
		// error of the kernel, as without forks.
		return inv
	}
	var acc []Output
	all, any := true, false // discard on every path, on some (Invocation.Discarded)
	if !f.pruned {
		acc = inv.Outputs
		all, any = inv.Discarded, inv.Discarded
	}
	stack := f.alternatives(nil, 0)
	for paths := 1; len(stack) > 0; paths++ {
		if paths >= maxPaths || steps > maxForkSteps || *budget <= 0 {
			return p.poisoned(fr, f, fmt.Sprintf("more than %d paths or %d steps", maxPaths, maxForkSteps))
		}
		script := stack[len(stack)-1].script()
		stack = stack[:len(stack)-1]
		f.reset(script)
		fr.calls = fr.calls[:0]
		run()
		steps += fr.steps
		*budget -= fr.steps
		stack = f.alternatives(stack, len(script))
		if f.pruned {
			continue
		}
		o := p.collect(fr)
		if o.Err != nil {
			// Another path runs past the step limit: an execution that
			// takes it never ends, or ends anywhere; any value.
			return p.poisoned(fr, f, "another path "+o.Err.Error())
		}
		all, any = all && o.Discarded, any || o.Discarded
		if acc == nil {
			acc = o.Outputs
			continue
		}
		for i := range acc {
			acc[i] = unionOutput(acc[i], o.Outputs[i], p.forkWhy(f))
		}
	}
	if acc == nil {
		// Every path was a cycle: no execution ends (a GPU would time out).
		return p.poisoned(fr, f, "no path ends")
	}
	return Invocation{Outputs: acc, Discarded: all, MayDiscard: any}
}

// forkWhy describes the first fork point of f and its cause.
func (p *Program) forkWhy(f *forker) string {
	w := p.reasonText(f.first)
	if c := p.reasonText(f.cause); c != "" && c != w {
		w += " (because " + c + ")"
	}
	return w
}

// poisoned is the invocation with every output any value because of the
// fork point f met first (detail: why it was not explored): the coarse
// rule, as collect gives it for a poisoned frame.
func (p *Program) poisoned(fr *frame, f *forker, detail string) Invocation {
	fr.err, fr.poison, fr.cause = nil, f.first, f.cause
	inv := p.collect(fr)
	inv.Discarded, inv.MayDiscard = false, inv.MayDiscard || p.discards
	for i := range inv.Outputs {
		inv.Outputs[i].Why += " (" + detail + ")"
	}
	return inv
}

// unionOutput is the leafwise union of the outputs of two paths: a leaf
// both give exactly the same value stays determinate (with the larger
// bound); one they differ on is indeterminate with the union of their
// values as its allowed set, or any value when a side already is or the
// set grows too large. why describes the fork.
func unionOutput(a, b Output, why string) Output {
	kinds := a.Value.Type.ComponentTypes()
	n := len(kinds)
	get := func(o Output, i int) (ind bool, tol float64, set ir.ValueSet) {
		if o.Indeterminate != nil {
			ind = o.Indeterminate[i]
		}
		if o.Tolerance != nil {
			tol = o.Tolerance[i]
		}
		if o.Allowed != nil {
			set = o.Allowed[i]
		}
		return
	}
	av, bv := leafBits(a.Value), leafBits(b.Value)
	var out Output = a
	changed := false
	for i := 0; i < n; i++ {
		ai, at, as := get(a, i)
		bi, bt, bs := get(b, i)
		if !ai && !bi && av[i] == bv[i] {
			if bt > at {
				out = ensureLeaves(out, n, changed)
				changed = true
				out.Tolerance[i] = bt
			}
			continue
		}
		out = ensureLeaves(out, n, changed)
		changed = true
		out.Indeterminate[i] = true
		if out.Why == "" || !ai {
			out.Why = why
		}
		toSet := func(ind bool, tol float64, set ir.ValueSet, bits uint32) (ir.ValueSet, bool) {
			if ind {
				return set, !set.IsAny()
			}
			return ir.ValueSet{}.Add(bits, tol)
		}
		sa, oka := toSet(ai, at, as, av[i])
		sb, okb := toSet(bi, bt, bs, bv[i])
		var u ir.ValueSet
		if oka && okb {
			u, _ = sa.Union(sb, kinds[i].Kind)
		}
		if !u.IsAny() {
			if out.Allowed == nil {
				out.Allowed = make([]ir.ValueSet, n)
			}
			out.Allowed[i] = u
		} else if out.Allowed != nil {
			out.Allowed[i] = ir.ValueSet{}
		}
	}
	return out
}

// ensureLeaves gives o its own per-leaf slices (copies, unless owned).
func ensureLeaves(o Output, n int, owned bool) Output {
	if owned {
		return o
	}
	ind, tol := make([]bool, n), make([]float64, n)
	copy(ind, o.Indeterminate)
	copy(tol, o.Tolerance)
	o.Indeterminate, o.Tolerance = ind, tol
	if o.Allowed != nil {
		o.Allowed = slices.Clone(o.Allowed)
	}
	return o
}

// leafBits lists the bits of v's leaves in ComponentTypes order.
func leafBits(v ir.Value) []uint32 {
	var out []uint32
	var rec func(v ir.Value)
	rec = func(v ir.Value) {
		if v.Elems == nil && v.Type != nil && v.Type.IsScalar() {
			out = append(out, v.Bits)
			return
		}
		for _, e := range v.Elems {
			rec(e)
		}
	}
	rec(v)
	return out
}

// forkSwitch decides a switch on an indeterminate selector: the
// alternatives are the distinct targets of table tbl (value, target pairs,
// then the default target); computed is the target of the computed value.
func (fr *frame) forkSwitch(r, pc, cause int32, tbl []uint32, computed uint32) (uint32, bool) {
	var targets []uint32
	dflt := 0
	add := func(t uint32) {
		if !slices.Contains(targets, t) {
			if t == computed {
				dflt = len(targets)
			}
			targets = append(targets, t)
		}
	}
	for i := 0; i+1 < len(tbl); i += 2 {
		add(tbl[i+1])
	}
	add(tbl[len(tbl)-1])
	alt, stop := fr.branch(r, pc, cause, len(targets), dflt)
	if stop {
		return 0, true
	}
	return targets[alt], false
}
