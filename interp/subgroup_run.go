package interp

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/gpudiff/gpudiff/ir"
)

// sgState is a dispatch's subgroup state (dispatchRun.sg; subgroup.go),
// shared by the workers of a parallel pass: each subgroup's logs of this
// pass (cur) and of the previous one (prev), at index workgroup·perWG +
// subgroup — a workgroup's worker touches only its own.
type sgState struct {
	info  *sgInfo
	part  *SubgroupPartition
	size  int
	perWG int
	prev  []*sgGroup
	cur   []*sgGroup
	// taint: this is the reconvergence run — the result of every site
	// not in uniform control flow is any value.
	taint bool
	// hit, per site (sgInfo.order): a site not in uniform control flow
	// ran.
	hit []atomic.Bool
	// slots counts the operand slots this pass logged; past
	// maxSubgroupLogSlots the pass overflows (its results are not used:
	// dispatch.go makes every writable binding any value).
	slots    atomic.Int64
	overflow atomic.Bool
}

// maxSubgroupLogSlots bounds the operand slots a pass logs (16 bytes
// each; two passes' logs are kept): 1<<24, 256 MiB a pass.
const maxSubgroupLogSlots = 1 << 24

// sgGroup is one subgroup's logs in a pass: its members' ids, the ids
// of invocations whose rest became indeterminate (poisonRest: they may
// still have run any key they did not log), and the operands logged at
// each key (site and loop counters, little-endian u32s).
type sgGroup struct {
	members sgMask
	lost    sgMask
	logs    map[string]*sgLog
}

// sgLog is the operands logged at one key: who logged (present), who
// did so on one of several paths of a forked segment (uncertain), and
// each invocation's operands (all arguments' leaves, at id·n).
type sgLog struct {
	present, uncertain sgMask
	ops                []slot
}

// newSubgroups makes a dispatch's subgroup state (nil: the entry point
// calls no subgroup builtin).
func (d *Dispatch) newSubgroups(part *SubgroupPartition, workgroups [3]uint32, taint bool) *sgState {
	if d.e.sg == nil || len(d.e.sg.order) == 0 {
		return nil
	}
	ws := d.entry.WorkgroupSize
	local := int(ws[0] * ws[1] * ws[2])
	nwg := int(workgroups[0]) * int(workgroups[1]) * int(workgroups[2])
	per := 0
	if part.local == 0 {
		per = part.subgroups(0, local)
	} else {
		for _, n := range part.nsub {
			per = max(per, int(n))
		}
	}
	return &sgState{info: d.e.sg, part: part, size: part.size, perWG: per,
		cur: make([]*sgGroup, nwg*per), taint: taint, hit: make([]atomic.Bool, len(d.e.sg.order))}
}

// beginPass forgets what this pass logged so far (a pass that starts
// again from the start: parallel.go, owned.go).
func (st *sgState) beginPass() {
	if st != nil {
		clear(st.cur)
		st.slots.Store(0)
	}
}

// settled reports whether this pass logged exactly what the previous one
// did at every key (the fixed point), and makes this pass's logs the
// previous ones.
func (st *sgState) settled() bool {
	if st == nil {
		return true
	}
	ok := st.prev != nil
	for i := range st.cur {
		if !ok {
			break
		}
		ok = sameGroup(st.cur[i], st.prev[i], st.size)
	}
	st.slots.Store(0)
	old := st.prev
	st.prev = st.cur
	if old == nil {
		old = make([]*sgGroup, len(st.cur))
	} else {
		clear(old)
	}
	st.cur = old
	return ok
}

func sameGroup(a, b *sgGroup, size int) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.lost != b.lost || len(a.logs) != len(b.logs) {
		return false
	}
	for k, x := range a.logs {
		y := b.logs[k]
		if y == nil || x.present != y.present || x.uncertain != y.uncertain {
			return false
		}
		n := len(x.ops) / size
		var buf [128]int
		for _, l := range x.present.ids(buf[:0]) {
			for j := l * n; j < (l+1)*n; j++ {
				p, q := x.ops[j], y.ops[j]
				if p.bits != q.bits || (p.why < 0) != (q.why < 0) || p.tol() != q.tol() {
					return false
				}
			}
		}
	}
	return true
}

// group returns the invocation's subgroup's logs of this pass.
func (st *sgState) group(sh *invShared) *sgGroup {
	g := st.cur[sh.sgG]
	if g == nil {
		g = &sgGroup{members: sh.sgMembers, logs: map[string]*sgLog{}}
		st.cur[sh.sgG] = g
	}
	return g
}

// markLost records that invocation sh's rest is indeterminate (it waits
// at no barrier and runs nothing more: poisonRest).
func (st *sgState) markLost(sh *invShared) {
	if st != nil {
		st.group(sh).lost.set(int(sh.sgID))
	}
}

// sgSeen is what the paths of a forked segment logged at one key: the
// first path's operands, the paths that logged it, and whether their
// operands differ.
type sgSeen struct {
	ops    []slot
	paths  []int32
	differ bool
}

// sgForked ends a segment of the invocation that took several paths
// (segment.go; sgPath + 1 of them, those in pruned dropped as cycles): a
// key it logged is uncertain unless the exploration was complete and
// every path not pruned logged the same operands there — then every
// execution WGSL allows runs it with them, whichever path the device
// takes. A pruned path met a fork point in a state another path met it
// in, the trace included (the keys and operands logged so far, hashed
// into a local of the frame, which fork.go's state covers): its
// executions log what that path's do.
func (sh *invShared) sgForked(complete bool, pruned []int32) {
	runs := int(sh.sgPath) + 1 - len(pruned)
	for lg, e := range sh.sgSeen {
		n := 0
		for _, p := range e.paths {
			if !slices.Contains(pruned, p) {
				n++
			}
		}
		if !complete || n != runs || e.differ {
			lg.uncertain.set(int(sh.sgID))
		}
	}
	clear(sh.sgSeen)
}

// traceMix folds a key and its operands into the trace (a, b).
func traceMix(a, b uint32, key []byte, ops []slot) (uint32, uint32) {
	h := uint64(a)<<32 | uint64(b)
	mix := func(x uint64) {
		h ^= x
		h *= 0x100000001b3
		h ^= h >> 29
	}
	for _, c := range key {
		mix(uint64(c))
	}
	for _, s := range ops {
		w := uint64(0)
		if s.why < 0 {
			w = 1
		}
		mix(uint64(s.bits) | w<<32)
		mix(math.Float64bits(s.tol()))
	}
	return uint32(h >> 32), uint32(h)
}

// sgSeeLog notes the operands own that the path running logged at lg
// (a segment that may fork).
func (sh *invShared) sgSeeLog(lg *sgLog, own []slot) {
	if sh.sgSeen == nil {
		sh.sgSeen = map[*sgLog]*sgSeen{}
	}
	e := sh.sgSeen[lg]
	if e == nil {
		sh.sgSeen[lg] = &sgSeen{ops: append([]slot(nil), own...), paths: []int32{sh.sgPath}}
		return
	}
	if e.paths[len(e.paths)-1] == sh.sgPath {
		return
	}
	e.paths = append(e.paths, sh.sgPath)
	for j := range own {
		p, q := own[j], e.ops[j]
		if p.bits != q.bits || (p.why < 0) != (q.why < 0) || p.tol() != q.tol() {
			e.differ = true
		}
	}
}

// sgOp is a compiled subgroup builtin call of an entry point.
type sgOp struct {
	fn      ir.Builtin
	name    string
	pos     ir.Pos
	site    int     // index in sgInfo.order
	info    *sgSite // (its uniform field read at run time: a test edits it)
	loops   []int32 // the loop counters' slots, outer first
	trace   int32   // the trace's slots (sgInfo.trace)
	args    []cexpr // the operands (all logged, concatenated)
	argOff  []int   // each operand's offset in a lane's log
	total   int     // leaves per lane
	d, n    int32   // the result's slots
	elem    ir.Kind // the scalar kind of the first operand
	argKind []ir.Kind
	// Reasons: the other lanes' operands are not known yet (first pass);
	// the active set is not known (a lane forked or stopped); an inactive
	// lane read; a non-uniform delta; a result in non-uniform control
	// flow (the taint run); the float site block (reasons.go site).
	pending, unknown, inactive, dynErr, delta, taint, fsite, opaque int32
}

// subgroup compiles a subgroup or quad builtin call (ClassSubgroup):
// keyed execution in a dispatch (subgroup.go), the quad in a fragment
// run, and elsewhere an unexecutable builtin.
func (c *compiler) subgroup(e *ir.BuiltinCall, dst int32) cexpr {
	if c.entry == nil {
		return c.subgroupFragment(e, dst) // subgroup_quad.go
	}
	var site *sgSite
	idx := -1
	if c.entry.sg != nil {
		site = c.entry.sg.sites[e]
		for i, s := range c.entry.sg.order {
			if s == site {
				idx = i
			}
		}
	}
	if site == nil {
		return c.unexecutable(e, e.Fn.Info())
	}
	info := e.Fn.Info()
	o := &sgOp{fn: e.Fn, name: info.Name, pos: e.Pos, site: idx, info: site}
	for _, name := range site.loops {
		v, ok := c.vars[name]
		if !ok {
			c.errorf(e.Pos, "internal error: the loop counter %s of %s is not in scope", name, info.Name)
			return c.dummy(e.T, dst)
		}
		o.loops = append(o.loops, v.base)
	}
	tr, ok := c.vars[c.entry.sg.trace]
	if !ok {
		c.errorf(e.Pos, "internal error: the subgroup trace is not in scope")
		return c.dummy(e.T, dst)
	}
	o.trace = tr.base
	o.args = c.operands(e.Args...)
	for i, a := range o.args {
		o.argOff = append(o.argOff, o.total)
		o.total += int(a.n)
		o.argKind = append(o.argKind, e.Args[i].Type().Scalar().Kind)
	}
	o.n = size(e.T)
	o.d = c.alloc(max(o.n, 1))
	if len(e.Args) > 0 {
		o.elem = e.Args[0].Type().Scalar().Kind
	}
	o.pending = c.addReason(e.Pos, rBitcast, e, "the other invocations of its subgroup have not run it yet in this pass of the reference (it runs the dispatch again until the subgroup's operands settle)")
	o.unknown = c.addReason(e.Pos, rBitcast, e, "which invocations of its subgroup execute it together is not known: one of them takes several paths there (control on an indeterminate value) or stopped early")
	o.inactive = c.addReason(e.Pos, rBitcast, e, "reads an inactive invocation, or an id outside the subgroup: an indeterminate value (WGSL #subgroup-builtin-functions, #quad-builtin-functions)")
	o.dynErr = c.addReason(e.Pos, rBitcast, e, "broadcasts from an id that selects no active invocation: a dynamic error, any value (WGSL #subgroupbroadcast-builtin)")
	o.delta = c.addReason(e.Pos, rBitcast, e, "its delta or mask is not the same in every active invocation: an indeterminate value (WGSL #subgroupshuffleup-builtin, #subgroupshuffledown-builtin, #subgroupshufflexor-builtin)")
	o.opaque = c.addReason(e.Pos, rBitcast, e, "it is in the right operand of && or || in a statement with calls or atomics, whose short circuit the reference does not separate from the rest (interp/subgroup_lift.go): which invocations run it is not known, any value")
	o.taint = c.addReason(e.Pos, rBitcast, e, "it runs in non-uniform control flow, so which invocations execute it together is the implementation's choice (WGSL #subgroup-ops: the active set \"may contain a different set of active invocations than the shader author expects\"); the reference's value is maximal reconvergence's")
	if o.elem == ir.KindF32 || o.elem == ir.KindF16 {
		o.fsite = c.site(e.Pos, e, "inherited from the sum or product over the active invocations, in any order")
	}
	return cexpr{code: c.emit(o.run, o.args...), loc: o.d, n: o.n, stops: true}
}

// anyValue makes every result leaf any value for reason why (> 0).
func (o *sgOp) anyValue(fr *frame, why int32) {
	for j := int32(0); j < max(o.n, 1); j++ {
		fr.s[o.d+j] = slot{why: -why}
	}
}

// run executes the call in one invocation: it logs its operands at its
// key and computes the result from the active set the previous pass
// logged there.
func (o *sgOp) run(fr *frame) {
	sh := fr.sh
	st := sh.run.sg
	if st == nil {
		fr.fail(o.pos, "internal error: %s without the dispatch's subgroup state", o.name)
		return
	}
	if o.info.opaque {
		o.anyValue(fr, o.opaque)
		return
	}
	k := binary.LittleEndian.AppendUint32(sh.sgKey[:0], uint32(o.site+1))
	for _, c := range o.loops {
		k = binary.LittleEndian.AppendUint32(k, fr.s[c].bits)
	}
	sh.sgKey = k
	g := st.group(sh)
	lg := g.logs[string(k)]
	if lg == nil {
		if st.slots.Add(int64(st.size*o.total+1)) > maxSubgroupLogSlots {
			st.overflow.Store(true)
			o.anyValue(fr, o.unknown)
			return
		}
		lg = &sgLog{ops: make([]slot, st.size*o.total)}
		g.logs[string(k)] = lg
	}
	id := int(sh.sgID)
	lg.present.set(id)
	own := lg.ops[id*o.total : (id+1)*o.total]
	for i, a := range o.args {
		copy(own[o.argOff[i]:], fr.s[a.loc:a.loc+a.n])
	}
	for j := range own {
		own[j].dropSet() // allowed sets are per pass (dispatchRun.sets)
	}
	if fr.fork != nil && len(fr.fork.taken) > 0 {
		// After a fork point (before the first, every path of the
		// segment replays the same prefix, logging the same).
		sh.sgSeeLog(lg, own)
		fr.s[o.trace].bits, fr.s[o.trace+1].bits = traceMix(fr.s[o.trace].bits, fr.s[o.trace+1].bits, k, own)
	}
	uniform := o.info.uniform
	if !uniform {
		st.hit[o.site].Store(true)
		if st.taint {
			o.anyValue(fr, o.taint)
			return
		}
	}
	var pg *sgGroup
	if st.prev != nil {
		pg = st.prev[sh.sgG]
	}
	if pg == nil {
		o.anyValue(fr, o.pending)
		return
	}
	var act sgMask
	act.set(id)
	pl := pg.logs[string(k)]
	if pl != nil {
		act = act.or(pl.present)
		if !pl.uncertain.without(id).empty() {
			o.anyValue(fr, o.unknown)
			return
		}
	}
	if !pg.lost.andNot(act).empty() {
		o.anyValue(fr, o.unknown)
		return
	}
	if uniform && pg.lost.empty() && act != g.members {
		fr.fail(o.pos, "internal error: %s is in uniform control flow, yet its key (site %d, loop counters %v) was reached by subgroup invocations %v of %v (interp/subgroup.go's keying)", o.name, o.site+1, k[4:], act.ids(nil), g.members.ids(nil))
		return
	}
	lane := func(l int) []slot {
		if l == id {
			return own
		}
		return pl.ops[l*o.total : (l+1)*o.total]
	}
	o.compute(fr, id, act, lane)
}

// compute writes the result of lane id over the active set act, whose
// operands lane returns.
func (o *sgOp) compute(fr *frame, id int, act sgMask, lane func(int) []slot) {
	var buf [128]int
	ids := act.ids(buf[:0])
	s := fr.s
	d := o.d
	switch o.fn {
	case ir.BSubgroupAdd, ir.BSubgroupMul, ir.BSubgroupMin, ir.BSubgroupMax,
		ir.BSubgroupAnd, ir.BSubgroupOr, ir.BSubgroupXor:
		o.reduce(fr, ids, lane)
	case ir.BSubgroupInclusiveAdd, ir.BSubgroupExclusiveAdd, ir.BSubgroupInclusiveMul, ir.BSubgroupExclusiveMul:
		incl := o.fn == ir.BSubgroupInclusiveAdd || o.fn == ir.BSubgroupInclusiveMul
		pre := ids[:0:0]
		for _, l := range ids {
			if l < id || incl && l == id {
				pre = append(pre, l)
			}
		}
		o.reduce(fr, pre, lane)
	case ir.BSubgroupAll, ir.BSubgroupAny:
		all := o.fn == ir.BSubgroupAll
		r := slot{bits: b2u(all)}
		for _, l := range ids {
			x := lane(l)[0]
			if x.why < 0 {
				r = slot{why: x.why}
				break
			}
			if all {
				r.bits &= x.bits
			} else {
				r.bits |= x.bits
			}
		}
		s[d] = r
	case ir.BSubgroupBallot:
		var r [4]slot
		for _, l := range ids {
			x := lane(l)[0]
			c := &r[l/32]
			switch {
			case c.why < 0:
			case x.why < 0:
				*c = slot{why: x.why}
			case x.bits != 0:
				c.bits |= 1 << (l % 32)
			}
		}
		copy(s[d:d+4], r[:])
	case ir.BSubgroupElect:
		s[d] = slot{bits: b2u(ids[0] == id)}
	case ir.BSubgroupBroadcastFirst:
		o.copyFrom(fr, lane(ids[0]))
	case ir.BSubgroupBroadcast, ir.BSubgroupShuffle, ir.BQuadBroadcast:
		x := lane(id)[o.argOff[1]]
		if x.why < 0 {
			o.anyValue(fr, -x.why)
			return
		}
		t := int64(x.bits)
		if o.args[1].n == 1 && o.elemOf(1) == ir.KindI32 {
			t = int64(int32(x.bits))
		}
		if o.fn == ir.BQuadBroadcast {
			if t < 0 || t > 3 {
				o.anyValue(fr, o.inactive)
				return
			}
			t += int64(id &^ 3)
		}
		if t < 0 || t >= 128 || !act.has(int(t)) {
			if o.fn == ir.BSubgroupBroadcast {
				o.anyValue(fr, o.dynErr)
			} else {
				o.anyValue(fr, o.inactive)
			}
			return
		}
		o.copyFrom(fr, lane(int(t)))
	case ir.BSubgroupShuffleXor, ir.BSubgroupShuffleUp, ir.BSubgroupShuffleDown:
		x := lane(id)[o.argOff[1]]
		for _, l := range ids {
			y := lane(l)[o.argOff[1]]
			if y.why < 0 || y.bits != x.bits {
				o.anyValue(fr, o.delta)
				return
			}
		}
		t := int64(id)
		switch o.fn {
		case ir.BSubgroupShuffleXor:
			t ^= int64(x.bits)
		case ir.BSubgroupShuffleUp:
			t -= int64(x.bits)
		default:
			t += int64(x.bits)
		}
		if t < 0 || t >= 128 || !act.has(int(t)) {
			o.anyValue(fr, o.inactive)
			return
		}
		o.copyFrom(fr, lane(int(t)))
	case ir.BQuadSwapX, ir.BQuadSwapY, ir.BQuadSwapDiagonal:
		t := id ^ map[ir.Builtin]int{ir.BQuadSwapX: 1, ir.BQuadSwapY: 2, ir.BQuadSwapDiagonal: 3}[o.fn]
		if !act.has(t) {
			o.anyValue(fr, o.inactive)
			return
		}
		o.copyFrom(fr, lane(t))
	default:
		fr.fail(o.pos, "internal error: subgroup builtin %s", o.name)
	}
}

// elemOf is the scalar kind of argument i.
func (o *sgOp) elemOf(i int) ir.Kind {
	return o.argKind[i]
}

// copyFrom copies the first operand of a lane (its value as that
// invocation computed it, bound and reason included) to the result.
func (o *sgOp) copyFrom(fr *frame, src []slot) {
	for j := int32(0); j < o.n; j++ {
		x := src[j]
		x.dropSet()
		fr.s[o.d+j] = x
	}
}

// reduce writes the reduction of the first operand over the lanes ids
// (ascending) — o.fn's operation, or a scan's — component by component:
// the identity for no lanes (0 for add, 1 for mul).
func (o *sgOp) reduce(fr *frame, ids []int, lane func(int) []slot) {
	var terms [128]slot
	for j := 0; j < int(o.n); j++ {
		ts := terms[:0]
		bad := int32(0)
		for _, l := range ids {
			x := lane(l)[j]
			if x.why < 0 && bad == 0 {
				bad = x.why
			}
			ts = append(ts, x)
		}
		if bad != 0 {
			fr.s[o.d+int32(j)] = slot{why: bad}
			continue
		}
		fr.s[o.d+int32(j)] = o.fold(ts)
	}
}

// fold reduces determinate terms with o.fn's operation.
func (o *sgOp) fold(ts []slot) slot {
	add := false
	switch o.fn {
	case ir.BSubgroupAdd, ir.BSubgroupInclusiveAdd, ir.BSubgroupExclusiveAdd:
		add = true
	}
	mul := false
	switch o.fn {
	case ir.BSubgroupMul, ir.BSubgroupInclusiveMul, ir.BSubgroupExclusiveMul:
		mul = true
	}
	if o.elem == ir.KindF32 || o.elem == ir.KindF16 {
		return o.floatFold(ts, add, mul)
	}
	signed := o.elem == ir.KindI32
	var r uint32
	switch {
	case add:
		r = 0
	case mul:
		r = 1
	case o.fn == ir.BSubgroupAnd:
		r = ^uint32(0)
	}
	for i, t := range ts {
		x := t.bits
		switch {
		case add:
			r += x
		case mul:
			r *= x
		case o.fn == ir.BSubgroupAnd:
			r &= x
		case o.fn == ir.BSubgroupOr:
			r |= x
		case o.fn == ir.BSubgroupXor:
			r ^= x
		case i == 0:
			r = x
		case o.fn == ir.BSubgroupMin:
			if signed && int32(x) < int32(r) || !signed && x < r {
				r = x
			}
		case o.fn == ir.BSubgroupMax:
			if signed && int32(x) > int32(r) || !signed && x > r {
				r = x
			}
		}
	}
	return slot{bits: r}
}

// String describes a log for diagnostics.
func (lg *sgLog) String() string {
	return fmt.Sprintf("present %v uncertain %v", lg.present.ids(nil), lg.uncertain.ids(nil))
}
