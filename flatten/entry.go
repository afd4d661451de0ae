package flatten

// Compute entry points (doc.go "Entry points"): accesses to shared memory
// guarded by the predicate, barriers kept where control is uniform, and
// loops bounded by evaluating their counter.

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// sharedWritable reports whether id names a shared variable another
// invocation may write: var<workgroup> or var<storage, read_write>.
// Reads of read-only bindings (var<storage, read>, var<uniform>) are like
// reads of private values: nothing writes them during a dispatch.
func (l *lowerer) sharedWritable(id *ir.Ident) bool {
	if id == nil || id.Ref != ir.RefShared {
		return false
	}
	v := l.m.SharedVar(id.Name)
	return v == nil || v.Writable()
}

// guarded emits `if (p) { s }`: the one form of control flow an entry
// point's twin holds (isGuard). p is the effective predicate, neither nil
// nor false.
//
// Only a compute twin keeps guards (isGuard): elsewhere — a fragment
// entry point's twin that reads or writes var<storage, read_write> or a
// read_write storage texture, which WebGPU allows but flatten's render
// stages leave out (the front end's DrawFragmentEntry refuses them), or
// a helper flattened on its own — the access is refused, positioned.
func (l *lowerer) guarded(p ir.Expr, s ir.Stmt) {
	pos := s.Position()
	if !l.entry {
		l.errorf(pos, "an access to writable memory under a predicate outside a compute entry point: only a compute twin keeps the guard it needs (doc.go \"Entry points\"); flatten's render stages read only read-only bindings")
		return
	}
	l.emit(&ir.If{Pos: pos, Cond: ir.CloneExpr(p), Then: ir.NewBlock(pos, s), Else: ir.NewBlock(pos)})
}

// access binds the value of an access to shared memory, x (a load or an
// atomic), where the source evaluates it: `let name = x;` where the
// effective predicate is statically true, else `var name: T;
// if (P) { name = x; }`, whose value where P is false (zero) is never
// selected. A statically dead access is not emitted; its value is zero.
func (l *lowerer) access(x ir.Expr, t *ir.Type) ir.Expr {
	pos := x.Position()
	p := l.pred()
	if isFalse(p) {
		return &ir.Lit{Pos: pos, Val: ir.Zero(t)}
	}
	name := l.fresh("ld", tempShared)
	if p == nil {
		l.emit(&ir.Decl{Pos: pos, Name: name, T: t, Init: x})
		return &ir.Ident{Pos: pos, Name: name, T: t, Ref: ir.RefLet}
	}
	l.emit(&ir.Decl{Pos: pos, Name: name, T: t, Mutable: true})
	l.guarded(p, &ir.Assign{Pos: pos, LHS: &ir.Ident{Pos: pos, Name: name, T: t, Ref: ir.RefVar}, RHS: x})
	return &ir.Ident{Pos: pos, Name: name, T: t, Ref: ir.RefVar}
}

// sharedLoad loads the translated reference ref (rooted at a writable
// shared variable) as an access.
func (l *lowerer) sharedLoad(ref ir.Expr) ir.Expr {
	return l.access(l.fold(ref, true), ref.Type())
}

// sharedStore stores val to the shared reference ref under the predicate
// e: a plain store where e is statically true, else `if (e) { ref = val; }`
// — never ref = select(ref, val, e), which would read and write back the
// location in invocations the source keeps away from it.
func (l *lowerer) sharedStore(ref, val, e ir.Expr, pos ir.Pos) {
	if !l.writeAfterDemote(pos) {
		return
	}
	switch {
	case e == nil:
		l.emit(&ir.Assign{Pos: pos, LHS: ref, RHS: val})
	case isFalse(e):
	default:
		l.guarded(e, &ir.Assign{Pos: pos, LHS: ref, RHS: val})
	}
}

// atomic lowers an atomic builtin: its pointer operand is a reference
// (indexes evaluated, never loaded), its value operands are translated
// left to right, and the atomic itself runs only under the predicate
// (access). stmt: the value is unused (an expression statement).
func (l *lowerer) atomic(x *ir.Atomic, stmt bool) ir.Expr {
	if !l.writeAfterDemote(x.Pos) {
		return &ir.Lit{Pos: x.Pos, Val: ir.Zero(x.T)}
	}
	args := make([]ir.Expr, len(x.Args))
	args[0] = l.ref(x.Args[0], anyCall(x.Args[1:]))
	for i, a := range x.Args[1:] {
		args[i+1] = l.translate(a)
		if readsGlobal(args[i+1]) && anyCall(x.Args[i+2:]) {
			args[i+1] = l.bindAlways("v", l.finish(args[i+1]))
		}
	}
	for i := range args[1:] {
		args[i+1] = l.finish(args[i+1])
	}
	a := &ir.Atomic{Pos: x.Pos, Op: x.Op, Args: args, T: x.T}
	if x.T.IsVoid() || stmt {
		switch p := l.pred(); {
		case p == nil:
			l.emit(&ir.ExprStmt{Pos: x.Pos, X: a})
		case isFalse(p):
		default:
			l.guarded(p, &ir.ExprStmt{Pos: x.Pos, X: a})
		}
		return nil
	}
	if x.Op == ir.AtomicCompareExchangeWeak && l.pred() != nil && !isFalse(l.pred()) {
		l.errorf(x.Pos, "%s under a predicate: its result type (a predeclared struct) cannot be declared in WGSL, so flatten cannot guard it (assign its members to variables under a uniform condition, or make the condition statically true)", x.Op)
		return &ir.Lit{Pos: x.Pos, Val: ir.Zero(x.T)}
	}
	return l.access(a, x.T)
}

// barrier keeps a barrier of an entry point where every invocation of a
// workgroup reaches it exactly when the source's does: as written where
// the effective predicate is statically true, as `if (P) { barrier; }`
// where P is uniform (checked by checkBarriers once the whole twin is
// lowered), and nowhere where P is statically false. A barrier under a
// non-uniform predicate is refused. It reports false (the caller emits
// nothing itself).
func (l *lowerer) barrier(x *ir.BuiltinCall) bool {
	p := l.pred()
	b := &ir.ExprStmt{Pos: x.Pos, X: &ir.BuiltinCall{Pos: x.Pos, Fn: x.Fn, T: x.T}}
	switch {
	case p == nil:
		l.emit(b)
	case isFalse(p):
	default:
		// Kept as a guard; whether P is uniform is WGSL's analysis's to
		// say, over the whole twin (checkBarriers).
		l.guarded(p, b)
		l.pending = append(l.pending, pendingBarrier{pos: x.Pos, fn: x.Fn})
	}
	return false
}

// uniformLoad keeps workgroupUniformLoad(&R) (a barrier, a load, a
// barrier; WGSL #workgroupUniformLoad-builtin) as written where the
// effective predicate is statically true: its reference's indices are
// uniform (the front end checks them), so the twin's call is the
// source's. Under a predicate P it is an access, `var v: T; if (P) { v =
// workgroupUniformLoad(&R); }`, kept only where P is uniform, as a
// barrier's guard is (checkBarriers): a helper that returns early, or an
// if on a uniform value around it. Nowhere where P is statically false.
func (l *lowerer) uniformLoad(x *ir.BuiltinCall) ir.Expr {
	call := &ir.BuiltinCall{Pos: x.Pos, Fn: x.Fn, Args: []ir.Expr{l.ref(x.Args[0], false)}, T: x.T}
	p := l.pred()
	if p == nil {
		return call
	}
	if !isFalse(p) {
		l.pending = append(l.pending, pendingBarrier{pos: x.Pos, fn: x.Fn})
	}
	return l.access(call, x.T)
}

// pendingBarrier is a barrier guard of the twin, `if (P) { barrier; }`,
// whose uniformity is checked once the whole twin is lowered
// (checkBarriers).
type pendingBarrier struct {
	pos ir.Pos
	fn  ir.Builtin
	// quad names a fragment twin's derivative or implicit-LOD sampler
	// whose predicate the guard probes (quad.go); "" for a barrier.
	quad string
}

// twinModule returns a module that holds the twin alone beside m's
// declarations (the twin calls nothing), for ir.Uniformity.
func twinModule(m *ir.Module, twin *ir.Func) *ir.Module {
	tm := *m
	tm.Funcs = []*ir.Func{twin}
	return &tm
}

// checkBarriers refuses the twin's barrier guards whose predicate is not
// uniform, by WGSL's own uniformity analysis (ir.Uniformity, the one the
// front end runs) over the twin: a twin that analysis rejects is one no
// WGSL implementation accepts, and one it accepts keeps every barrier
// where all invocations of a workgroup reach it together. A failure
// anywhere else (the analysis stops at a function's first) is refused at
// its position too. A fragment twin's probes (quad.go) are checked the
// same way, each refused with what it probes.
func checkBarriers(m *ir.Module, twin *ir.Func, pending []pendingBarrier) ir.ErrorList {
	if len(pending) == 0 {
		return nil
	}
	u := ir.Uniformity(twinModule(m, twin), ir.UniformityOptions{Pass: "flatten"})
	var errs ir.ErrorList
	for _, e := range u.Errors {
		msg := e.Msg
		for _, b := range pending {
			if b.pos == e.Pos && b.quad != "" {
				msg = fmt.Sprintf("%s under a predicate that may differ between the invocations of a quad: the twin evaluates it unconditionally, which is exact only where its condition is uniform (WGSL #uniformity), and it reads a per-invocation value (a fragment input, a private global, a derivative, or the mask of a loop whose exit is per invocation); take it before the condition (a sample there as textureSampleGrad with derivatives taken before it, or textureSampleLevel), or make the condition uniform", b.quad)
				break
			}
			if b.pos == e.Pos {
				msg = fmt.Sprintf("%s under non-uniform control flow: whether an invocation reaches it depends on a per-invocation value (an invocation id, workgroup or read_write storage memory, or an atomic), so predication cannot keep it (WGSL #uniformity)", b.fn)
			}
		}
		errs.Add(m.File, e.Pos, "flatten", "%s", msg)
	}
	return errs
}

// loopIsUniform reports whether the kept loop lp of the twin has a
// uniform mask, so that every invocation of a workgroup iterates it
// together: WGSL's analysis (ir.Uniformity) accepts a barrier at the
// start of its body, and, for a function kernel (whose arguments differ
// per invocation), requires no parameter to be uniform.
func loopIsUniform(m *ir.Module, twin *ir.Func, lp *ir.Loop) bool {
	saved := lp.Body.Stmts
	lp.Body.Stmts = append([]ir.Stmt{&ir.ExprStmt{Pos: lp.Pos, X: &ir.BuiltinCall{Pos: lp.Pos, Fn: ir.BWorkgroupBarrier, T: ir.Void}}}, saved...)
	defer func() { lp.Body.Stmts = saved }()
	u := ir.Uniformity(twinModule(m, twin), ir.UniformityOptions{})
	if len(u.Errors) > 0 {
		return false
	}
	if twin.Stage != ir.StageCompute {
		for i := range twin.Params {
			if req, _ := u.ParamRequired(twin.Name, i); req {
				return false
			}
		}
	}
	return true
}

// isGuard reports whether s is a guard of an entry point's twin:
// `if (c) { s1 }` with an empty else and s1 an access to shared memory —
// a barrier, an atomic statement, a store to a shared variable, or the
// assignment of a load, an atomic or a workgroupUniformLoad to a local.
func isGuard(s ir.Stmt) bool {
	x, ok := s.(*ir.If)
	if !ok || len(x.Else.Stmts) != 0 || len(x.Then.Stmts) != 1 {
		return false
	}
	switch y := x.Then.Stmts[0].(type) {
	case *ir.ExprStmt:
		switch z := y.X.(type) {
		case *ir.Atomic, *ir.TextureCall:
			return true
		case *ir.BuiltinCall:
			return z.Fn.Info().Class == ir.ClassBarrier
		}
	case *ir.Assign:
		r := ir.RootIdent(y.LHS)
		if r == nil || y.Op != ir.OpNone {
			return false
		}
		if r.Ref == ir.RefShared {
			return true
		}
		if _, ok := y.LHS.(*ir.Ident); !ok {
			return false
		}
		switch z := y.RHS.(type) {
		case *ir.Atomic, *ir.TextureCall:
			return true
		case *ir.BuiltinCall:
			return z.Fn == ir.BWorkgroupUniformLoad
		default:
			root := ir.RootIdent(z)
			return root != nil && root.Ref == ir.RefShared && ir.IsReference(z)
		}
	}
	return false
}

// guardInner returns the statement a guard guards.
func guardInner(s *ir.If) ir.Stmt { return s.Then.Stmts[0] }

// evalBound bounds the Loop at b.Stmts[i] of an entry point by
// evaluating its counter: a var k set to a literal before the loop in
// the same block (its declaration or the last top-level assignment
// before the loop, nothing else assigning it there), updated in exactly
// one statement of the loop, a top-level assignment of its continuing
// block whose value reads only k and literals (k = k / 2u, k *= 2u,
// k = k << 1u: the strides of reductions and scans, which ir.BoundLoop's
// constant steps do not cover), and an exit test that reads only k and
// literals: the body's first statement `if (E) { break; }` or the
// break-if. The counter's values are then constants: the loop is entered
// exactly as often as the evaluation says, in every invocation (other
// exits only leave earlier). seq holds k's value at the entry of each
// copy and one more. The evaluation stops after max entries.
func evalBound(b *ir.Block, i, max int) (*ir.LoopBound, []ir.Value, bool) {
	lp := b.Stmts[i].(*ir.Loop)
	var exit ir.Expr
	first := false
	if n := len(lp.Body.Stmts); n > 0 {
		if iff, ok := lp.Body.Stmts[0].(*ir.If); ok && len(iff.Else.Stmts) == 0 && len(iff.Then.Stmts) == 1 {
			if _, ok := iff.Then.Stmts[0].(*ir.Break); ok {
				exit, first = iff.Cond, true
			}
		}
	}
	if exit == nil {
		exit = lp.BreakIf
	}
	if exit == nil {
		return nil, nil, false
	}
	for _, s := range lp.Continuing.Stmts {
		a, ok := s.(*ir.Assign)
		if !ok {
			continue
		}
		k, ok := a.LHS.(*ir.Ident)
		if !ok || k.Ref != ir.RefVar || !k.T.IsInteger() {
			continue
		}
		upd := a.RHS
		if a.Op != ir.OpNone {
			t, err := ir.BinaryResultType(a.Op, k.T, a.RHS.Type())
			if err != nil {
				continue
			}
			upd = &ir.Binary{Pos: a.Pos, Op: a.Op, X: k, Y: a.RHS, T: t}
		}
		if !onlyReads(upd, k.Name) || !onlyReads(exit, k.Name) || assignCount(lp, k.Name) != 1 {
			continue
		}
		start, ok := startValue(b, i, k.Name)
		if !ok {
			continue
		}
		eval := func(e ir.Expr, v ir.Value) (ir.Value, bool) {
			f := &folder{lookup: func(id *ir.Ident) (ir.Value, bool) {
				if id.Name == k.Name && id.Ref == ir.RefVar {
					return v, true
				}
				return ir.Value{}, false
			}}
			return litVal(f.expr(ir.CloneExpr(e)))
		}
		seq := []ir.Value{start}
		v := start
		for n := 1; n <= max; n++ {
			test := v
			if !first {
				nv, ok := eval(upd, v)
				if !ok {
					break
				}
				test = nv
			}
			c, ok := eval(exit, test)
			if !ok {
				break
			}
			nv, ok := eval(upd, v)
			if !ok {
				break
			}
			if c.Bool() {
				seq = append(seq, nv)
				return &ir.LoopBound{MaxEntries: n, Counter: k.Name}, seq, true
			}
			v = nv
			seq = append(seq, v)
		}
	}
	return nil, nil, false
}

// onlyReads reports whether e reads no identifier but name.
func onlyReads(e ir.Expr, name string) bool {
	return !ir.Any(e, func(n ir.Node) bool {
		switch x := n.(type) {
		case *ir.Ident:
			return x.Name != name
		case *ir.Call, *ir.Atomic:
			return true
		}
		return false
	})
}

// assignCount counts the assignments to the local name in n.
func assignCount(n ir.Node, name string) int {
	c := 0
	ir.Inspect(n, func(k ir.Node) bool {
		if a, ok := k.(*ir.Assign); ok {
			if r := ir.RootIdent(a.LHS); r != nil && r.Name == name {
				c++
			}
		}
		return true
	})
	return c
}

// startValue returns the literal name holds when the Loop at b.Stmts[i]
// starts: its declaration's or a top-level whole assignment's, with no
// other assignment to it in between.
func startValue(b *ir.Block, i int, name string) (ir.Value, bool) {
	for j := i - 1; j >= 0; j-- {
		switch x := b.Stmts[j].(type) {
		case *ir.Decl:
			if x.Name == name {
				if x.Init == nil {
					return ir.Zero(x.T), true
				}
				return litVal(x.Init)
			}
		case *ir.Assign:
			if id, ok := x.LHS.(*ir.Ident); ok && id.Name == name && x.Op == ir.OpNone {
				return litVal(x.RHS)
			}
		}
		if assignCount(b.Stmts[j], name) > 0 {
			return ir.Value{}, false
		}
	}
	return ir.Value{}, false
}
