package shrink

import (
	"strings"
	"sync"

	"github.com/gpudiff/gpudiff/ir"
)

// Case is a failing (or to-be-checked) case: a module, the kernel under
// test and the kernel's arguments, Args[invocation][param] (nil when the
// caller derives arguments itself, as the gopter shrinker does).
//
// A draw (ARCHITECTURE.md "Render pipelines (draws)") is a fragment entry
// point as Kernel and its vertex entry point as Vertex. With Vertex
// empty and Kernel a fragment entry point of a module without compute
// entry points, every vertex entry point of the module is the draw's
// (what makes the module a draw: wgsl.IsDrawMode). Every candidate of a
// draw keeps its vertex entry points with their IO as written — the
// draw's vertex buffers and the varyings stay theirs — and the
// fragment's outputs (its colour attachments); the fragment may lose an
// input it does not read, so the pair still passes wgsl.CheckInterface.
// Either body shrinks.
type Case struct {
	Module *ir.Module
	Kernel string
	Args   [][]ir.Value
	// Vertex is a draw's vertex entry point ("": inferred, above).
	Vertex string
}

// vertexEntries returns the vertex entry points c draws Kernel with:
// Vertex, or the module's vertex entry points when Vertex is "" and
// Kernel is a fragment entry point of a module without compute entry
// points (Case); nil for every other case.
func (c Case) vertexEntries() []string {
	if c.Vertex != "" {
		return []string{c.Vertex}
	}
	k := c.Module.Func(c.Kernel)
	if k == nil || k.Stage != ir.StageFragment {
		return nil
	}
	var out []string
	for _, e := range c.Module.EntryPoints() {
		switch e.Stage {
		case ir.StageCompute:
			return nil
		case ir.StageVertex:
			out = append(out, e.Name)
		}
	}
	return out
}

// roots returns the entry points c's candidates keep: Kernel, then the
// draw's vertex entry points.
func (c Case) roots() []string { return append([]string{c.Kernel}, c.vertexEntries()...) }

// callGraph returns the functions of m that one of roots reaches (roots
// included), in module order.
func callGraph(m *ir.Module, roots []string) []*ir.Func {
	reach := map[string]bool{}
	for _, r := range roots {
		for _, f := range m.CallGraph(r) {
			reach[f.Name] = true
		}
	}
	var out []*ir.Func
	for _, f := range m.Funcs {
		if reach[f.Name] {
			out = append(out, f)
		}
	}
	return out
}

// cyclic reports whether one of roots reaches recursion.
func cyclic(m *ir.Module, roots []string) bool {
	for _, r := range roots {
		if m.FindCycle(r) != nil {
			return true
		}
	}
	return false
}

// Candidates returns c's one-step smaller variants, most aggressive
// first (see Stream for the edits and what every candidate guarantees).
// It is deterministic: equal cases give equal candidate lists.
func Candidates(c Case) []Case {
	var out []Case
	next := Stream(c)
	for {
		cand, ok := next()
		if !ok {
			return out
		}
		out = append(out, cand)
	}
}

// Stream returns c's one-step smaller variants one at a time, most
// aggressive first, computing each only when asked (what gopter's
// shrinker and Minimize want: most candidates are never needed). The
// edits, in order:
//
//  1. keep one invocation (each in turn, the first first), then either
//     half of them; for a compute entry point, shrink its workgroup to
//     one invocation, then halve each @workgroup_size dimension
//     (entry.go);
//  2. empty a block (biggest first; a loop keeps its exit test and
//     counter update, a function its final return);
//  3. drop one statement (biggest first), or keep only its value as a
//     phony assignment `_ = e` (declarations, assignments, if
//     conditions, switch selectors);
//  4. replace an if by its then or its else arm, a switch by one of its
//     clauses (when nothing in it breaks out of the switch), drop a
//     clause, unwrap a bare block;
//  5. cut a bounded loop's trip count (move its counter's constant start
//     towards the limit), or replace a loop by one copy of its body when
//     nothing in the body breaks out of or continues it;
//  6. inline a call of a helper called exactly once whose only return is
//     its last statement;
//  7. drop an unused parameter (with its column of Args when it is the
//     kernel's, with the arguments at call sites otherwise);
//  8. drop a struct member no expression reads or writes; make a
//     var<workgroup> without atomics a var<private>; drop every barrier
//     at once (entry.go);
//  9. replace an expression by a same-typed operand of it, by the
//     constant 0 or 1, or by a parameter of the same type; replace every
//     copy of an expression that occurs more than once in a function by
//     the constant 0 or 1 at once (repeatedExprEdits).
//
// A draw's vertex entry point (Case) is edited as the kernel is (edit 7
// aside: its parameters are the draw's vertex inputs), and the edits that
// would change the pair's IO are not candidates.
//
// After each edit, functions the kernel (or a draw's vertex entry point)
// does not reach, globals and var<workgroup>s no function uses and
// structs no type mentions are dropped, and the module is normalized
// (ir.Normalize). A candidate is offered only when it passes ir.Verify,
// still has the kernel with arguments matching its parameters (and a
// draw's vertex entry point, the IO of both as Case says), is strictly
// smaller (functions, then nodes, then loop trip counts, then
// literal magnitudes, then invocations and workgroup invocations), has no more loops ir.BoundLoop
// cannot bound, no recursion if c had none and no more const-expression or
// indeterminacy hazards than c (see hazards). Edits never change the
// inside of an unbounded loop or of a recursive function (see frozen), so
// every candidate of a terminating case terminates.
//
// Candidates are not semantics-preserving (that is the point): a
// candidate may compute anything, including values outside the exact
// float domain; stillFails decides whether it keeps the failure.
func Stream(c Case) func() (Case, bool) {
	if c.Module == nil || c.Module.Func(c.Kernel) == nil {
		return func() (Case, bool) { return Case{}, false }
	}
	if v := c.Vertex; v != "" && (c.Module.Func(v) == nil || c.Module.Func(v).Stage != ir.StageVertex) {
		return func() (Case, bool) { return Case{}, false }
	}
	base := newBaseline(c)
	edits := plan(c)
	i := 0
	return func() (Case, bool) {
		for i < len(edits) {
			e := edits[i]
			i++
			if cand, ok := base.materialize(e); ok {
				return cand, true
			}
		}
		return Case{}, false
	}
}

// Minimize shrinks c greedily: it takes the first candidate (Stream order)
// for which stillFails holds and starts over from it, until no candidate
// fails (a local minimum) or stillFails has been called maxAttempts times
// (≤ 0: no limit). It returns the smallest case found, which is c itself
// when no candidate fails: every case it returns other than c made
// stillFails return true. c must fail; Minimize does not re-check it.
// Candidates already rejected (same program text and arguments) are not
// run again.
func Minimize(c Case, stillFails func(Case) bool, maxAttempts int) Case {
	return MinimizeParallel(c, stillFails, maxAttempts, 1)
}

// MinimizeParallel is Minimize with up to workers calls of stillFails at
// once (stillFails must be safe for concurrent use and, for the result to
// be Minimize's, deterministic): it evaluates the next workers untried
// candidates of the Stream together and takes the first, in Stream order,
// for which stillFails holds. Its result and the attempts it counts
// against maxAttempts are Minimize's for any workers: an attempt counts
// only when Minimize would have made it (the candidates after the first
// success of a window are not counted, and their verdicts are kept for
// when a later Stream offers them again), and a window never holds more
// candidates than the attempts left.
func MinimizeParallel(c Case, stillFails func(Case) bool, maxAttempts, workers int) Case {
	workers = max(workers, 1)
	cur := c
	attempts := 0
	tried := map[string]bool{}
	known := map[string]bool{} // verdicts of candidates evaluated ahead, not yet counted
	type item struct {
		c   Case
		key string
		ok  bool
	}
	for {
		next := Stream(cur)
		improved := false
		for !improved {
			n := workers
			if maxAttempts > 0 {
				n = min(n, maxAttempts-attempts)
			}
			var window []item
			inWindow := map[string]bool{}
			for len(window) < n {
				cand, ok := next()
				if !ok {
					break
				}
				key := fingerprint(cand)
				if tried[key] || inWindow[key] {
					continue
				}
				inWindow[key] = true
				window = append(window, item{c: cand, key: key})
			}
			if len(window) == 0 {
				// No candidate left, or no attempt left for the next one.
				return cur
			}
			var wg sync.WaitGroup
			for w := range window {
				if v, ok := known[window[w].key]; ok {
					window[w].ok = v
					continue
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					window[w].ok = stillFails(window[w].c)
				}()
			}
			wg.Wait()
			for _, it := range window {
				if improved {
					known[it.key] = it.ok
					continue
				}
				attempts++
				tried[it.key] = true
				delete(known, it.key)
				if it.ok {
					cur = it.c
					improved = true
				}
			}
			if !improved && len(window) < n {
				return cur // the Stream ran out
			}
		}
	}
}

func fingerprint(c Case) string {
	var b strings.Builder
	b.WriteString(ir.Print(c.Module))
	b.WriteString("\x00")
	b.WriteString(c.Kernel)
	b.WriteString("\x00")
	b.WriteString(c.Vertex)
	for _, inv := range c.Args {
		b.WriteString("\x00")
		for _, v := range inv {
			b.WriteString(v.String())
			b.WriteString(",")
		}
	}
	return ir.Hash(b.String())
}

// Stmts returns the number of statements of kernel's call graph: every
// statement except blocks (so `if (c) { s; }` counts 2), in the kernel and
// every function it reaches (and in those of more entry points, a draw's
// vertex entry point: each function once). It is the measure of "small"
// in acceptance criteria (a shrunk case of ≤ 10 statements).
func Stmts(m *ir.Module, kernel string, more ...string) int {
	n := 0
	for _, f := range callGraph(m, append([]string{kernel}, more...)) {
		ir.Inspect(f.Body, func(x ir.Node) bool {
			switch x.(type) {
			case *ir.Block:
				return true
			case ir.Stmt:
				n++
				return true
			case *ir.Case:
				return true
			}
			return false
		})
	}
	return n
}

// baseline is what candidates of one case are checked against.
type baseline struct {
	c         Case
	roots     []string // c.roots()
	size      measure
	unbounded int
	hazards   int
	cyclic    bool
	// io: a draw's entry points' IO as candidates must keep it (drawIO).
	io *drawSig
}

func newBaseline(c Case) *baseline {
	roots := c.roots()
	return &baseline{
		c:         c,
		roots:     roots,
		size:      measureOf(c),
		unbounded: unbounded(c.Module, roots...),
		hazards:   hazards(c.Module, roots...),
		cyclic:    cyclic(c.Module, roots),
		io:        drawIO(c.Module, roots),
	}
}

// copyCase deep-copies c's module (ir.CloneModule) and the Args slices.
func copyCase(c Case) Case {
	d := Case{Module: ir.CloneModule(c.Module), Kernel: c.Kernel, Vertex: c.Vertex}
	if c.Args != nil {
		d.Args = make([][]ir.Value, len(c.Args))
		for i, inv := range c.Args {
			d.Args[i] = append(make([]ir.Value, 0, len(inv)), inv...)
		}
	}
	return d
}

// materialize applies e to a copy of the baseline case and returns the
// candidate when it is valid and strictly smaller.
func (b *baseline) materialize(e edit) (cand Case, ok bool) {
	defer func() {
		// An edit that trips over an IR invariant is simply not a
		// candidate; the shrinker must never take the campaign down.
		if r := recover(); r != nil {
			ok = false
		}
	}()
	d := copyCase(b.c)
	if !e.apply(&d) {
		return Case{}, false
	}
	cleanup(d.Module, b.roots)
	for _, f := range d.Module.Funcs {
		dropAfterFinishedBlocks(f.Body)
	}
	if err := ir.Normalize(d.Module); err != nil {
		return Case{}, false
	}
	k := d.Module.Func(d.Kernel)
	if k == nil || !argsFit(d.Args, k.Params) {
		return Case{}, false
	}
	if !sameDrawIO(drawIO(d.Module, b.roots), b.io) {
		return Case{}, false
	}
	if !measureOf(d).less(b.size) {
		return Case{}, false
	}
	if unbounded(d.Module, b.roots...) > b.unbounded {
		return Case{}, false
	}
	if !b.cyclic && cyclic(d.Module, b.roots) {
		return Case{}, false
	}
	if hazards(d.Module, b.roots...) > b.hazards {
		return Case{}, false
	}
	return d, true
}

func argsFit(args [][]ir.Value, ps []*ir.Param) bool {
	for _, inv := range args {
		if len(inv) != len(ps) {
			return false
		}
		for j, v := range inv {
			if !ir.Identical(v.Type, ps[j].T) {
				return false
			}
		}
	}
	return true
}

// cleanup drops what the roots (the kernel, a draw's vertex entry
// point) cannot observe: functions outside their call graphs, globals no
// remaining function uses, structs no remaining type mentions. Opaque
// declarations stay.
func cleanup(m *ir.Module, roots []string) {
	live := map[string]bool{}
	for _, f := range callGraph(m, roots) {
		live[f.Name] = true
	}
	fs := m.Funcs[:0]
	for _, f := range m.Funcs {
		if live[f.Name] {
			fs = append(fs, f)
		}
	}
	m.Funcs = fs

	usedG := map[string]bool{}
	usedS := map[string]bool{}
	var noteType func(t *ir.Type)
	noteType = func(t *ir.Type) {
		if t == nil {
			return
		}
		switch t.Kind {
		case ir.KindVec, ir.KindArray:
			noteType(t.Elem)
		case ir.KindStruct:
			if !usedS[t.Struct.Name] {
				usedS[t.Struct.Name] = true
				for _, f := range t.Struct.Fields {
					noteType(f.Type)
				}
			}
		}
	}
	for _, f := range m.Funcs {
		for _, p := range f.Params {
			noteType(p.T)
		}
		noteType(f.Result)
		ir.Inspect(f.Body, func(n ir.Node) bool {
			switch x := n.(type) {
			case *ir.Ident:
				if x.Ref == ir.RefGlobal {
					usedG[x.Name] = true
				}
			case *ir.Decl:
				noteType(x.T)
			}
			if e, ok := n.(ir.Expr); ok {
				noteType(e.Type())
			}
			return true
		})
	}
	gs := m.Globals[:0]
	for _, g := range m.Globals {
		if usedG[g.Name] {
			gs = append(gs, g)
			noteType(g.T)
		}
	}
	m.Globals = gs
	dropUnusedWorkgroupVars(m)
	for _, v := range m.Shared {
		noteType(v.T) // bindings stay, used or not (a case's inputs name them)
	}
	ss := m.Structs[:0:0]
	for _, s := range m.Structs {
		if usedS[s.Name] {
			ss = append(ss, s)
		}
	}
	m.Structs = ss
}

// edit is one planned change, applied to a private copy of the case.
type edit struct {
	what  string
	apply func(c *Case) bool
}

func (e edit) String() string { return e.what }

// finishes reports whether s always jumps: a break, continue or return,
// or a bare block whose last statement finishes.
func finishes(s ir.Stmt) bool {
	if ir.IsJump(s) {
		return true
	}
	b, ok := s.(*ir.Block)
	return ok && len(b.Stmts) > 0 && finishes(b.Stmts[len(b.Stmts)-1])
}

// dropAfterFinishedBlocks removes the statements after a bare block that
// always jumps (dead code ir.Normalize keeps, and that naga rejects:
// "instructions after return"), in every block under n.
func dropAfterFinishedBlocks(n ir.Node) {
	if b, ok := n.(*ir.Block); ok {
		for i, s := range b.Stmts {
			if finishes(s) {
				b.Stmts = b.Stmts[:i+1]
				break
			}
		}
	}
	ir.DoChildren(n, func(c ir.Node) bool {
		if _, isExpr := c.(ir.Expr); !isExpr {
			dropAfterFinishedBlocks(c)
		}
		return false
	})
}
