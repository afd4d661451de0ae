package interp

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// Dispatches of compute entry points as written (ARCHITECTURE.md
// "Entry points as written (compute)").
//
// Every workgroup runs in turn (or, in a first pass with several
// workers, in parallel where that changes nothing: parallel.go); inside
// a workgroup, each invocation runs to its next barrier (or its end),
// then the next invocation: the entry point's body is one flat code
// (code.go), so an invocation stopped at a barrier is its frame plus the
// instruction to resume at — no goroutine
// per invocation, and the closure-compiled code keeps its speed. When
// every invocation stopped, they must all be at the same barrier (or all
// done); otherwise the barrier was reached by only some of them, which is
// an error in the kernel (WGSL #uniformity), reported. Barriers in
// functions the entry point calls are refused at compile time (the
// reference resumes only the entry point's own body).
//
// Memory: private globals and locals are per invocation (the frame);
// var<workgroup> memory is per workgroup (zeroed when it starts);
// storage and uniform buffers are per dispatch. Every non-atomic access
// to shared memory is checked for a data race (WGSL #memory-model): two
// accesses to one location by different invocations, at least one a
// write, neither ordered before the other by a barrier of the location's
// address space in the same workgroup (invocations of different
// workgroups are never ordered). A race is reported in Result.Races, and
// the dispatch runs again knowing it: racing loads return the location's
// prior value or a value stored to it in the racing scope (segment.go).
// Atomics execute one at a time, in the order the scheduler runs the
// invocations, and never race (WGSL lets atomic types be accessed only
// through atomic builtins); the value one returns is exact unless another
// invocation may update the location concurrently (segment.go:
// atomicResult). The race detector is exact with constant state per
// location (see access): every racing pair of accesses to a location is
// noticed, and the first is reported.

// entryInfo is the compile-time state of an entry point.
type entryInfo struct {
	f      *ir.Func
	ids    map[string]int // shared var name → index in Dispatch.vars
	vars   []*ir.SharedVar
	race   []int32 // per shared var: the reason id of a race on it
	params []varInfo
	writes []bool // per shared var: the entry point's call graph stores to it (or an atomic writes it)
	// readOnly, per shared var: a storage or uniform binding without
	// atomics that nothing writes. Its memory is the dispatch's initial
	// leaves (dispatchRun.initial, 4 bytes a leaf), not slots (24).
	readOnly []bool
	// parallel: no storage binding has atomics (each atomic there would
	// abandon a parallel pass: parallel.go), so a first pass may try.
	parallel bool
	rest     int32 // reason id: an invocation whose rest is indeterminate
}

// Dispatch is a compute entry point compiled for dispatches. It is
// immutable; Run may be called concurrently.
type Dispatch struct {
	p     *Program
	e     *entryInfo
	body  code
	entry *ir.Func
	m     *ir.Module // for its textures (texture.go)
}

// invShared is the shared state an invocation sees: the memory of every
// shared var (workgroup vars: its workgroup's), the race shadows, and
// its identity.
type invShared struct {
	mem     [][]slot
	shadow  [][]access
	inv     int32 // linear invocation index in the dispatch, + 1
	wg      int32 // linear workgroup index
	ep      *[2]uint32
	races   *[]Race
	ashadow [][]access            // the contention shadow of atomic locations (segment.go)
	st      *shadowTab            // the shadows' extra reads, this pass
	own     map[scopeKey][2]int64 // the invocation's own atomic deltas per assumed scope (segment.go)
	d       *Dispatch
	run     *dispatchRun
	owner   [][]atomic.Int32 // a parallel pass's claims (parallel.go); nil when sequential
}

// Race is a data race the dispatch found.
type Race struct {
	// Var is the shared variable; Slot the leaf's index in it (in
	// ir.Type.ComponentTypes order, runtime-sized arrays by their given
	// length).
	Var  string
	Slot int
	// A and B are the two accesses, "file:line:col: read|write by invocation N (workgroup W)"
	// (the file when the module has one).
	A, B string
}

func (r Race) String() string {
	return fmt.Sprintf("data race on %s (leaf %d): %s, and %s", r.Var, r.Slot, r.A, r.B)
}

// DispatchResult is the outcome of a dispatch.
type DispatchResult struct {
	// Buffers holds the final contents of every storage and uniform
	// binding, by variable name, with per-leaf indeterminacy as in
	// Output (a racing location is indeterminate).
	Buffers map[string]Output
	// Races lists the data races found, at most one per location, in the
	// order found.
	Races []Race
	// Textures holds the final contents of every storage texture the
	// entry point stores to, by variable name (texture.go).
	Textures map[string]TextureOutput
}

// CompileEntry compiles the compute entry point name of m for
// dispatches. m must pass ir.Verify. Errors are *ir.Error or
// ir.ErrorList: unknown or not a compute entry point, recursion, a
// barrier in a function the entry point calls.
func CompileEntry(m *ir.Module, name string) (*Dispatch, error) {
	if m == nil {
		return nil, &ir.Error{Pass: "interp", Msg: "nil module"}
	}
	f := m.Func(name)
	if f == nil || f.Stage != ir.StageCompute {
		return nil, &ir.Error{File: m.File, Pass: "interp", Msg: fmt.Sprintf("no compute entry point %q in the module", name)}
	}
	if err := ir.Verify(m); err != nil {
		return nil, err
	}
	if cyc := m.FindCycle(name); cyc != nil {
		return nil, &ir.Error{File: m.File, Pos: m.Func(cyc[0]).Pos, Pass: "interp",
			Msg: fmt.Sprintf("recursion %s (WGSL forbids recursion)", strings.Join(cyc, " -> "))}
	}
	// Pointer parameters into workgroup, storage and uniform memory
	// become direct accesses of the variables (ir.DirectVariableAccess):
	// each invocation then touches exactly the locations it accesses,
	// which the race detector needs.
	m = ir.DirectVariableAccess(m)
	// Barriers run only in the entry point's own body (opBarrier, the
	// segments of segment.go): the calls that reach one are inlined, and
	// every workgroupUniformLoad becomes a let's whole initializer
	// (ir.InlineBarriers; the positions stay the helpers').
	if in := ir.InlineBarriers(m, name); in != m {
		if err := ir.Verify(in); err != nil {
			return nil, &ir.Error{File: m.File, Pos: f.Pos, Pass: "interp", Msg: "internal error: the entry point with its barrier calls inlined does not verify: " + err.Error()}
		}
		m = in
	}
	f = m.Func(name)
	e := &entryInfo{f: f, ids: map[string]int{}}
	c := &compiler{
		p:       &Program{file: m.File},
		m:       m,
		consts:  map[string]int32{},
		globals: map[string]varInfo{},
		funcs:   map[string]*fnInfo{},
		entry:   e,
	}
	for _, g := range m.Shared {
		e.ids[g.Name] = len(e.vars)
		e.vars = append(e.vars, g)
		e.race = append(e.race, c.addReason(g.Pos, rOOBWrite, nil, "data race on "+g.Name))
	}
	e.writes = sharedWrites(m, name, e.ids, len(e.vars))
	e.parallel = true
	for i, g := range e.vars {
		e.readOnly = append(e.readOnly, g.Space != ir.SpaceWorkgroup && !e.writes[i] && !hasAtomic(g.T))
		if g.Space != ir.SpaceWorkgroup && hasAtomic(g.T) {
			e.parallel = false
		}
	}
	e.rest = c.addReason(f.Pos, rBranch, nil, "")
	used := m.GlobalsUsed(name)
	c.p.globLo = int32(len(c.image))
	for _, g := range used {
		n := size(g.T)
		c.globals[g.Name] = varInfo{base: c.alloc(n), n: n, t: g.T, global: true}
	}
	c.p.globHi = int32(len(c.image))
	for _, g := range used {
		c.globalInit(g)
	}
	var body code
	for _, fn := range m.CallGraph(name) {
		if fn != f {
			ir.Inspect(fn.Body, func(n ir.Node) bool {
				if b, ok := n.(*ir.BuiltinCall); ok && b.Fn.Info().Class == ir.ClassBarrier {
					c.errorf(b.Pos, "%s in %s, a function the entry point calls: the reference runs barriers only in the entry point's own body (inline the function)", b.Fn.Info().Name, fn.Name)
				}
				return true
			})
			c.function(fn)
			continue
		}
		info := &fnInfo{f: fn}
		c.fn = info
		c.vars = map[string]varInfo{}
		c.addressed = addressedLocals(fn)
		for _, prm := range fn.Params {
			n := size(prm.T)
			v := varInfo{base: c.alloc(n), n: n, t: prm.T}
			info.params = append(info.params, v)
			c.vars[prm.Name] = v
		}
		out, targets := c.out, c.targets
		c.out, c.targets = nil, nil
		c.inBody = true
		c.block(fn.Body)
		c.inBody = false
		body = c.out
		c.out, c.targets = out, targets
		e.params = info.params
		c.funcs[fn.Name] = info
	}
	if len(c.errs) > 0 {
		return nil, c.errs.Err()
	}
	c.p.image = c.image
	return &Dispatch{p: c.p, e: e, body: body, entry: f, m: m}, nil
}

// Entry returns the entry point.
func (d *Dispatch) Entry() *ir.Func { return d.entry }

// Vars returns the shared variables of the module, in module order (the
// bindings Run takes and returns, and the workgroup variables).
func (d *Dispatch) Vars() []*ir.SharedVar { return d.e.vars }

// barrierStmt compiles a barrier statement of the entry point's body
// (workgroupBarrier, storageBarrier, textureBarrier) as opBarrier; it reports false for any other statement.
func (c *compiler) barrierStmt(s *ir.ExprStmt) bool {
	b, ok := s.X.(*ir.BuiltinCall)
	if !ok || (b.Fn != ir.BWorkgroupBarrier && b.Fn != ir.BStorageBarrier && b.Fn != ir.BTextureBarrier) || !c.inBody {
		return false
	}
	c.barrier(b.Pos, b.Fn)
	return true
}

// barrier emits opBarrier for a barrier builtin fn at pos (also the two
// barriers of workgroupUniformLoad).
func (c *compiler) barrier(pos ir.Pos, fn ir.Builtin) {
	x := uint32(c.here() + 1)
	switch fn {
	case ir.BStorageBarrier:
		x |= 1 << 31
	case ir.BTextureBarrier:
		// textureBarrier (WGSL #sync-builtin-functions) orders only
		// texture memory, whose loads of another invocation's stores the
		// reference never orders (texture.go: any value): here it is a
		// control barrier alone, after which workgroup and storage
		// accesses still race.
		x |= 1 << 30
	}
	c.p.positions = append(c.p.positions, pos)
	c.emitOp(instr{op: opBarrier, x: x, b: int32(len(c.p.positions) - 1)})
}

// sharedRoot reports whether e is a reference chain rooted at a shared var.
func sharedRoot(e ir.Expr) bool {
	id := ir.RootIdent(e)
	return id != nil && id.Ref == ir.RefShared && ir.IsReference(e)
}

// sref is a compiled reference into a shared var: its id, a static slot
// offset, or fn computing it (bad: an index was out of bounds or
// indeterminate), and the number of slots it designates.
type sref struct {
	id    int
	off   int32
	fn    func(fr *frame) (off int32, bad bool)
	n     int32
	stops bool
}

func (r sref) at(fr *frame) (int32, bool) {
	if r.fn == nil {
		return r.off, false
	}
	return r.fn(fr)
}

// sharedRef compiles a reference chain rooted at a shared var.
func (c *compiler) sharedRef(e ir.Expr) sref {
	switch e := e.(type) {
	case *ir.Ident:
		return sref{id: c.entry.ids[e.Name], n: size(e.T)}
	case *ir.Member:
		r := c.sharedRef(e.X)
		k := fieldOffset(e.X.Type(), e.Field)
		r.n = size(e.T)
		if r.fn == nil {
			r.off += k
			return r
		}
		f := r.fn
		r.fn = func(fr *frame) (int32, bool) { o, b := f(fr); return o + k, b }
		return r
	case *ir.Swizzle:
		r := c.sharedRef(e.X)
		k := int32(e.Comps[0])
		r.n = 1
		if r.fn == nil {
			r.off += k
			return r
		}
		f := r.fn
		r.fn = func(fr *frame) (int32, bool) { o, b := f(fr); return o + k, b }
		return r
	case *ir.Index:
		r := c.sharedRef(e.X)
		esz := size(e.T)
		xt := e.X.Type()
		idx := c.expr(e.Index)
		prev, base, id := r.fn, r.off, r.id
		idcode, il := idx.code, idx.loc
		signed := e.Index.Type().Kind == ir.KindI32
		ln := int32(xt.Len)
		runtime := xt.Kind == ir.KindRuntimeArray
		r.fn = func(fr *frame) (int32, bool) {
			off, bad := base, false
			if prev != nil {
				off, bad = prev(fr)
			}
			idcode.run(fr)
			n := ln
			if runtime {
				n = (fr.sh.leaves(id) - off) / max(esz, 1)
			}
			if n <= 0 {
				return off, true
			}
			is := fr.s[il]
			k, ok := clampIndex(is.bits, signed, n)
			return off + k*esz, bad || !ok || is.why < 0
		}
		r.n = esz
		r.stops = r.stops || idx.stops
		return r
	}
	c.errorf(e.Position(), "%T is not a reference", e)
	return sref{}
}

// sharedExpr compiles a load from shared memory, an atomic or
// arrayLength; ok is false for any other expression.
func (c *compiler) sharedExpr(e ir.Expr, dst int32) (cexpr, bool) {
	switch x := e.(type) {
	case *ir.Atomic:
		return c.atomic(x, dst), true
	case *ir.ArrayLength:
		r := c.sharedRef(x.X)
		d := dst
		if d < 0 {
			d = c.alloc(1)
		}
		esz := size(x.X.Type().Elem)
		id, off := r.id, r.off
		fn := func(fr *frame) {
			fr.s[d] = slot{bits: uint32((fr.sh.leaves(id) - off) / max(esz, 1))}
		}
		return cexpr{code: c.emit(fn), loc: d, n: 1}, true
	case *ir.Ident, *ir.Member, *ir.Index, *ir.Swizzle:
		if !sharedRoot(e) {
			return cexpr{}, false
		}
	default:
		return cexpr{}, false
	}
	r := c.sharedRef(e)
	n := r.n
	d := dst
	if d < 0 {
		d = c.alloc(n)
	}
	oob := -c.addReason(e.Position(), rOOBRead, e, "")
	race := c.entry.race[r.id]
	posID := c.addReason(e.Position(), rOOBRead, e, "read")
	id := r.id
	ro := c.entry.readOnly[id]
	fn := func(fr *frame) {
		off, bad := r.at(fr)
		mem := fr.sh.mem[id]
		if fr.sh.claimed(id) && (bad || !fr.sh.claim(int32(id), off, n)) {
			// A parallel pass that must be abandoned (parallel.go):
			// the leaves are another workgroup's.
			clear(fr.s[d : d+n])
			fr.abandon()
			return
		}
		if off+n > fr.sh.leaves(id) {
			for j := int32(0); j < n; j++ {
				fr.s[d+j] = slot{why: oob}
			}
			return
		}
		if ro {
			init := fr.sh.run.initial[id]
			for j := int32(0); j < n; j++ {
				fr.s[d+j] = slot{bits: init[off+j]}
			}
		} else {
			copy(fr.s[d:d+n], mem[off:off+n])
		}
		for j := int32(0); j < n; j++ {
			fr.sh.load(int32(id), off+j, &fr.s[d+j], posID, race)
			if bad {
				fr.sh.loadAnywhere(int32(id), &fr.s[d+j], oob)
			}
		}
	}
	return cexpr{code: c.emit(fn), loc: d, n: n, stops: r.stops}, true
}

// sharedAssign compiles a store (or compound assignment) into shared
// memory: the reference, then the value, then the store.
func (c *compiler) sharedAssign(s *ir.Assign) cstmt {
	r := c.sharedRef(s.LHS)
	n := r.n
	var v cexpr
	tmp := int32(-1) // x op= y: where x is loaded
	if s.Op == ir.OpNone {
		v = c.expr(s.RHS)
	} else {
		// x op= y is x = x op y with the reference x evaluated once
		// (WGSL #compound-assignment-sec): its index operands, calls
		// included, run once; x is loaded through that one evaluation,
		// before y is evaluated.
		tmp = c.alloc(n)
		v = c.binary(s, s.Op, cexpr{loc: tmp, n: n}, c.expr(s.RHS), -1)
	}
	id := r.id
	race := c.entry.race[id]
	oob := -c.addReason(s.Pos, rOOBWrite, s, c.entry.vars[id].Name)
	posID := c.addReason(s.Pos, rOOBWrite, s, "write")
	loadOOB := -c.addReason(s.LHS.Position(), rOOBRead, s.LHS, "")
	loadID := c.addReason(s.LHS.Position(), rOOBRead, s.LHS, "read")
	cd, src := v.code, v.loc
	stops := r.stops || v.stops
	return cstmt{run: func(fr *frame) ctl {
		off, bad := r.at(fr)
		if fr.sh.claimed(id) && (bad || !fr.sh.claim(int32(id), off, n)) {
			fr.abandon() // parallel.go: the leaves are another workgroup's
			return cAbort
		}
		if tmp >= 0 {
			mem := fr.sh.mem[id]
			for j := int32(0); j < n; j++ {
				if off+n > int32(len(mem)) {
					fr.s[tmp+j] = slot{why: loadOOB}
					continue
				}
				fr.s[tmp+j] = mem[off+j]
				fr.sh.load(int32(id), off+j, &fr.s[tmp+j], loadID, race)
				if bad {
					fr.s[tmp+j].taint(loadOOB)
				}
			}
		}
		cd.run(fr)
		if stops && fr.stop {
			return cAbort
		}
		mem := fr.sh.mem[id]
		if off+n > int32(len(mem)) {
			return cNext // an empty runtime-sized array: the store is dropped
		}
		if bad {
			// A store through an invalid reference may land on any
			// location of the variable's buffer, or nowhere (WGSL
			// #out-of-bounds-access-sec "Invalid Store"): every leaf of
			// the variable holds its prior value or a leaf of the value
			// stored (of the same type), as far as that is cheap to know.
			fr.sh.storeAnywhere(int32(id), fr.s[src:src+n], -oob)
			return cNext
		}
		for j := int32(0); j < n; j++ {
			fr.sh.store(int32(id), off+j, fr.s[src+j], posID, race)
		}
		return cNext
	}}
}

// atomic compiles an atomic builtin (WGSL #atomic-builtin-functions).
func (c *compiler) atomic(e *ir.Atomic, dst int32) cexpr {
	r := c.sharedRef(e.Ptr())
	ops := c.operands(e.Args[1:]...)
	n := size(e.T)
	d := dst
	if d < 0 && n > 0 {
		d = c.alloc(n)
	}
	if d < 0 {
		d = c.alloc(1)
	}
	id := r.id
	op := e.Op
	signed := e.Ptr().Type().Elem.Kind == ir.KindI32
	// The value an atomic returns, and the location's final value, are
	// exact unless other invocations may update it concurrently
	// (segment.go: atomicResult, from what the previous pass observed).
	order := c.addReason(e.Pos, rAtomic, e, "")
	var a1, a2 int32 = -1, -1
	if len(ops) > 0 {
		a1 = ops[0].loc
	}
	if len(ops) > 1 {
		a2 = ops[1].loc
	}
	weak := c.addReason(e.Pos, rWeakCAS, e, "")
	oob := c.addReason(e.Pos, rOOBWrite, e, c.entry.vars[id].Name)
	storage := c.entry.vars[id].Space != ir.SpaceWorkgroup
	fn := func(fr *frame) {
		sh := fr.sh
		if storage && sh.owner != nil {
			// An atomic on a storage binding in a parallel pass: its
			// shadow and result depend on other workgroups (parallel.go).
			fr.abandon()
			for j := int32(0); j < max(n, 1); j++ {
				fr.s[d+j] = slot{}
			}
			return
		}
		off, bad := r.at(fr)
		mem := sh.mem[id]
		if off >= int32(len(mem)) || bad {
			// An atomic through an invalid reference may act on any
			// location of the variable's buffer or not at all (WGSL
			// #out-of-bounds-access-sec): the whole variable and the
			// result are indeterminate.
			sh.markAll(int32(id), oob)
			for j := int32(0); j < n; j++ {
				fr.s[d+j] = slot{why: -oob}
			}
			return
		}
		old := mem[off]
		if w := sh.run.sticky[id]; w != 0 {
			old.taint(-w)
		}
		var v slot
		if a1 >= 0 {
			v = fr.s[a1]
		}
		nw := old
		why := firstWhy(old.why, v.why)
		stored := op != ir.AtomicLoad
		switch op {
		case ir.AtomicStore, ir.AtomicExchange:
			nw = v
		case ir.AtomicAdd:
			nw = slot{bits: wgslsem.Add(old.bits, v.bits), why: why}
		case ir.AtomicSub:
			nw = slot{bits: wgslsem.Sub(old.bits, v.bits), why: why}
		case ir.AtomicAnd:
			nw = slot{bits: old.bits & v.bits, why: why}
		case ir.AtomicOr:
			nw = slot{bits: old.bits | v.bits, why: why}
		case ir.AtomicXor:
			nw = slot{bits: old.bits ^ v.bits, why: why}
		case ir.AtomicMax, ir.AtomicMin:
			less := old.bits < v.bits
			if signed {
				less = int32(old.bits) < int32(v.bits)
			}
			if (op == ir.AtomicMax) == less {
				nw = slot{bits: v.bits, why: why}
			} else {
				nw = slot{bits: old.bits, why: why}
			}
		case ir.AtomicCompareExchangeWeak:
			eq := old.bits == v.bits
			if w := firstWhy(old.why, v.why); w < 0 {
				// Whether it compares equal is itself indeterminate.
				var stop bool
				if eq, stop = fr.fork2(order, -1, w, eq); stop {
					return
				}
			} else if eq {
				// Equal, yet the weak exchange may fail spuriously and
				// store nothing (WGSL #atomic-compare-exchange-weak): a
				// fork point, alternative 1 the spurious failure.
				alt, stop := fr.branch(weak, -1, -weak, 2, 0)
				if stop {
					return
				}
				eq = alt == 0
			}
			stored = eq
			if eq {
				nw = fr.s[a2]
			}
			fr.s[d+1] = slot{bits: b2u(eq)}
		}
		res := old
		if sh.atomicResult(int32(id), off, op, stored, v, signed, &res, order) && stored {
			nw.taint(-order)
		}
		if op != ir.AtomicStore {
			fr.s[d] = res
		}
		if stored {
			sh.write(int32(id), off, nw)
		}
	}
	return cexpr{code: c.emit(fn, ops...), loc: d, n: n, stops: r.stops || anyStops(ops...) || op == ir.AtomicCompareExchangeWeak}
}

// check records an access to leaf off of shared var id and reports
// whether it races with an earlier one.
func (sh *invShared) check(id int, off int32, write bool, pos int32) bool {
	shadow := sh.shadow[id]
	if int(off) >= len(shadow) {
		return false
	}
	a := &shadow[off]
	space := 1 // storage barriers order storage and uniform memory
	if sh.d.e.vars[id].Space == ir.SpaceWorkgroup {
		space = 0
	}
	me := sh.accessor(sh.ep[space], pos)
	other, otherWrite := sh.st.observe(a, &me, write)
	if other.inv != 0 {
		sh.report(id, off, other, me.accessTag, write, otherWrite)
		k := scopeKey{id: int32(id), off: off, wg: sh.wg, ep: me.ep}
		if !me.same(other) {
			k = scopeKey{id: int32(id), off: off, wg: -1}
		}
		if sh.run.racyObs[k] == nil {
			sh.run.racyObs[k] = &racyScope{}
		}
	}
	return other.inv != 0
}

// accessor returns the invocation's access at epoch ep from position pos.
func (sh *invShared) accessor(ep uint32, pos int32) accessor {
	l := sh.st.local
	return accessor{accessTag: accessTag{inv: sh.inv, ep: ep, pos: pos}, lo: sh.wg*l + 1, hi: sh.wg*l + l}
}

func (sh *invShared) report(id int, off int32, prev, me accessTag, write, prevWrite bool) {
	for _, r := range *sh.races {
		if r.Var == sh.d.e.vars[id].Name && r.Slot == int(off) {
			return
		}
	}
	desc := func(t accessTag, w bool) string {
		kind := "read"
		if w {
			kind = "write"
		}
		rs := sh.d.p.reasons[t.pos-1]
		at := rs.pos.String()
		if f := sh.d.p.file; f != "" {
			at = f + ":" + at
		}
		return fmt.Sprintf("%s: %s by invocation %d (workgroup %d)", at, kind, t.inv-1, sh.st.wg(t))
	}
	*sh.races = append(*sh.races, Race{Var: sh.d.e.vars[id].Name, Slot: int(off), A: desc(prev, prevWrite), B: desc(me, write)})
}

// Run dispatches workgroups[0] × workgroups[1] × workgroups[2]
// workgroups. buffers gives the initial value of every storage and
// uniform binding by variable name (a missing one starts at zero; a
// runtime-sized array's length is the value's: an ir.Value of array type
// whose Elems are the elements, see BufferValue). It fails, before
// running anything, on a value of the wrong type; a failure of an
// invocation (step limit, non-uniform barrier) is the error, positioned;
// opts.Context ending stops it (Options.Context). A binding the dispatch
// leaves exact and unchanged is returned as the caller's own value.
func (d *Dispatch) Run(buffers map[string]ir.Value, workgroups [3]uint32, opts Options) (*DispatchResult, error) {
	limit := opts.MaxSteps
	if limit <= 0 {
		limit = DefaultMaxSteps
	}
	file := d.p.file
	mem := make([][]uint32, len(d.e.vars))
	for i, g := range d.e.vars {
		if g.Space == ir.SpaceWorkgroup {
			continue
		}
		v, ok := buffers[g.Name]
		if !ok {
			v = ir.ZeroBinding(g.T)
		}
		if err := checkShared(v, g.T); err != nil {
			return nil, &ir.Error{File: file, Pos: g.Pos, Pass: "interp", Msg: fmt.Sprintf("binding %s: %v", g.Name, err)}
		}
		mem[i] = flattenValue(v, make([]uint32, 0, countLeaves(v)))
	}
	for name := range buffers {
		if g, ok := d.e.ids[name]; !ok || d.e.vars[g].Space == ir.SpaceWorkgroup {
			return nil, &ir.Error{File: file, Pos: d.entry.Pos, Pass: "interp", Msg: fmt.Sprintf("no storage or uniform binding named %s", name)}
		}
	}
	ws := d.entry.WorkgroupSize
	local := int(ws[0] * ws[1] * ws[2])
	total := uint64(workgroups[0]) * uint64(workgroups[1]) * uint64(workgroups[2]) * uint64(local)
	if total == 0 || total > 1<<26 {
		return nil, &ir.Error{File: file, Pos: d.entry.StagePos, Pass: "interp", Msg: fmt.Sprintf("dispatch of %d invocations (want 1 to %d)", total, 1<<26)}
	}
	run := newDispatchRun(len(d.e.vars))
	if len(d.m.Textures) > 0 {
		tex, err := newTexState(d.m, d.entry.Name, opts.Textures, opts.Samplers)
		if err != nil {
			return nil, &ir.Error{File: file, Pos: d.entry.Pos, Pass: "interp", Msg: err.Error()}
		}
		run.tex = tex
	}
	run.initial = mem
	run.given = make([]ir.Value, len(d.e.vars))
	for i, g := range d.e.vars {
		run.given[i] = buffers[g.Name]
	}
	run.setKinds(d.e.vars, mem)
	for pass := 1; ; pass++ {
		res, err := d.runPass(opts.Context, mem, workgroups, limit, opts.maxPaths(), opts.workers(), run)
		if err != nil {
			return nil, err
		}
		if run.settled() {
			return res, nil
		}
		if pass == maxPasses {
			// The races or contended atomics keep changing what the
			// invocations do: every writable binding is any value.
			for i, g := range d.e.vars {
				if g.Space != ir.SpaceWorkgroup && d.e.writes[i] {
					o := res.Buffers[g.Name]
					o.Indeterminate, o.Tolerance, o.Allowed = make([]bool, len(o.Indeterminate)), make([]float64, len(o.Indeterminate)), nil
					for j := range o.Indeterminate {
						o.Indeterminate[j] = true
					}
					o.Why = fmt.Sprintf("%s: the shader's races or concurrent atomics change its behaviour from run to run (%d passes of the reference)", d.entry.Pos, maxPasses)
					res.Buffers[g.Name] = o
				}
			}
			return res, nil
		}
		run.next()
	}
}

// runPass runs the dispatch once from the initial memory init, with what
// run assumes of races and contended atomics: on the first pass with
// several workers, workgroups in parallel when that is certain to give
// what the sequential run gives (parallel.go), else workgroup after
// workgroup.
func (d *Dispatch) runPass(ctx context.Context, init [][]uint32, workgroups [3]uint32, limit int64, maxPaths, workers int, run *dispatchRun) (*DispatchResult, error) {
	if run.tex != nil {
		run.tex.reset()
	}
	run.forgetAnywhere()
	mem, shadow, ashadow := d.passMemory(init)
	var races []Race
	done := false
	if workers > 1 && d.e.parallel && run.racy == nil && run.tex == nil && uint64(workgroups[0])*uint64(workgroups[1])*uint64(workgroups[2]) > 1 {
		ok, err := d.runParallel(ctx, mem, shadow, ashadow, workgroups, limit, maxPaths, workers, run)
		if err != nil {
			return nil, err
		}
		if ok {
			done = true
		} else {
			// Abandoned (parallel.go): the memory the workers left is
			// discarded (before the new is made: the collector may have
			// it), and the pass runs sequentially from the start.
			mem, shadow, ashadow = nil, nil, nil
			mem, shadow, ashadow = d.passMemory(init)
		}
	}
	if !done {
		w := d.newWorker(run, mem, shadow, ashadow, maxPaths, nil)
		wgLinear := int32(0)
		for wz := uint32(0); wz < workgroups[2]; wz++ {
			for wy := uint32(0); wy < workgroups[1]; wy++ {
				for wx := uint32(0); wx < workgroups[0]; wx++ {
					if err := w.workgroup(ctx, wgLinear, [3]uint32{wx, wy, wz}, workgroups, limit, maxPaths); err != nil {
						if e := stopped(ctx); e != nil {
							return nil, e
						}
						return nil, err
					}
					if err := stopped(ctx); err != nil {
						return nil, err
					}
					wgLinear++
				}
			}
		}
		races = w.races
		w.release()
	}
	// The shadows are done with: let the collector have them while the
	// outputs are built.
	shadow, ashadow = nil, nil
	res := &DispatchResult{Buffers: map[string]Output{}, Races: races, Textures: run.tex.outputs()}
	for i, g := range d.e.vars {
		if g.Space == ir.SpaceWorkgroup {
			continue
		}
		if v, ok := d.unchanged(run, i, mem[i]); ok {
			res.Buffers[g.Name] = Output{Value: v}
			continue
		}
		m := mem[i]
		if d.e.readOnly[i] {
			m = make([]slot, len(init[i]))
			for j, b := range init[i] {
				m[j].bits = b
			}
		}
		res.Buffers[g.Name] = sharedOutput(d.p, run, g.T, m)
	}
	return res, nil
}

// passMemory makes a pass's storage and uniform memory from the initial
// leaves init, and their race and contention shadows (workgroup
// variables' are each worker's: wgWorker).
func (d *Dispatch) passMemory(init [][]uint32) (mem [][]slot, shadow, ashadow [][]access) {
	mem = make([][]slot, len(d.e.vars))
	shadow = make([][]access, len(d.e.vars))
	ashadow = make([][]access, len(d.e.vars))
	for i, g := range d.e.vars {
		if g.Space == ir.SpaceWorkgroup {
			continue
		}
		if d.e.readOnly[i] {
			continue // read from init itself (entryInfo.readOnly)
		}
		mem[i] = make([]slot, len(init[i]))
		for j, b := range init[i] {
			mem[i][j].bits = b
		}
		if d.e.writes[i] {
			// A binding no invocation writes cannot race (reads never
			// race with reads): it has no shadow, and check finds none.
			shadow[i] = make([]access, len(mem[i]))
		}
		if hasAtomic(g.T) {
			ashadow[i] = make([]access, len(mem[i]))
		}
	}
	return mem, shadow, ashadow
}

// wgWorker runs workgroups one at a time: its frames (one per local
// invocation), its workgroup variables' memory and shadows, and its
// shadows' table; the storage and uniform memory and shadows are the
// pass's, shared with the other workers of a parallel pass.
type wgWorker struct {
	d               *Dispatch
	run             *dispatchRun
	mem             [][]slot
	shadow, ashadow [][]access
	st              *shadowTab
	races           []Race
	frames          []*frame
	shs             []invShared
	ep              [2]uint32
	owner           [][]atomic.Int32 // parallel.go; nil when sequential
}

// newWorker makes a worker of a pass over its memory (the slices are
// copied: the workgroup variables' entries become the worker's own).
func (d *Dispatch) newWorker(run *dispatchRun, mem [][]slot, shadow, ashadow [][]access, maxPaths int, owner [][]atomic.Int32) *wgWorker {
	ws := d.entry.WorkgroupSize
	local := int(ws[0] * ws[1] * ws[2])
	w := &wgWorker{d: d, run: run, mem: slices.Clone(mem), shadow: slices.Clone(shadow), ashadow: slices.Clone(ashadow),
		st: &shadowTab{local: int32(local)}, frames: make([]*frame, local), shs: make([]invShared, local), owner: owner}
	for i := range w.frames {
		w.frames[i] = &frame{s: make([]slot, len(d.p.image)), p: d.p}
		if maxPaths > 1 {
			w.frames[i].snap = make([]slot, len(d.p.image))
		}
	}
	return w
}

// release drops what the worker holds of the pass's shadows.
func (w *wgWorker) release() {
	clear(w.shs)
	w.shadow, w.ashadow, w.st.extra = nil, nil, nil
}

// wgMem zeroes the workgroup variables (and their shadows) for a new
// workgroup.
func (w *wgWorker) wgMem() {
	d, run := w.d, w.run
	run.forgetAnywhere()
	for i, g := range d.e.vars {
		if g.Space != ir.SpaceWorkgroup {
			continue
		}
		n := size(g.T)
		run.sticky[i] = 0
		if len(w.mem[i]) == 0 {
			w.mem[i] = make([]slot, n)
			if d.e.writes[i] {
				w.shadow[i] = make([]access, n)
			}
			if hasAtomic(g.T) {
				w.ashadow[i] = make([]access, n)
			}
			continue
		}
		clear(w.mem[i])
		for j := range w.shadow[i] {
			w.st.reset(&w.shadow[i][j])
		}
		for j := range w.ashadow[i] {
			w.st.reset(&w.ashadow[i][j])
		}
	}
}

// workgroup runs the workgroup wid, linear index wgLinear, to its end.
func (w *wgWorker) workgroup(ctx context.Context, wgLinear int32, wid [3]uint32, workgroups [3]uint32, limit int64, maxPaths int) error {
	d := w.d
	w.wgMem()
	w.ep = [2]uint32{}
	ws := d.entry.WorkgroupSize
	local := int32(len(w.frames))
	for li, fr := range w.frames {
		copy(fr.s, d.p.image)
		fr.ctx = ctx
		fr.start(limit)
		fr.stop, fr.err, fr.poison, fr.cause = false, nil, 0, 0
		fr.resume = 0
		lid := [3]uint32{uint32(li) % ws[0], uint32(li) / ws[0] % ws[1], uint32(li) / (ws[0] * ws[1])}
		gid := [3]uint32{wid[0]*ws[0] + lid[0], wid[1]*ws[1] + lid[1], wid[2]*ws[2] + lid[2]}
		w.shs[li] = invShared{mem: w.mem, shadow: w.shadow, ashadow: w.ashadow, inv: wgLinear*local + int32(li) + 1, wg: wgLinear, ep: &w.ep, races: &w.races, d: d, run: w.run, st: w.st, owner: w.owner}
		fr.sh = &w.shs[li]
		ids := computeIDs{lid: lid, wid: wid, gid: gid, nwg: workgroups, li: uint32(li)}
		for j, prm := range d.entry.Params {
			base := d.e.params[j].base
			if prm.Builtin != "" {
				ids.put(fr.s, base, prm.Builtin)
				continue
			}
			for fi, f := range prm.T.Struct.Fields {
				ids.put(fr.s, base+fieldOffset(prm.T, fi), f.Builtin)
			}
		}
	}
	return d.runWorkgroup(w.frames, &w.ep, w.run, maxPaths)
}

// computeIDs are an invocation's compute builtin values (WGSL
// #built-in-values).
type computeIDs struct {
	lid, wid, gid, nwg [3]uint32
	li                 uint32
}

// put stores the builtin named name into s from at.
func (ids *computeIDs) put(s []slot, at int32, name string) {
	var v []uint32
	switch name {
	case "local_invocation_id":
		v = ids.lid[:]
	case "workgroup_id":
		v = ids.wid[:]
	case "global_invocation_id":
		v = ids.gid[:]
	case "num_workgroups":
		v = ids.nwg[:]
	case "local_invocation_index":
		v = []uint32{ids.li}
	}
	for k, b := range v {
		s[at+int32(k)] = slot{bits: b}
	}
}

// runWorkgroup runs one workgroup's invocations to completion, barrier
// by barrier, each segment between barriers on every path its fork
// points allow (segment). An invocation whose rest is indeterminate
// (poisonRest) waits at no barrier.
func (d *Dispatch) runWorkgroup(frames []*frame, ep *[2]uint32, run *dispatchRun, maxPaths int) error {
	done := make([]bool, len(frames))
	for {
		var at uint32
		atInv, doneInv := -1, -1
		for i, fr := range frames {
			if done[i] {
				continue
			}
			k := d.segment(fr, run, maxPaths)
			if fr.err != nil {
				return fr.err
			}
			if k == cBarrier {
				if atInv < 0 {
					at, atInv = fr.barrier, i
				} else if fr.barrier != at {
					return d.nonUniform(frames, atInv, i)
				}
				continue
			}
			done[i] = true
			if fr.poison != 0 {
				if fr.sh.owner != nil {
					return errParallel // poisonRest writes every storage leaf: parallel.go
				}
				d.poisonRest(fr, run)
				continue
			}
			doneInv = i
		}
		if atInv < 0 {
			return nil
		}
		if doneInv >= 0 {
			return d.nonUniform(frames, atInv, doneInv)
		}
		switch {
		case at&(1<<31) != 0:
			ep[1]++
		case at&(1<<30) != 0: // textureBarrier: execution only
		default:
			ep[0]++
		}
	}
}

func (d *Dispatch) nonUniform(frames []*frame, a, b int) error {
	fa := frames[a]
	pos := d.p.positions[d.body[fa.resume-1].b]
	other := "finished"
	if fb := frames[b]; fb.resume > 0 && d.body[fb.resume-1].op == opBarrier && fb.barrier != fa.barrier {
		other = "is at the barrier at " + d.p.positions[d.body[fb.resume-1].b].String()
	}
	return &ir.Error{File: d.p.file, Pos: pos, Pass: "interp", Msg: fmt.Sprintf(
		"barrier reached by only some invocations of a workgroup: local invocation %d waits here while local invocation %d %s (WGSL #uniformity: a barrier must be in uniform control flow)", a, b, other)}
}

// checkShared checks v against a binding type: atomics take values of
// their element type, runtime-sized arrays any number of elements.
func checkShared(v ir.Value, t *ir.Type) error {
	switch t.Kind {
	case ir.KindAtomic:
		return checkShared(v, t.Elem)
	case ir.KindMat:
		return checkValue(v, t)
	case ir.KindRuntimeArray, ir.KindArray:
		if v.Type == nil || (v.Type.Kind != ir.KindRuntimeArray && v.Type.Kind != ir.KindArray) {
			return fmt.Errorf("has type %v, want %v", v.Type, t)
		}
		if t.Kind == ir.KindArray && len(v.Elems) != t.Len {
			return fmt.Errorf("value of %v has %d elements", t, len(v.Elems))
		}
		if t.Elem.IsScalar() {
			// A buffer of scalars, the common large binding: one loop
			// (checkValue's error for the first element that differs).
			for _, e := range v.Elems {
				if e.Type == nil || len(e.Elems) != 0 || !ir.Identical(e.Type, t.Elem) {
					return checkValue(e, t.Elem)
				}
			}
			return nil
		}
		for _, e := range v.Elems {
			if err := checkShared(e, t.Elem); err != nil {
				return err
			}
		}
		return nil
	case ir.KindStruct:
		if v.Type == nil || v.Type.Kind != ir.KindStruct || len(v.Elems) != len(t.Struct.Fields) {
			return fmt.Errorf("has type %v, want %v", v.Type, t)
		}
		for i, f := range t.Struct.Fields {
			if err := checkShared(v.Elems[i], f.Type); err != nil {
				return fmt.Errorf("member %s: %v", f.Name, err)
			}
		}
		return nil
	}
	return checkValue(v, t)
}

// flattenValue appends the bits of v's leaves to s (a bool as 0 or 1).
func flattenValue(v ir.Value, s []uint32) []uint32 {
	if v.Type != nil && v.Type.Elem != nil && (v.Type.Kind == ir.KindArray || v.Type.Kind == ir.KindRuntimeArray) && v.Type.Elem.IsScalar() {
		// An array of scalars (checked: checkShared): one loop.
		isBool := v.Type.Elem.Kind == ir.KindBool
		for _, e := range v.Elems {
			b := e.Bits
			if isBool && b != 0 {
				b = 1
			}
			s = append(s, b)
		}
		return s
	}
	if v.Elems == nil && v.Type != nil && v.Type.IsScalar() {
		b := v.Bits
		if v.Type.Kind == ir.KindBool && b != 0 {
			b = 1
		}
		return append(s, b)
	}
	for _, e := range v.Elems {
		s = flattenValue(e, s)
	}
	return s
}

// countLeaves returns the number of scalar leaves of v.
func countLeaves(v ir.Value) int {
	if v.Type != nil && v.Type.Elem != nil && (v.Type.Kind == ir.KindArray || v.Type.Kind == ir.KindRuntimeArray) && v.Type.Elem.IsScalar() {
		return len(v.Elems)
	}
	if v.Elems == nil {
		return 1
	}
	n := 0
	for _, e := range v.Elems {
		n += countLeaves(e)
	}
	return n
}

// unchanged returns the caller's value of binding i when the dispatch
// left the binding exact and unchanged and that value has the output's
// type (no atomics; a runtime-sized array given as one): the output then
// shares it rather than copying it (an ir.Value is never modified).
func (d *Dispatch) unchanged(run *dispatchRun, i int, mem []slot) (ir.Value, bool) {
	g := d.e.vars[i]
	v := run.given[i]
	if v.Type == nil || d.e.writes[i] || hasAtomic(g.T) || !ir.Identical(v.Type, g.T) {
		return ir.Value{}, false
	}
	if d.e.readOnly[i] {
		return v, true // its memory is the initial leaves themselves
	}
	for j, s := range mem {
		if s != (slot{bits: run.initial[i][j]}) {
			return ir.Value{}, false
		}
	}
	return v, true
}

// sharedOutput converts a binding's final memory to an Output (atomics
// as their element type, a runtime-sized array by its length).
func sharedOutput(p *Program, run *dispatchRun, t *ir.Type, mem []slot) Output {
	pos := 0
	v := buildShared(t, mem, &pos)
	out := Output{Value: v}
	for i := range mem {
		if mem[i].why == 0 {
			continue
		}
		if out.Indeterminate == nil {
			out.Indeterminate = make([]bool, len(mem))
			out.Tolerance = make([]float64, len(mem))
		}
		out.Indeterminate[i] = mem[i].why < 0
		out.Tolerance[i] = mem[i].err
		if mem[i].why < 0 && mem[i].set != 0 {
			if out.Allowed == nil {
				out.Allowed = make([]ir.ValueSet, len(mem))
			}
			out.Allowed[i] = run.set(mem[i].set)
		}
		if out.Why == "" {
			out.Why = p.reasonText(mem[i].why)
		}
	}
	return out
}

func buildShared(t *ir.Type, s []slot, pos *int) ir.Value {
	switch t.Kind {
	case ir.KindAtomic:
		return buildShared(t.Elem, s, pos)
	case ir.KindRuntimeArray:
		n := size(t.Elem)
		var es []ir.Value
		if t.Elem.IsScalar() {
			// A buffer of scalars, the common large binding: one loop.
			es = make([]ir.Value, len(s)-*pos)
			for i := range es {
				es[i] = ir.Value{Type: t.Elem, Bits: s[*pos+i].bits}
			}
			*pos = len(s)
			return ir.Value{Type: t, Elems: es}
		}
		if n > 0 {
			es = make([]ir.Value, 0, (len(s)-*pos)/int(n))
		}
		for n > 0 && *pos+int(n) <= len(s) {
			es = append(es, buildShared(t.Elem, s, pos))
		}
		return ir.Value{Type: t, Elems: es}
	case ir.KindArray, ir.KindMat:
		es := make([]ir.Value, t.Len)
		for i := range es {
			es[i] = buildShared(t.Elem, s, pos)
		}
		return ir.Value{Type: t, Elems: es}
	case ir.KindStruct:
		es := make([]ir.Value, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			es[i] = buildShared(f.Type, s, pos)
		}
		return ir.Value{Type: t, Elems: es}
	}
	return buildValue(t, s, pos)
}

// SortRaces orders races by variable and leaf (for stable reports).
func SortRaces(rs []Race) {
	sort.Slice(rs, func(i, j int) bool {
		if rs[i].Var != rs[j].Var {
			return rs[i].Var < rs[j].Var
		}
		return rs[i].Slot < rs[j].Slot
	})
}

// RunBuffers is Run with the bindings given as, and their final contents
// returned as, buffers (ir.Buffer: the bytes of each binding's
// host-shareable layout, WGSL #memory-layouts): every Output of the
// result has Buffer set and Value zero; Indeterminate, Tolerance and
// Allowed index its leaves as before. A missing binding starts zeroed.
// Errors are Run's, and a buffer shorter than its type's fixed part.
func (d *Dispatch) RunBuffers(buffers map[string]ir.Buffer, workgroups [3]uint32, opts Options) (*DispatchResult, error) {
	vals := make(map[string]ir.Value, len(buffers))
	for name, b := range buffers {
		v, err := b.Value()
		if err != nil {
			pos := d.entry.Pos
			if g, ok := d.e.ids[name]; ok {
				pos = d.e.vars[g].Pos
			}
			return nil, &ir.Error{File: d.p.file, Pos: pos, Pass: "interp", Msg: fmt.Sprintf("binding %s: %v", name, err)}
		}
		vals[name] = v
	}
	res, err := d.Run(vals, workgroups, opts)
	if err != nil {
		return nil, err
	}
	for name, o := range res.Buffers {
		g := d.e.vars[d.e.ids[name]]
		b, err := ir.NewBuffer(g.T, o.Value)
		if err != nil {
			return nil, &ir.Error{File: d.p.file, Pos: g.Pos, Pass: "interp", Msg: fmt.Sprintf("internal error: binding %s: %v", name, err)}
		}
		o.Buffer, o.Value = b, ir.Value{}
		res.Buffers[name] = o
	}
	return res, nil
}
