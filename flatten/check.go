package flatten

import (
	"cmp"
	"container/heap"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// precheck finds every loud error that does not depend on predication,
// before anything is built (issue item 7): recursion, a call of a function
// outside the IR subset, a builtin outside the whitelist, an unbounded
// loop, a type that cannot be selected at an inline boundary, and an
// unroll count above MaxUnroll. The checks are syntactic over f's whole
// call graph, so a refused construct is refused even where it is
// statically dead. (Uniformity-dependent operations are refused during
// lowering, where the predicate is known.)
func precheck(m *ir.Module, f *ir.Func, opts Options) (ir.ErrorList, *checker) {
	c := &checker{m: m, opts: opts, white: map[string]bool{}, bounds: map[*ir.Loop]*ir.LoopBound{},
		entry: f.Stage == ir.StageCompute, seqs: map[*ir.Loop][]ir.Value{}, masked: map[*ir.Loop]bool{}, unbounded: map[*ir.Loop]bool{}}
	for _, n := range opts.Whitelist {
		c.white[n] = true
	}
	if cyc := m.FindCycle(f.Name); cyc != nil {
		caller := m.Func(cyc[len(cyc)-2])
		pos := caller.Pos
		ir.Inspect(caller.Body, func(n ir.Node) bool {
			if call, ok := n.(*ir.Call); ok && call.Func == cyc[len(cyc)-1] && pos == caller.Pos {
				pos = call.Pos
			}
			return true
		})
		c.errorf(pos, "recursion %s cannot be inlined", strings.Join(cyc, " → "))
		return c.errs, c // the call graph walks below assume no cycle
	}
	for _, g := range m.CallGraph(f.Name) {
		c.fn(g, g == f)
	}
	if isFlat(f) {
		// Not lowered, so checkUniform never sees its builtins; its
		// control flow is uniform throughout, so what checkUniform keeps
		// in uniform control flow whatever the whitelist says stays here
		// too: a compute entry point's barriers, a fragment entry
		// point's derivatives, subgroup operations (subgroup.go).
		fragment := f.Stage == ir.StageFragment
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if x, ok := n.(*ir.BuiltinCall); ok && uniformityDependent(x.Fn) && !c.white[x.Fn.String()] &&
				!(c.entry && x.Fn.Info().Class == ir.ClassBarrier) && !(fragment && x.Fn.Info().Class == ir.ClassDerivative) &&
				x.Fn.Info().Class != ir.ClassSubgroup {
				c.errorf(x.Pos, "builtin %s is not in the whitelist of leaf builtins (%s)", x.Fn, builtinWhy(x.Fn))
			}
			return true
		})
	}
	if len(c.errs) == 0 {
		c.unrollCount(f)
	}
	return c.errs, c
}

type checker struct {
	m      *ir.Module
	opts   Options
	white  map[string]bool
	errs   ir.ErrorList
	bounds map[*ir.Loop]*ir.LoopBound
	memo   map[string]int64
	entry  bool                    // flattening a compute entry point
	seqs   map[*ir.Loop][]ir.Value // loops bounded by evaluation (entry.go)
	masked map[*ir.Loop]bool       // loops kept as loops (masked.go)
	// unbounded: the masked loops kept for want of a syntactic bound
	// (Options.Loops auto), which lowering may still unroll inside an
	// unrolled copy (loop.go, boundInCopy); total the unroll count.
	unbounded map[*ir.Loop]bool
	total     int64
}

func (c *checker) errorf(pos ir.Pos, format string, args ...any) {
	c.errs.Add(c.m.File, pos, "flatten", format, args...)
}

// selectable reports whether a predicated store of type t can be written
// with WGSL select, which takes scalars and vectors only (WGSL
// #select-builtin): scalars and vectors directly, arrays and structs
// element by element, matrices column by column.
func selectable(t *ir.Type) bool {
	switch {
	case t == nil:
		return false
	case t.IsScalar(), t.Kind == ir.KindVec:
		return true
	case t.Kind == ir.KindArray, t.Kind == ir.KindMat:
		return selectable(t.Elem)
	case t.Kind == ir.KindStruct:
		for _, fd := range t.Struct.Fields {
			if !selectable(fd.Type) {
				return false
			}
		}
		return true
	}
	return false
}

func (c *checker) fn(f *ir.Func, isRoot bool) {
	if !isRoot {
		for _, p := range f.Params {
			if !selectable(p.T) {
				c.errorf(p.Pos, "parameter %s of %s has type %v, which cannot be selected at an inline boundary", p.Name, f.Name, p.T)
			}
		}
	}
	if !f.Result.IsVoid() && !selectable(f.Result) {
		c.errorf(f.Pos, "result of %s has type %v, which cannot be selected", f.Name, f.Result)
	}
	var walk func(n ir.Node)
	walk = func(n ir.Node) {
		switch x := n.(type) {
		case *ir.Block:
			for i, s := range x.Stmts {
				if _, ok := s.(*ir.Loop); ok {
					c.loop(x, i)
				}
			}
		case *ir.Call:
			if c.m.Func(x.Func) == nil {
				why := "it is not in the module"
				if o := c.m.OpaqueDecl(x.Func); o != nil && o.Reason != "" {
					why = "it is outside the IR subset: " + o.Reason
				} else if o != nil {
					why = "it is outside the IR subset"
				}
				c.errorf(x.Pos, "call of %s cannot be inlined: %s", x.Func, why)
			}
		case *ir.BuiltinCall:
			// Uniformity-dependent builtins are checked where they are
			// lowered (lowerer.checkUniform), which knows the predicate.
			if !uniformityDependent(x.Fn) && !c.white[x.Fn.String()] {
				c.errorf(x.Pos, "builtin %s is not in the whitelist of leaf builtins (%s)", x.Fn, builtinWhy(x.Fn))
			}
		case *ir.Decl:
			if !selectable(x.T) {
				c.errorf(x.Pos, "%s has type %v, which cannot be selected", x.Name, x.T)
			}
		}
		ir.DoChildren(n, func(k ir.Node) bool { walk(k); return false })
	}
	walk(f.Body)
}

// uniformityDependent reports whether b's result or effect depends on
// which invocations execute it: derivatives, barriers, subgroup
// operations (WGSL #uniformity).
func uniformityDependent(b ir.Builtin) bool {
	switch b.Info().Class {
	case ir.ClassDerivative, ir.ClassBarrier, ir.ClassSubgroup:
		return true
	}
	return false
}

func builtinWhy(b ir.Builtin) string {
	switch b.Info().Class {
	case ir.ClassDerivative:
		return "a derivative: needs uniform control flow in a fragment shader"
	case ir.ClassBarrier:
		return "a barrier: needs uniform control flow"
	case ir.ClassSubgroup:
		return "a subgroup operation: its result depends on the active invocations; flatten guards it with the path's mask (subgroup.go) and never takes it as a leaf"
	}
	return "Options.Whitelist leaves it out"
}

func (c *checker) loop(b *ir.Block, i int) {
	l := b.Stmts[i].(*ir.Loop)
	if c.opts.Loops == "mask" {
		c.masked[l] = true
		return
	}
	lb, err := ir.BoundLoop(b, i)
	if err != nil && c.entry {
		if elb, seq, ok := evalBound(b, i, c.opts.MaxUnroll); ok {
			c.bounds[l], c.seqs[l] = elb, seq
			return
		}
	}
	if err != nil && c.opts.Loops == "auto" {
		c.masked[l] = true
		c.unbounded[l] = true
		return
	}
	var huge *ir.HugeBoundError
	if errors.As(err, &huge) {
		c.errorf(l.Pos, "loop bound too large to unroll: counter %s bounds the loop at %d body entries, more than MaxUnroll %d (with Options.Loops auto or mask the loop is kept as a loop)", huge.Counter, huge.Entries, c.opts.MaxUnroll)
		return
	}
	if err != nil {
		c.errorf(l.Pos, "unbounded loop: %v (flatten unrolls only loops whose trip count ir.BoundLoop proves; with Options.Loops auto or mask the loop is kept as a loop)", err)
		return
	}
	c.bounds[l] = lb
}

// Unroll count. Every loop is unrolled into as many copies of its body
// (and continuing block) as its bound, ir.LoopBound.MaxEntries — the
// number of times control can enter the body, which for
// `for (var i = 0; i < 10; i++)` is 11: ten full iterations and the entry
// whose exit test breaks. A loop nested in a loop is copied into every
// copy of the outer one, and a callee's loops into every call site. The
// unroll count is the sum over all loops of the copies they create:
// for a loop at nesting depth d with bounds b1 (outermost) … bd (itself),
// b1 × … × bd. With Options.MaxUnroll = M, a count above M is refused.

// unrollCount refuses f when its unroll count is above MaxUnroll, naming
// the count and positioned at the outermost statement that crosses the
// limit.
func (c *checker) unrollCount(f *ir.Func) {
	c.memo = map[string]int64{}
	total := c.blockCopies(f.Body)
	if total > int64(c.opts.MaxUnroll) && c.opts.Loops == "auto" {
		total = c.maskBeyondCap(f)
	}
	if c.opts.Loops == "auto" && c.opts.MaxUnrollNodes > 0 && c.maskBeyondNodes(f) {
		c.memo = map[string]int64{}
		total = c.blockCopies(f.Body)
	}
	c.total = total
	if total <= int64(c.opts.MaxUnroll) {
		return
	}
	pos := f.Pos
	var run int64
	var find func(b *ir.Block) bool
	find = func(b *ir.Block) bool {
		for i, s := range b.Stmts {
			n := c.stmtCopies(b, i)
			if run+n <= int64(c.opts.MaxUnroll) {
				run += n
				continue
			}
			switch x := s.(type) {
			case *ir.If:
				if c.exprCopies(x.Cond) == 0 && (find(x.Then) || find(x.Else)) {
					return true
				}
			case *ir.Block:
				if find(x) {
					return true
				}
			}
			pos = s.Position()
			return true
		}
		return false
	}
	find(f.Body)
	count := fmt.Sprint(total)
	if total >= satMax {
		count = fmt.Sprintf("more than %d", satMax)
	}
	c.errorf(pos, "unrolling needs %s loop-body copies, more than MaxUnroll %d (each loop's bound times the bounds of the loops around it, summed over every loop, inlined calls included)", count, c.opts.MaxUnroll)
}

// loopSites lists the loops of f and of the functions it calls (each
// function once), in walk order: each loop, the block holding it and its
// index there, and whether it is in f's body outside every loop (its
// copies then add to the unroll count once).
func (c *checker) loopSites(f *ir.Func) (loops []*ir.Loop, blocks []*ir.Block, idx []int, free []bool) {
	seen := map[*ir.Func]bool{}
	var walk func(n ir.Node, nested bool)
	walk = func(n ir.Node, nested bool) {
		if b, ok := n.(*ir.Block); ok {
			for i, s := range b.Stmts {
				if l, ok := s.(*ir.Loop); ok {
					loops, blocks, idx = append(loops, l), append(blocks, b), append(idx, i)
					free = append(free, !nested)
				}
			}
		}
		if call, ok := n.(*ir.Call); ok {
			if g := c.m.Func(call.Func); g != nil && !seen[g] {
				seen[g] = true
				walk(g.Body, true)
			}
		}
		_, isLoop := n.(*ir.Loop)
		ir.DoChildren(n, func(k ir.Node) bool { walk(k, nested || isLoop); return false })
	}
	walk(f.Body, false)
	return loops, blocks, idx, free
}

// maskBeyondCap keeps as loops (Options.Loops auto) the loops whose
// unrolling takes the count past MaxUnroll: first every loop whose own
// copies (itself and what it holds) exceed the cap, outermost first,
// then the loops with the most copies until the count fits. It returns
// the new count.
func (c *checker) maskBeyondCap(f *ir.Func) int64 {
	limit := int64(c.opts.MaxUnroll)
	loops, blocks, idx, free := c.loopSites(f)
	recount := func() int64 {
		c.memo = map[string]int64{}
		return c.blockCopies(f.Body)
	}
	for k, l := range loops {
		if !c.masked[l] && c.stmtCopies(blocks[k], idx[k]) > limit {
			c.masked[l] = true
			c.memo = map[string]int64{}
		}
	}
	total := recount()
	// The loop with the most copies (the first of equals) is masked until
	// the count fits. Recounting every loop after each masking made this
	// quadratic (a function of 2,000 small loops spent seconds here), so
	// the counts sit in a heap and are recounted only at its top: masking
	// a loop never raises another loop's count (it lowers its own and
	// those of the loops and calls around it), so a top that, recounted,
	// still comes first is the loop a full recount would choose. Masking
	// a free loop changes no other count, so the total moves by its
	// change alone; any other recounts the function.
	h := &loopHeap{}
	for k, l := range loops {
		if !c.masked[l] {
			h.items = append(h.items, loopCount{k, c.stmtCopies(blocks[k], idx[k])})
		}
	}
	heap.Init(h)
	for total > limit && h.Len() > 0 {
		top := heap.Pop(h).(loopCount)
		top.n = c.stmtCopies(blocks[top.k], idx[top.k])
		if h.Len() > 0 && before(h.items[0], top) {
			heap.Push(h, top) // stale: recounted lower than the next
			continue
		}
		if top.n <= 0 {
			break
		}
		c.masked[loops[top.k]] = true
		if free[top.k] && total < satMax {
			total = total - top.n + c.stmtCopies(blocks[top.k], idx[top.k])
		} else {
			total = recount()
		}
	}
	return total
}

// maskBeyondNodes keeps as loops (Options.Loops auto) the loops whose
// unrolling makes the twin more than Options.MaxUnrollNodes IR nodes
// larger than it would be with every loop kept: the loops that add the
// most first (an outer loop, which counts the copies of the loops it
// holds, before them), until what unrolling adds fits. Keeping a loop of
// f's own body outside every other loop (free) lowers the total by its
// own change alone; any other recounts the function, as maskBeyondCap
// does. It reports whether it kept any.
func (c *checker) maskBeyondNodes(f *ir.Func) bool {
	limit := int64(c.opts.MaxUnrollNodes)
	adds := func(n ir.Node) int64 { // what unrolling adds to n
		u, k := c.nodes(n, map[string][2]int64{})
		return u - k
	}
	added := adds(f.Body)
	if added <= limit {
		return false
	}
	loops, _, _, free := c.loopSites(f)
	type cand struct {
		k   int
		add int64 // what unrolling the loop adds, its inner loops' copies included
	}
	var cands []cand
	for k, l := range loops {
		if c.masked[l] || c.bounds[l] == nil || c.bounds[l].MaxEntries <= 1 {
			continue
		}
		if a := adds(l); a > 0 {
			cands = append(cands, cand{k, a})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return cmp.Compare(b.add, a.add) })
	kept := false
	for _, cd := range cands {
		if added <= limit {
			break
		}
		l := loops[cd.k]
		before := adds(l)
		c.masked[l] = true
		kept = true
		if free[cd.k] {
			added -= before - adds(l)
		} else {
			added = adds(f.Body)
		}
	}
	return kept
}

// nodes is n's size in IR nodes once unrolled, and its size with every
// loop kept: a loop counts its copies (its bound, or 1 when it is kept)
// of its body, continuing block and break-if, and a call the body of the
// function it calls (memo: the sizes of each function's body by name).
// Saturating, as the copy count.
func (c *checker) nodes(n ir.Node, memo map[string][2]int64) (unrolled, kept int64) {
	if l, ok := n.(*ir.Loop); ok {
		per := int64(1)
		if b := c.bounds[l]; b != nil && !c.masked[l] {
			per = int64(b.MaxEntries)
		}
		bu, bk := c.nodes(l.Body, memo)
		cu, ck := c.nodes(l.Continuing, memo)
		iu, ik := sat(bu+cu), sat(bk+ck)
		if l.BreakIf != nil {
			xu, xk := c.nodes(l.BreakIf, memo)
			iu, ik = sat(iu+xu), sat(ik+xk)
		}
		return sat(1 + satMul(per, iu)), sat(1 + ik)
	}
	if b, ok := n.(*ir.Block); ok && b == nil {
		return 0, 0
	}
	unrolled, kept = 1, 1
	if call, ok := n.(*ir.Call); ok {
		if g := c.m.Func(call.Func); g != nil {
			size, ok := memo[g.Name]
			if !ok {
				memo[g.Name] = [2]int64{} // no recursion reaches here (precheck)
				size[0], size[1] = c.nodes(g.Body, memo)
				memo[g.Name] = size
			}
			unrolled, kept = sat(unrolled+size[0]), sat(kept+size[1])
		}
	}
	ir.DoChildren(n, func(k ir.Node) bool {
		u, kk := c.nodes(k, memo)
		unrolled, kept = sat(unrolled+u), sat(kept+kk)
		return false
	})
	return unrolled, kept
}

// loopCount is a loop's index in maskBeyondCap's list and its copies;
// loopHeap orders them most copies first, then by index.
type loopCount struct {
	k int
	n int64
}

type loopHeap struct{ items []loopCount }

// before reports whether a is masked before b.
func before(a, b loopCount) bool { return a.n > b.n || a.n == b.n && a.k < b.k }

func (h *loopHeap) Len() int           { return len(h.items) }
func (h *loopHeap) Less(i, j int) bool { return before(h.items[i], h.items[j]) }
func (h *loopHeap) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *loopHeap) Push(x any)         { h.items = append(h.items, x.(loopCount)) }
func (h *loopHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

const satMax = int64(1) << 40

func sat(x int64) int64 { return min(x, satMax) }

func satMul(a, b int64) int64 {
	if a != 0 && b > satMax/a {
		return satMax
	}
	return sat(a * b)
}

func (c *checker) blockCopies(b *ir.Block) int64 {
	var n int64
	for i := range b.Stmts {
		n = sat(n + c.stmtCopies(b, i))
	}
	return n
}

func (c *checker) stmtCopies(b *ir.Block, i int) int64 {
	switch s := b.Stmts[i].(type) {
	case *ir.Loop:
		per := int64(1)
		if !c.masked[s] {
			per = int64(c.bounds[s].MaxEntries)
		}
		inner := sat(c.blockCopies(s.Body) + c.blockCopies(s.Continuing))
		if s.BreakIf != nil {
			inner = sat(inner + c.exprCopies(s.BreakIf))
		}
		return sat(per + satMul(per, inner))
	case *ir.If:
		return sat(c.exprCopies(s.Cond) + c.blockCopies(s.Then) + c.blockCopies(s.Else))
	case *ir.Switch:
		n := c.exprCopies(s.Selector)
		for _, cs := range s.Cases {
			n = sat(n + c.blockCopies(cs.Body))
		}
		return n
	case *ir.Block:
		return c.blockCopies(s)
	}
	return c.exprCopies(b.Stmts[i])
}

// exprCopies counts the copies the callees called in n create.
func (c *checker) exprCopies(n ir.Node) int64 {
	var total int64
	ir.Inspect(n, func(x ir.Node) bool {
		if call, ok := x.(*ir.Call); ok {
			total = sat(total + c.funcCopies(call.Func))
		}
		return true
	})
	return total
}

func (c *checker) funcCopies(name string) int64 {
	if n, ok := c.memo[name]; ok {
		return n
	}
	c.memo[name] = 0
	n := c.blockCopies(c.m.Func(name).Body)
	c.memo[name] = n
	return n
}
