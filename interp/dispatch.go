package interp

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unsafe"

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
// storage and uniform buffers are per dispatch, 4 bytes a leaf
// (memory.go), plus an 8-byte race shadow word per location of a
// written one (shadow.go). Every non-atomic access
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
// noticed, and the first is reported. A load through an invalid
// reference (an index out of bounds or indeterminate; WGSL
// #out-of-bounds-access-sec lets it access any location of its
// variable) is checked on the location of its clamped index, and a race
// it is in names the index the invocation computed and the array's bound
// (Race.AOOB, BOOB; shadow.go: oobKey); a store through one is not
// checked (storeAnywhere makes the whole variable indeterminate).

// entryInfo is the compile-time state of an entry point.
type entryInfo struct {
	f      *ir.Func
	ids    map[string]int // shared var name → index in Dispatch.vars
	vars   []*ir.SharedVar
	race   []int32 // per shared var: the reason id of a race on it
	params []varInfo
	writes []bool // per shared var: the entry point's call graph stores to it (or an atomic writes it)
	// readOnly, per shared var: a storage or uniform binding without
	// atomics that nothing writes. Its memory is the caller's bytes
	// (dispatchRun.initial), never copied.
	readOnly []bool
	// owned, per shared var: an owned binding at compile time (owned.go;
	// dispatchRun.owned says whether it is in a dispatch).
	owned      []bool
	ownedField []int // per owned var: the member whose array it indexes (-1: the var itself)
	// layout, per shared var: where its leaves lie in a binding's bytes
	// and their kinds (memory.go).
	layout []*leafMap
	// parallel: no storage binding has atomics (each atomic there would
	// abandon a parallel pass: parallel.go), so a first pass may try.
	parallel bool
	rest     int32 // reason id: an invocation whose rest is indeterminate
	// oobSites lists the run-time indices into shared memory (oobFact's
	// site); badPos holds the reason ids an access through an invalid
	// reference is race-checked with (shadow.go: oobKey).
	oobSites []oobSite
	badPos   map[int32]bool
	// sg is the entry point's subgroup call sites (subgroup.go); nil
	// when its call graph calls no subgroup builtin.
	sg *sgInfo
}

// oobSite is a run-time index into shared memory: the array it indexes,
// as written, and whether the index is an i32.
type oobSite struct {
	array  string
	signed bool
}

// Dispatch is a compute entry point compiled for dispatches. It is
// immutable; Run may be called concurrently.
type Dispatch struct {
	p     *Program
	e     *entryInfo
	body  vcode
	entry *ir.Func
	m     *ir.Module // for its textures (texture.go)
}

// invShared is the shared state an invocation sees: the memory of every
// shared var (workgroup vars: its workgroup's), the race shadows, and
// its identity.
type invShared struct {
	mem     []*cells
	shadow  []*varShadow
	inv     int32 // linear invocation index in the dispatch, + 1
	wg      int32 // linear workgroup index
	ep      *[2]uint32
	races   *[]Race
	oob     oobFact               // the access being made's, when its reference is invalid (sref.fn)
	ashadow []*varShadow          // the contention shadow of atomic locations (segment.go)
	st      *shadowTab            // the worker's shadow records and extra reads (shadow.go)
	own     map[scopeKey][2]int64 // the invocation's own atomic deltas per assumed scope (segment.go)
	d       *Dispatch
	run     *dispatchRun
	par     bool // a parallel pass: storage shadows are claims (parallel.go)
	// The invocation's subgroup (subgroup.go): its index in the
	// dispatch's subgroup state (workgroup·perWG + subgroup), its
	// subgroup_invocation_id and its subgroup's ids; the key being built;
	// the logs made in a segment that may fork and the path running
	// (subgroup_run.go: sgForked).
	sgG       int32
	sgID      int32
	sgMembers sgMask
	sgKey     []byte
	sgSeen    map[*sgLog]*sgSeen
	sgPath    int32
}

// Race is a data race the dispatch found.
type Race struct {
	// Var is the shared variable; Slot the leaf's index in it (in
	// ir.Type.ComponentTypes order, runtime-sized arrays by their given
	// length).
	Var  string
	Slot int
	// A and B are the two accesses, "file:line:col: read|write by
	// invocation N (workgroup W)" (the file when the module has one),
	// followed, for an access through an invalid reference, by its index
	// (OOBAccess.Text).
	A, B string
	// AOOB and BOOB are set when access A (B) was through an invalid
	// memory reference: an index out of bounds (or indeterminate). WGSL
	// lets such an access land on any location of the variable
	// (#out-of-bounds-access-sec), so it races with every write to the
	// variable that no barrier orders with it — the shader's own
	// defect, which the reference checks on the location of the clamped
	// index (the race's leaf); String then says so.
	AOOB, BOOB *OOBAccess
}

// OOBAccess is a racing access through an invalid memory reference.
type OOBAccess struct {
	Invocation int  // linear index in the dispatch
	Write      bool // a store (else a load)
	// Array is the array indexed out of bounds, as written ("sdata",
	// "b.data", "m[j]"); Index the index the invocation computed there
	// (a u32's value, or an i32's), Bound the array's element count.
	// Indeterminate: the index was indeterminate (Index is the
	// reference's value for it, which may be in bounds). Unknown: the
	// index was not recorded (past the reference's bound on them; the
	// other fields but Invocation and Write are zero).
	Array         string
	Index         int64
	Bound         int
	Indeterminate bool
	Unknown       bool
}

// Text describes the access's index, as the race's A or B ends:
// "out of bounds: index 4294967295 (0xffffffff, -1 wrapped) of sdata's
// 128 elements".
func (o *OOBAccess) Text() string {
	switch {
	case o.Unknown:
		return "out of bounds, or through an indeterminate index (not recorded)"
	case o.Indeterminate:
		return fmt.Sprintf("through an indeterminate index (%d as the reference computed it) into %s's %d elements", o.Index, o.Array, o.Bound)
	}
	idx := fmt.Sprint(o.Index)
	if o.Index >= 1<<31 {
		idx += fmt.Sprintf(" (%#x, %d wrapped)", o.Index, o.Index-1<<32)
	}
	return fmt.Sprintf("out of bounds: index %s of %s's %d elements", idx, o.Array, o.Bound)
}

func (r Race) String() string {
	s := fmt.Sprintf("data race on %s (leaf %d): %s, and %s", r.Var, r.Slot, r.A, r.B)
	o := r.AOOB
	if o == nil {
		o = r.BOOB
	}
	if o == nil {
		return s
	}
	kind, other := "load", "write"
	if o.Write {
		kind, other = "store", "access"
	}
	if r.AOOB != nil && r.BOOB != nil && r.AOOB.Write != r.BOOB.Write {
		kind = "access"
	}
	may := ""
	if o.Indeterminate || o.Unknown {
		may = "an indeterminate index may be out of bounds, and "
	}
	return s + fmt.Sprintf("; %sWGSL lets an out-of-bounds %s access any location of %s (#out-of-bounds-access-sec), so it races with every %s to %s that no barrier orders with it: a defect of the shader (the reference checks it at the clamped index)", may, kind, r.Var, other, r.Var)
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
	// (ir.InlineBarriers; the positions stay the helpers'). So do
	// subgroup calls (ir.InlineCollectives), whose loops then get their
	// iteration counters (subgroup.go).
	inline := ir.InlineBarriers
	subgroups := hasSubgroupCall(f.Body)
	for _, g := range m.CallGraph(name) {
		subgroups = subgroups || hasSubgroupCall(g.Body)
	}
	if subgroups {
		inline = ir.InlineCollectives
	}
	if in := inline(m, name); in != m {
		if err := ir.Verify(in); err != nil {
			return nil, &ir.Error{File: m.File, Pos: f.Pos, Pass: "interp", Msg: "internal error: the entry point with its barrier and subgroup calls inlined does not verify: " + err.Error()}
		}
		m = in
	}
	var sg *sgInfo
	if subgroups {
		var pm *ir.Module
		pm, sg = prepareSubgroups(m, name)
		if err := ir.Verify(pm); err != nil {
			return nil, &ir.Error{File: m.File, Pos: f.Pos, Pass: "interp", Msg: "internal error: the entry point with its subgroup loop counters does not verify: " + err.Error()}
		}
		m = pm
	}
	f = m.Func(name)
	e := &entryInfo{f: f, ids: map[string]int{}, sg: sg}
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
	e.owned, e.ownedField = ownedVars(m, f, e.vars, e.ids)
	for i := range e.owned {
		e.owned[i] = e.owned[i] && e.writes[i]
	}
	e.parallel = true
	for i, g := range e.vars {
		e.readOnly = append(e.readOnly, g.Space != ir.SpaceWorkgroup && !e.writes[i] && !hasAtomic(g.T))
		e.layout = append(e.layout, newLeafMap(g.T, g.Space != ir.SpaceWorkgroup))
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
		if !c.opts.countOps {
			fuse(body, c.p.tables)
		}
		c.out, c.targets = out, targets
		e.params = info.params
		c.funcs[fn.Name] = info
	}
	vbody := c.verified(body)
	if len(c.errs) > 0 {
		return nil, c.errs.Err()
	}
	c.p.image = c.image
	return &Dispatch{p: c.p, e: e, body: vbody, entry: f, m: m}, nil
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
		idcode, il := c.verified(idx.code), idx.loc
		signed := e.Index.Type().Kind == ir.KindI32
		ln := int32(xt.Len)
		runtime := xt.Kind == ir.KindRuntimeArray
		c.entry.oobSites = append(c.entry.oobSites, oobSite{array: nodeText(e.X), signed: signed})
		site := int32(len(c.entry.oobSites))
		r.fn = func(fr *frame) (int32, bool) {
			off, bad := base, false
			var first oobFact // the chain's first invalid index, kept across this one's code
			if prev != nil {
				if off, bad = prev(fr); bad {
					first = fr.sh.oob
				}
			}
			idcode.run(fr)
			n := ln
			if runtime {
				n = (fr.sh.leaves(id) - off) / max(esz, 1)
			}
			is := fr.s[il]
			if n <= 0 {
				if !bad {
					first = oobFact{site: site, bits: is.bits, indet: is.why < 0}
				}
				fr.sh.oob = first
				return off, true
			}
			k, ok := clampIndex(is.bits, signed, n)
			if bad {
				fr.sh.oob = first
			} else if !ok || is.why < 0 {
				fr.sh.oob = oobFact{site: site, bits: is.bits, bound: n, indet: is.why < 0}
				bad = true
			}
			return off + k*esz, bad
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
	badID := c.badPos(e.Position(), rOOBRead, e, "read")
	id := r.id
	ro := c.entry.readOnly[id]
	fn := func(fr *frame) {
		off, bad := r.at(fr)
		if !fr.sh.mayAccess(id, off, n, bad) {
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
		pos := posID
		if bad {
			pos = badID
			fr.sh.noteOOB(id, pos)
		}
		if ro {
			init := &fr.sh.run.initial[id]
			for j := int32(0); j < n; j++ {
				fr.s[d+j] = slot{bits: init.at(off + j)}
			}
		} else {
			mem := fr.sh.mem[id]
			for j := int32(0); j < n; j++ {
				fr.s[d+j] = mem.get(off + j)
			}
		}
		for j := int32(0); j < n; j++ {
			fr.sh.load(int32(id), off+j, &fr.s[d+j], pos, race)
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
	loadBad := c.badPos(s.LHS.Position(), rOOBRead, s.LHS, "read")
	cd, src := c.verified(v.code), v.loc
	stops := r.stops || v.stops
	return cstmt{run: func(fr *frame) ctl {
		off, bad := r.at(fr)
		if !fr.sh.mayAccess(id, off, n, bad) {
			fr.abandon()
			return cAbort
		}
		if tmp >= 0 {
			mem := fr.sh.mem[id]
			pos := loadID
			if bad && off+n <= mem.n() {
				pos = loadBad
				fr.sh.noteOOB(id, pos)
			}
			for j := int32(0); j < n; j++ {
				if off+n > mem.n() {
					fr.s[tmp+j] = slot{why: loadOOB}
					continue
				}
				fr.s[tmp+j] = mem.get(off + j)
				fr.sh.load(int32(id), off+j, &fr.s[tmp+j], pos, race)
				if bad {
					fr.s[tmp+j].taint(loadOOB)
				}
			}
		}
		cd.run(fr)
		if stops && fr.stop {
			return cAbort
		}
		if off+n > fr.sh.mem[id].n() {
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
		if storage && sh.par {
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
		if off >= mem.n() || bad {
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
		old := mem.get(off)
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
	vs := sh.shadow[id]
	if vs == nil || int(off) >= vs.len() {
		return false
	}
	a := sh.st.at(vs, int32(id), off, false, sh.wg, sh.par)
	if a == nil {
		return false // a parallel pass's foreign location: claim abandoned it first
	}
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
	desc := func(t accessTag, w bool) (string, *OOBAccess) {
		kind := "read"
		if w {
			kind = "write"
		}
		rs := sh.d.p.reasons[t.pos-1]
		at := rs.pos.String()
		if f := sh.d.p.file; f != "" {
			at = f + ":" + at
		}
		s := fmt.Sprintf("%s: %s by invocation %d (workgroup %d)", at, kind, t.inv-1, sh.st.wg(t))
		o := sh.oobAccess(id, t, w, t == me)
		if o != nil {
			s += ", " + o.Text()
		}
		return s, o
	}
	r := Race{Var: sh.d.e.vars[id].Name, Slot: int(off)}
	r.A, r.AOOB = desc(prev, prevWrite)
	r.B, r.BOOB = desc(me, write)
	*sh.races = append(*sh.races, r)
}

// badPos adds the reason an access through an invalid reference at pos
// is race-checked with (as addReason) and returns its id.
func (c *compiler) badPos(pos ir.Pos, kind rkind, node ir.Node, what string) int32 {
	id := c.addReason(pos, kind, node, what)
	if c.entry.badPos == nil {
		c.entry.badPos = map[int32]bool{}
	}
	c.entry.badPos[id] = true
	return id
}

// noteOOB records the index of the access being made (sh.oob), whose
// reference is invalid, for the race reports of later accesses
// (shadow.go: oobKey); pos is its bad reason id. A variable without a
// race shadow cannot race.
func (sh *invShared) noteOOB(id int, pos int32) {
	if sh.shadow[id] == nil {
		return
	}
	space := 1
	if sh.d.e.vars[id].Space == ir.SpaceWorkgroup {
		space = 0
	}
	sh.st.noteOOB(oobKey{id: int32(id), inv: sh.inv, pos: pos}, sh.oob, sh.ep[space])
}

// oobAccess describes access t (a write when w; cur: the access being
// made) to var id when it was through an invalid reference, else nil.
func (sh *invShared) oobAccess(id int, t accessTag, w, cur bool) *OOBAccess {
	if !sh.d.e.badPos[t.pos] {
		return nil
	}
	o := &OOBAccess{Invocation: int(t.inv - 1), Write: w}
	f, ok := sh.oob, cur
	if !cur {
		f, ok = sh.st.oob[oobKey{id: int32(id), inv: t.inv, pos: t.pos}]
	}
	if !ok || f.site == 0 {
		o.Unknown = true
		return o
	}
	s := sh.d.e.oobSites[f.site-1]
	o.Array, o.Bound, o.Indeterminate = s.array, int(f.bound), f.indet
	o.Index = int64(f.bits)
	if s.signed {
		o.Index = int64(int32(f.bits))
	}
	return o
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
// Subgroup builtins run over opts' partition (Options.Subgroups,
// SubgroupSize; subgroup.go); a leaf that depends on one called in
// non-uniform control flow is marked in Output.Reconvergence.
//
// Run is RunBuffers for callers that hold values: each value is laid out
// as its binding's bytes (ir.BindingBytes), and each binding's final
// memory decoded back into Output.Value (Output.Buffer stays zero).
func (d *Dispatch) Run(buffers map[string]ir.Value, workgroups [3]uint32, opts Options) (*DispatchResult, error) {
	file := d.p.file
	in := make([]bindingIn, len(d.e.vars))
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
		b, err := ir.BindingBytes(g.T, v)
		if err != nil {
			return nil, &ir.Error{File: file, Pos: g.Pos, Pass: "interp", Msg: fmt.Sprintf("binding %s: %v", g.Name, err)}
		}
		// The value's leaves (its runtime-sized array's length), not as
		// many as the padded bytes could hold.
		in[i] = bindingIn{b: b, n: int32(min(countLeaves(v), d.e.layout[i].count(len(b))))}
	}
	if err := knownBindings(d, buffers); err != nil {
		return nil, err
	}
	r, err := d.run(in, workgroups, opts)
	if err != nil {
		return nil, err
	}
	res := &DispatchResult{Buffers: map[string]Output{}, Races: r.races, Textures: r.tex}
	for i, g := range d.e.vars {
		if g.Space == ir.SpaceWorkgroup {
			continue
		}
		out := r.output(d, i)
		if v := buffers[g.Name]; r.mem[i] == nil && v.Type != nil && ir.Identical(v.Type, g.T) {
			out.Value = v // unchanged: the caller's own value (an ir.Value is never modified)
		} else {
			pos := 0
			out.Value = buildShared(g.T, r.bitsOf(i), int(r.leaves(i)), &pos)
		}
		res.Buffers[g.Name] = out
	}
	return res, nil
}

// RunBuffers dispatches workgroups[0] × workgroups[1] × workgroups[2]
// workgroups with every storage and uniform binding given as its
// buffer's bytes (ir.Buffer: the host-shareable layout, WGSL
// #memory-layouts; a runtime-sized array holds as many elements as fit),
// by variable name; a missing binding starts zeroed (ir.ZeroBuffer). The
// dispatch's memory is built straight from the bytes, 4 bytes a leaf: a
// binding nothing writes is read from the caller's bytes themselves, a
// written one copied once (memory.go).
//
// Every Output of the result has Buffer set and Value zero; its
// Indeterminate, Tolerance and Allowed index the buffer's leaves
// (ir.Buffer.Leaf) and are nil when every leaf is exact and determinate.
// A written binding's Buffer has bytes of its own, as long as the input's
// (padding copied); a binding the entry point never writes (no store, no
// atomic) shares the caller's bytes, unchanged. Errors are Run's: a
// buffer of another layout than its binding's type, or shorter than the
// type's fixed part, an unknown binding name, the invocation count,
// textures, and an invocation's failure.
func (d *Dispatch) RunBuffers(buffers map[string]ir.Buffer, workgroups [3]uint32, opts Options) (*DispatchResult, error) {
	file := d.p.file
	in := make([]bindingIn, len(d.e.vars))
	for i, g := range d.e.vars {
		if g.Space == ir.SpaceWorkgroup {
			continue
		}
		b, ok := buffers[g.Name]
		if !ok {
			b = ir.ZeroBuffer(g.T)
		}
		if b.Type != nil && b.Type != g.T && !ir.Identical(b.Type, g.T) && !newLeafMap(b.Type, true).sameLayout(d.e.layout[i]) {
			return nil, &ir.Error{File: file, Pos: g.Pos, Pass: "interp", Msg: fmt.Sprintf("binding %s: a buffer of type %v, want %v", g.Name, b.Type, g.T)}
		}
		if need := ir.SizeOf(g.T); len(b.Bytes) < need {
			return nil, &ir.Error{File: file, Pos: g.Pos, Pass: "interp", Msg: fmt.Sprintf("binding %s: %d bytes, want at least %d (the fixed part of %v)", g.Name, len(b.Bytes), need, g.T)}
		}
		in[i] = bindingIn{b: b.Bytes, n: int32(d.e.layout[i].count(len(b.Bytes)))}
	}
	if err := knownBindings(d, buffers); err != nil {
		return nil, err
	}
	r, err := d.run(in, workgroups, opts)
	if err != nil {
		return nil, err
	}
	res := &DispatchResult{Buffers: map[string]Output{}, Races: r.races, Textures: r.tex}
	for i, g := range d.e.vars {
		if g.Space == ir.SpaceWorkgroup {
			continue
		}
		out := r.output(d, i)
		b := in[i].b
		if c := r.mem[i]; c != nil {
			m := d.e.layout[i]
			if m.dense && littleEndian && len(c.bits) > 0 && len(b) == 4*len(c.bits) {
				// Leaf j at byte 4j, nothing else in the buffer: the
				// final bits are the bytes (a little-endian host), and
				// the cells, done with, become the output without a
				// serial copy of the whole binding (issue 26: at 1M
				// leaves the copy and its page faults were a tenth of
				// the parallel dispatch's wall time).
				out.Buffer = ir.Buffer{Type: g.T, Bytes: unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(c.bits))), 4*len(c.bits))}
				res.Buffers[g.Name] = out
				continue
			}
			b = slices.Clone(b)
			if m.dense {
				for j, v := range c.bits {
					binary.LittleEndian.PutUint32(b[4*j:], v)
				}
			} else {
				for j, v := range c.bits {
					m.put(b, int32(j), v)
				}
			}
		}
		out.Buffer = ir.Buffer{Type: g.T, Bytes: b}
		res.Buffers[g.Name] = out
	}
	return res, nil
}

// littleEndian reports whether the host stores a uint32 little-endian,
// the byte order of WebGPU buffers (ir.Buffer).
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// knownBindings fails for a name of m that is not a storage or uniform
// binding of d's module (the first such name in sorted order).
func knownBindings[V any](d *Dispatch, m map[string]V) error {
	var bad []string
	for name := range m {
		if g, ok := d.e.ids[name]; !ok || d.e.vars[g].Space == ir.SpaceWorkgroup {
			bad = append(bad, name)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	slices.Sort(bad)
	return &ir.Error{File: d.p.file, Pos: d.entry.Pos, Pass: "interp", Msg: fmt.Sprintf("no storage or uniform binding named %s", bad[0])}
}

// bindingIn is a storage or uniform binding's initial contents: its
// bytes in the host-shareable layout, and how many leaves the dispatch
// sees in them.
type bindingIn struct {
	b []byte
	n int32
}

// runOut is what a dispatch leaves: each storage or uniform binding's
// final memory (nil: a read-only binding, its initial bytes), the
// reason every leaf of a binding is any value (anyWhy: the passes did not
// settle), the races and the textures.
type runOut struct {
	mem    []*cells
	anyWhy []string
	run    *dispatchRun
	races  []Race
	tex    map[string]TextureOutput
	// reconv, per shared var (nil: none), marks the leaves that depend
	// on a subgroup result in non-uniform control flow, reconvWhy names
	// the call (subgroup_reconv.go).
	reconv    [][]bool
	reconvWhy string
}

// leaves returns the number of leaves of binding i.
func (r *runOut) leaves(i int) int32 {
	if r.mem[i] != nil {
		return r.mem[i].n()
	}
	return r.run.initial[i].n
}

// bitsOf returns a reader of binding i's final leaves.
func (r *runOut) bitsOf(i int) func(int) uint32 {
	if c := r.mem[i]; c != nil {
		return func(j int) uint32 { return c.bits[j] }
	}
	v := &r.run.initial[i]
	return func(j int) uint32 { return v.at(int32(j)) }
}

// output returns binding i's per-leaf indeterminacy, tolerance and
// allowed sets (nil when every leaf is exact and determinate; Tolerance
// nil when every leaf's is 0) and the first reason.
func (r *runOut) output(d *Dispatch, i int) (out Output) {
	n := int(r.leaves(i))
	defer func() {
		if r.reconv != nil && r.reconv[i] != nil {
			out.Reconvergence = r.reconv[i]
			if out.Why == "" {
				out.Why = r.reconvWhy
			} else {
				out.Why += "; " + r.reconvWhy
			}
		}
	}()
	if r.anyWhy != nil && r.anyWhy[i] != "" {
		out.Indeterminate = make([]bool, n)
		for j := range out.Indeterminate {
			out.Indeterminate[j] = true
		}
		out.Why = r.anyWhy[i]
		return out
	}
	c := r.mem[i]
	if c == nil {
		return out
	}
	for pi := range c.pages {
		p := c.pages[pi].Load()
		if p == nil {
			continue
		}
		for k := range p.e {
			j := pi<<extPageBits + k
			e := slot{why: p.e[k].why, err: p.e[k].err}
			if j >= n || e.why == 0 {
				continue
			}
			if out.Indeterminate == nil {
				out.Indeterminate = make([]bool, n)
			}
			out.Indeterminate[j] = e.why < 0
			if tol := e.tol(); tol != 0 {
				if out.Tolerance == nil {
					out.Tolerance = make([]float64, n)
				}
				out.Tolerance[j] = tol
			}
			if id := e.setID(); id != 0 {
				if out.Allowed == nil {
					out.Allowed = make([]ir.ValueSet, n)
				}
				out.Allowed[j] = r.run.set(id)
			}
			if out.Why == "" {
				out.Why = d.p.reasonText(e.why)
			}
		}
	}
	return out
}

// run dispatches with the bindings in (per shared var; a workgroup
// var's entry is unused), pass after pass until what a pass observes of
// races and contended atomics stays within what it assumed (segment.go)
// and the subgroup operands settle (subgroup.go); when it ran a subgroup
// call in non-uniform control flow, again with those calls' results
// indeterminate, to mark the leaves that depend on them (runOut.reconv).
func (d *Dispatch) run(in []bindingIn, workgroups [3]uint32, opts Options) (*runOut, error) {
	out, err := d.runOnce(in, workgroups, opts, false)
	if err != nil || out.run.sg == nil {
		return out, err
	}
	var hit []*sgSite
	for i := range out.run.sg.hit {
		if out.run.sg.hit[i].Load() {
			hit = append(hit, out.run.sg.info.order[i])
		}
	}
	if len(hit) == 0 {
		return out, nil
	}
	t, err := d.runOnce(in, workgroups, opts, true)
	if err != nil {
		return nil, err
	}
	d.markReconvergence(out, t, hit)
	return out, nil
}

// runOnce is run without the reconvergence marks: the main run, or
// (taint) the one where every subgroup result in non-uniform control
// flow is any value.
func (d *Dispatch) runOnce(in []bindingIn, workgroups [3]uint32, opts Options, taint bool) (*runOut, error) {
	limit := opts.MaxSteps
	if limit <= 0 {
		limit = DefaultMaxSteps
	}
	file := d.p.file
	ws := d.entry.WorkgroupSize
	local := int(ws[0] * ws[1] * ws[2])
	total := uint64(workgroups[0]) * uint64(workgroups[1]) * uint64(workgroups[2]) * uint64(local)
	if total == 0 || total > 1<<26 {
		return nil, &ir.Error{File: file, Pos: d.entry.StagePos, Pass: "interp", Msg: fmt.Sprintf("dispatch of %d invocations (want 1 to %d)", total, 1<<26)}
	}
	run := newDispatchRun(len(d.e.vars))
	// The partition matters only to an entry point that uses subgroups
	// (its Options are not checked otherwise).
	part := &SubgroupPartition{size: DefaultSubgroupSize}
	if d.m.UsesSubgroups(d.entry.Name) {
		var err error
		if part, err = opts.partition(local, total/uint64(local)); err != nil {
			return nil, &ir.Error{File: file, Pos: d.entry.Pos, Pass: "interp", Msg: err.Error()}
		}
	}
	run.part = part
	run.sg = d.newSubgroups(part, workgroups, taint)
	if len(d.m.Textures) > 0 {
		tex, err := newTexState(d.m, d.entry.Name, opts.Textures, opts.Samplers)
		if err != nil {
			return nil, &ir.Error{File: file, Pos: d.entry.Pos, Pass: "interp", Msg: err.Error()}
		}
		run.tex = tex
	}
	run.initial = make([]leafView, len(d.e.vars))
	for i, g := range d.e.vars {
		if g.Space != ir.SpaceWorkgroup {
			run.initial[i] = leafView{b: in[i].b, m: d.e.layout[i], n: in[i].n}
		}
	}
	run.layout = d.e.layout
	run.owned = d.ownedFor(workgroups, func(i int) int32 { return run.initial[i].n })
	passes := maxPasses
	if run.sg != nil {
		passes += maxSubgroupPasses
	}
	for pass := 1; ; pass++ {
		paths := opts.maxPaths()
		if run.sg != nil && run.sg.prev == nil {
			// The first pass of a subgroup dispatch never settles (its
			// subgroup results are any value: subgroup.go), so it does
			// not explore the forks they cause: a fork point ends the
			// invocation (poisonRest) at once, which costs the next pass
			// nothing it would not recompute.
			paths = 1
		}
		out, err := d.runPass(opts.Context, workgroups, limit, paths, opts.workers(), run)
		if err != nil {
			return nil, err
		}
		// A pass whose subgroup operands have not settled ran on results
		// that may be wrong (any value before the fixed point: an
		// index, a branch): what it observed of races and atomics is
		// not folded into the assumptions (next drops it). The last pass
		// settled both.
		if run.sg != nil && run.sg.overflow.Load() {
			// Too many subgroup operations to log (subgroup_run.go).
			out.anyWhy = make([]string, len(d.e.vars))
			for i, g := range d.e.vars {
				if g.Space != ir.SpaceWorkgroup && d.e.writes[i] {
					out.anyWhy[i] = fmt.Sprintf("%s: the shader's subgroup operations log more than %d operands in a pass, past the reference's bound (interp/subgroup_run.go)", d.entry.Pos, maxSubgroupLogSlots)
				}
			}
			return out, nil
		}
		sgOK := run.sg.settled()
		racesOK := sgOK && run.settled()
		if racesOK && sgOK {
			return out, nil
		}
		if pass == passes {
			// The races or contended atomics keep changing what the
			// invocations do, or the subgroup operands do not settle:
			// every writable binding is any value.
			why := fmt.Sprintf("%s: the shader's races or concurrent atomics change its behaviour from run to run (%d passes of the reference)", d.entry.Pos, pass)
			if !sgOK {
				why = fmt.Sprintf("%s: the operands of the shader's subgroup operations did not settle within %d passes of the reference (interp/subgroup.go)", d.entry.Pos, pass)
			}
			out.anyWhy = make([]string, len(d.e.vars))
			for i, g := range d.e.vars {
				if g.Space != ir.SpaceWorkgroup && d.e.writes[i] {
					out.anyWhy[i] = why
				}
			}
			return out, nil
		}
		run.next()
	}
}

// runPass runs the dispatch once from the initial memory, with what
// run assumes of races and contended atomics: on the first pass with
// several workers (or a later one of an entry point with subgroup calls,
// which needs several passes, while nothing is assumed of races and
// atomics), workgroups in parallel when that is certain to give what
// the sequential run gives (parallel.go), else workgroup after
// workgroup.
func (d *Dispatch) runPass(ctx context.Context, workgroups [3]uint32, limit int64, maxPaths, workers int, run *dispatchRun) (*runOut, error) {
	if run.tex != nil {
		run.tex.reset()
	}
	run.forgetAnywhere()
	run.sg.beginPass()
	mem, shadow, ashadow := d.passMemory(run)
	var races []Race
	done := false
	if workers > 1 && d.e.parallel && (run.racy == nil || run.sg != nil && len(run.racy) == 0 && len(run.atomic) == 0) && run.tex == nil && uint64(workgroups[0])*uint64(workgroups[1])*uint64(workgroups[2]) > 1 {
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
			run.sg.beginPass()
			mem, shadow, ashadow = nil, nil, nil
			mem, shadow, ashadow = d.passMemory(run)
		}
	}
	sequential := func() error {
		w := d.newWorker(run, mem, shadow, ashadow, maxPaths, false)
		defer w.release()
		wgLinear := int32(0)
		for wz := uint32(0); wz < workgroups[2]; wz++ {
			for wy := uint32(0); wy < workgroups[1]; wy++ {
				for wx := uint32(0); wx < workgroups[0]; wx++ {
					if err := w.workgroup(ctx, wgLinear, [3]uint32{wx, wy, wz}, workgroups, limit, maxPaths); err != nil {
						if e := stopped(ctx); e != nil {
							return e
						}
						return err
					}
					if err := stopped(ctx); err != nil {
						return err
					}
					wgLinear++
				}
			}
		}
		races = w.races
		return nil
	}
	if !done {
		err := sequential()
		if err == errParallel && run.owned != nil {
			// An invocation reached an owned binding out of its bounds
			// (a dispatch wider than the binding, unguarded: owned.go):
			// the pass runs again from the start, nothing owned.
			ownedDropped.Add(1)
			run.owned = nil
			run.next()
			if run.tex != nil {
				run.tex.reset()
			}
			run.sg.beginPass()
			mem, shadow, ashadow = nil, nil, nil
			mem, shadow, ashadow = d.passMemory(run)
			err = sequential()
		}
		if err != nil {
			return nil, err
		}
	}
	for i, why := range run.sticky {
		if why != 0 && mem[i] != nil && d.e.vars[i].Space != ir.SpaceWorkgroup {
			mem[i].taintAll(why)
		}
	}
	return &runOut{mem: mem, run: run, races: races, tex: run.tex.outputs()}, nil
}

// passMemory makes a pass's storage and uniform memory from the initial
// leaves (a read-only binding has none: it is read from them), and their
// race and contention shadows, 8 bytes a location accessed (shadow.go; workgroup
// variables' are each worker's: wgWorker).
func (d *Dispatch) passMemory(run *dispatchRun) (mem []*cells, shadow, ashadow []*varShadow) {
	mem = make([]*cells, len(d.e.vars))
	shadow = make([]*varShadow, len(d.e.vars))
	ashadow = make([]*varShadow, len(d.e.vars))
	for i, g := range d.e.vars {
		if g.Space == ir.SpaceWorkgroup || d.e.readOnly[i] {
			continue // read-only: read from the initial leaves themselves (entryInfo.readOnly)
		}
		mem[i] = run.initial[i].cells()
		if d.e.writes[i] && !run.isOwned(i) {
			// A binding no invocation writes cannot race (reads never
			// race with reads): it has no shadow, and check finds none.
			shadow[i] = newWordShadow(int(mem[i].n()))
		}
		if hasAtomic(g.T) {
			ashadow[i] = newWordShadow(int(mem[i].n()))
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
	mem             []*cells
	shadow, ashadow []*varShadow
	st              *shadowTab
	races           []Race
	frames          []*frame
	shs             []invShared
	sgMasks         []sgMask // per subgroup of the workgroup: its ids (workgroup)
	done            []bool   // runWorkgroup's
	ep              [2]uint32
	par             bool // parallel.go
}

// newWorker makes a worker of a pass over its memory (the slices are
// copied: the workgroup variables' entries become the worker's own).
func (d *Dispatch) newWorker(run *dispatchRun, mem []*cells, shadow, ashadow []*varShadow, maxPaths int, par bool) *wgWorker {
	ws := d.entry.WorkgroupSize
	local := int(ws[0] * ws[1] * ws[2])
	w := &wgWorker{d: d, run: run, mem: slices.Clone(mem), shadow: slices.Clone(shadow), ashadow: slices.Clone(ashadow),
		st: &shadowTab{local: int32(local)}, frames: make([]*frame, local), shs: make([]invShared, local), done: make([]bool, local), par: par}
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
	w.shadow, w.ashadow = nil, nil
	w.st.extra, w.st.recs, w.st.oob = nil, nil, nil
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
		n := int(size(g.T))
		run.sticky[i] = 0
		if w.mem[i] == nil {
			w.mem[i] = newCells(n)
			if d.e.writes[i] {
				w.shadow[i] = &varShadow{full: make([]access, n)}
			}
			if hasAtomic(g.T) {
				w.ashadow[i] = &varShadow{full: make([]access, n)}
			}
			continue
		}
		w.mem[i].clear()
		if w.shadow[i] != nil {
			clear(w.shadow[i].full)
		}
		if w.ashadow[i] != nil {
			clear(w.ashadow[i].full)
		}
	}
}

// workgroup runs the workgroup wid, linear index wgLinear, to its end.
func (w *wgWorker) workgroup(ctx context.Context, wgLinear int32, wid [3]uint32, workgroups [3]uint32, limit int64, maxPaths int) error {
	d := w.d
	w.wgMem()
	defer w.st.endWorkgroup(w.shadow, w.ashadow, w.par)
	w.ep = [2]uint32{}
	ws := d.entry.WorkgroupSize
	local := int32(len(w.frames))
	part, per := w.run.part, int32(0)
	if w.run.sg != nil {
		per = int32(w.run.sg.perWG)
	}
	if cap(w.sgMasks) < len(w.frames) {
		w.sgMasks = make([]sgMask, len(w.frames))
	}
	masks := w.sgMasks[:len(w.frames)]
	clear(masks)
	for li := range w.frames {
		sub, id := part.Of(int(wgLinear), li)
		masks[sub].set(id)
	}
	for li, fr := range w.frames {
		copy(fr.s, d.p.image)
		fr.ctx = ctx
		fr.start(limit)
		fr.stop, fr.err, fr.poison, fr.cause = false, nil, 0, 0
		fr.resume = 0
		lid := [3]uint32{uint32(li) % ws[0], uint32(li) / ws[0] % ws[1], uint32(li) / (ws[0] * ws[1])}
		gid := [3]uint32{wid[0]*ws[0] + lid[0], wid[1]*ws[1] + lid[1], wid[2]*ws[2] + lid[2]}
		w.shs[li] = invShared{mem: w.mem, shadow: w.shadow, ashadow: w.ashadow, inv: wgLinear*local + int32(li) + 1, wg: wgLinear, ep: &w.ep, races: &w.races, d: d, run: w.run, st: w.st, par: w.par}
		fr.sh = &w.shs[li]
		sub, sid := part.Of(int(wgLinear), li)
		fr.sh.sgG, fr.sh.sgID, fr.sh.sgMembers = wgLinear*per+int32(sub), int32(sid), masks[sub]
		ids := computeIDs{lid: lid, wid: wid, gid: gid, nwg: workgroups, li: uint32(li), sid: uint32(sid), ssize: uint32(part.Size()),
			subID: uint32(sub), nsub: uint32(part.subgroups(int(wgLinear), len(w.frames)))}
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
	clear(w.done)
	return d.runWorkgroup(w.frames, w.done, &w.ep, w.run, maxPaths)
}

// computeIDs are an invocation's compute builtin values (WGSL
// #built-in-values).
type computeIDs struct {
	lid, wid, gid, nwg [3]uint32
	li                 uint32
	sid, ssize         uint32 // subgroup_invocation_id, subgroup_size (subgroup.go)
	subID, nsub        uint32 // subgroup_id (the subgroup's index in the workgroup), num_subgroups
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
	case "subgroup_invocation_id":
		v = []uint32{ids.sid}
	case "subgroup_size":
		v = []uint32{ids.ssize}
	case "subgroup_id":
		v = []uint32{ids.subID}
	case "num_subgroups":
		v = []uint32{ids.nsub}
	}
	for k, b := range v {
		s[at+int32(k)] = slot{bits: b}
	}
}

// runWorkgroup runs one workgroup's invocations to completion, barrier
// by barrier, each segment between barriers on every path its fork
// points allow (segment). An invocation whose rest is indeterminate
// (poisonRest) waits at no barrier.
func (d *Dispatch) runWorkgroup(frames []*frame, done []bool, ep *[2]uint32, run *dispatchRun, maxPaths int) error {
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
				if fr.sh.par {
					return errParallel // poisonRest writes every storage leaf: parallel.go
				}
				run.sg.markLost(fr.sh)
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

// countLeaves returns the number of scalar leaves of v (an array with no
// elements has none).
func countLeaves(v ir.Value) int {
	if v.Type != nil && v.Type.Elem != nil && (v.Type.Kind == ir.KindArray || v.Type.Kind == ir.KindRuntimeArray) {
		if v.Type.Elem.IsScalar() {
			return len(v.Elems)
		}
		n := 0
		for _, e := range v.Elems {
			n += countLeaves(e)
		}
		return n
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

// buildShared decodes a binding of type t from its n leaves' bits (an
// atomic as its element type, a runtime-sized array by the leaves left),
// leaf *pos first.
func buildShared(t *ir.Type, bits func(int) uint32, n int, pos *int) ir.Value {
	switch t.Kind {
	case ir.KindAtomic:
		return buildShared(t.Elem, bits, n, pos)
	case ir.KindRuntimeArray:
		k := int(size(t.Elem))
		var es []ir.Value
		if t.Elem.IsScalar() {
			// A buffer of scalars, the common large binding: one loop.
			es = make([]ir.Value, n-*pos)
			for i := range es {
				es[i] = ir.Value{Type: t.Elem, Bits: bits(*pos + i)}
			}
			*pos = n
			return ir.Value{Type: t, Elems: es}
		}
		if k > 0 {
			es = make([]ir.Value, 0, (n-*pos)/k)
		}
		for k > 0 && *pos+k <= n {
			es = append(es, buildShared(t.Elem, bits, n, pos))
		}
		return ir.Value{Type: t, Elems: es}
	case ir.KindVec, ir.KindArray, ir.KindMat:
		es := make([]ir.Value, t.Len)
		for i := range es {
			es[i] = buildShared(t.Elem, bits, n, pos)
		}
		return ir.Value{Type: t, Elems: es}
	case ir.KindStruct:
		es := make([]ir.Value, len(t.Struct.Fields))
		for i, f := range t.Struct.Fields {
			es[i] = buildShared(f.Type, bits, n, pos)
		}
		return ir.Value{Type: t, Elems: es}
	}
	v := ir.Value{Type: t, Bits: bits(*pos)}
	*pos++
	return v
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
