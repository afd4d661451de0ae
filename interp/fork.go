package interp

import (
	"fmt"
	"slices"

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
// the same calls) in exactly the state (every slot of the frame, and no
// shared write since) in which it met it before is a cycle: whatever it can still do, the first visit's other
// alternatives already explore, so it is dropped. This makes the canonical
// compare-exchange retry loop exact: a spurious failure leaves the state
// as it was, and the retry meets the same fork again.
//
// Past MaxPaths paths, or maxForkDepth fork points on one path, the
// invocation falls back to the coarse rule: from the fork on, every
// output it can still write is any value.

// DefaultMaxPaths is the number of paths the reference explores per
// invocation (per segment between barriers, for an entry point) when
// Options.MaxPaths is 0.
const DefaultMaxPaths = 32

// maxForkDepth bounds the fork points on one path.
const maxForkDepth = 16

// forker replays and records the decisions of one path.
type forker struct {
	script []uint8 // the alternative to take at fork point k, replayed
	taken  []uint8 // the alternative taken at each fork point of this path
	nalt   []uint8 // the number of alternatives at each fork point
	seen   []forkSeen
	first  int32 // reason id of the first fork point (for Why)
	cause  int32 // why of its condition
	pruned bool  // the path was dropped as a cycle
}

// forkSeen is the state at a fork point of the current path.
type forkSeen struct {
	r, pc  int32
	calls  []int32
	writes int
	s      []slot
}

func (f *forker) reset(script []uint8) {
	f.script = script
	f.taken, f.nalt, f.seen = f.taken[:0], f.nalt[:0], f.seen[:0]
	f.pruned = false
}

// alternatives appends to stack the scripts of the alternatives not taken
// at the fork points from index from on.
func (f *forker) alternatives(stack [][]uint8, from int) [][]uint8 {
	for k := len(f.taken) - 1; k >= from; k-- {
		for a := 0; a < int(f.nalt[k]); a++ {
			if a == int(f.taken[k]) {
				continue
			}
			s := make([]uint8, k+1)
			copy(s, f.taken[:k])
			s[k] = uint8(a)
			stack = append(stack, s)
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
	w := fr.writes()
	for _, sn := range f.seen {
		if sn.r == r && sn.pc == pc && sn.writes == w && slices.Equal(sn.calls, fr.calls) && slices.Equal(sn.s, fr.s) {
			f.pruned = true
			fr.stop, fr.limit = true, -1
			return 0, true
		}
	}
	f.seen = append(f.seen, forkSeen{r: r, pc: pc, calls: slices.Clone(fr.calls), writes: w, s: slices.Clone(fr.s)})
	if f.first == 0 {
		f.first, f.cause = r, cause
	}
	alt = dflt
	if k := len(f.taken); k < len(f.script) {
		alt = int(f.script[k])
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

// writes is the number of shared-memory writes the invocation made so far
// (0 outside entry points): a cycle needs the same memory too.
func (fr *frame) writes() int {
	if fr.sh == nil || fr.sh.run == nil {
		return 0
	}
	return len(fr.sh.run.journal)
}

// explore runs one invocation of a function kernel on every path its
// fork points allow (at most maxPaths) and returns the union of their
// outputs. run executes the invocation in fr with fr.fork's script.
func (p *Program) explore(fr *frame, maxPaths int, run func()) Invocation {
	f := &forker{}
	fr.fork = f
	defer func() { fr.fork = nil }()
	fr.calls = fr.calls[:0]
	run()
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
	if !f.pruned {
		acc = inv.Outputs
	}
	stack := f.alternatives(nil, 0)
	for paths := 1; len(stack) > 0; paths++ {
		if paths >= maxPaths {
			return p.poisoned(fr, f.first, fmt.Sprintf("more than %d paths", maxPaths))
		}
		script := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f.reset(script)
		fr.calls = fr.calls[:0]
		run()
		stack = f.alternatives(stack, len(script))
		if f.pruned {
			continue
		}
		o := p.collect(fr)
		if o.Err != nil {
			// Another path runs past the step limit: an execution that
			// takes it never ends, or ends anywhere; any value.
			return p.poisoned(fr, f.first, "another path "+o.Err.Error())
		}
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
		return p.poisoned(fr, f.first, "no path ends")
	}
	return Invocation{Outputs: acc}
}

// forkWhy describes the first fork point of f and its cause.
func (p *Program) forkWhy(f *forker) string {
	w := p.reasonText(f.first)
	if c := p.reasonText(f.cause); c != "" && c != w {
		w += " (because " + c + ")"
	}
	return w
}

// poisoned is an invocation whose every output is any value because of
// the fork point r (detail: why it was not explored).
func (p *Program) poisoned(fr *frame, r int32, detail string) Invocation {
	outs := make([]Output, len(p.outs))
	for i, o := range p.outs {
		s := fr.s[o.base : o.base+o.n]
		pos := 0
		out := Output{Value: buildValue(o.t, s, &pos), Indeterminate: make([]bool, len(s)), Tolerance: make([]float64, len(s))}
		for j := range s {
			out.Indeterminate[j] = true
		}
		out.Why = p.reasonText(r) + " (" + detail + ")"
		if fr.fork != nil {
			out.Why = p.forkWhy(fr.fork) + " (" + detail + ")"
		}
		outs[i] = out
	}
	return Invocation{Outputs: outs}
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
			ind, tol = o.Indeterminate[i], o.Tolerance[i]
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
