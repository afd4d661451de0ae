package flatten

// The lowerer's expressions: evaluation order, inlined calls, guarded
// indexes.

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// ---- expressions ----

// expr translates e into the twin: calls inlined (their statements
// emitted first), names renamed, constants substituted and folded, and
// dynamic indexes guarded.
func (l *lowerer) expr(e ir.Expr) ir.Expr { return l.finish(l.translate(e)) }

// finish folds (with constant substitution) and guards a translated
// expression.
func (l *lowerer) finish(e ir.Expr) ir.Expr { return l.guard(l.fold(e, true)) }

func (l *lowerer) fold(e ir.Expr, subst bool) ir.Expr {
	f := &folder{}
	if subst {
		f.lookup = func(id *ir.Ident) (ir.Value, bool) {
			if id.Ref == ir.RefGlobal {
				return ir.Value{}, false
			}
			v, ok := l.consts[id.Name]
			return v, ok
		}
	}
	return f.expr(e)
}

func (l *lowerer) ident(x *ir.Ident) *ir.Ident {
	if x.Ref.IsModuleScope() {
		return &ir.Ident{Pos: x.Pos, Name: x.Name, T: x.T, Ref: x.Ref}
	}
	tw, ok := l.fr.names[x.Name]
	if !ok {
		panic(fmt.Sprintf("flatten: %s %s not declared", x.Ref, x.Name))
	}
	return &ir.Ident{Pos: x.Pos, Name: tw.Name, T: tw.T, Ref: tw.Ref}
}

// translate renames e into twin names and inlines its calls. WGSL
// evaluates operands left to right: an operand evaluated before a call
// that reads a private global (the only state a callee can write) is
// bound to a let before the call's body is emitted.
func (l *lowerer) translate(e ir.Expr) ir.Expr {
	switch x := e.(type) {
	case *ir.Lit:
		return &ir.Lit{Pos: x.Pos, Val: x.Val.Clone()}
	case *ir.Ident:
		if l.sharedWritable(x) {
			return l.sharedLoad(l.ident(x))
		}
		return l.ident(x)
	case *ir.Call:
		return l.call(x)
	case *ir.BuiltinCall:
		if x.Fn == ir.BWorkgroupUniformLoad && l.entry {
			return l.uniformLoad(x)
		}
		if isSubgroup(x.Fn) {
			return l.subgroupCall(x) // subgroup.go
		}
		l.checkUniform(x)
	case *ir.Binary:
		if (x.Op == ir.OpLogAnd || x.Op == ir.OpLogOr) && hasSubgroup(x.Y) {
			return l.shortCircuit(x) // subgroup.go
		}
	case *ir.Atomic:
		return l.atomic(x, false)
	case *ir.TextureCall:
		return l.textureCall(x, false)
	case *ir.ArrayLength:
		return &ir.ArrayLength{Pos: x.Pos, X: l.ref(x.X, false)}
	case *ir.Index, *ir.Member, *ir.Swizzle:
		if root := ir.RootIdent(e); root != nil && root.Ref.Mutable() {
			return l.translateChain(e, root)
		}
	}
	return l.translateOperands(e)
}

// translateOperands is translate's general case: e with its operands
// translated left to right, one that reads a private global bound to a
// let when a later operand calls a function.
func (l *lowerer) translateOperands(e ir.Expr) ir.Expr {
	var ob, kb ir.Operands
	orig := ir.ExprOperands(e, &ob)
	last := -1
	for i, k := range orig {
		if ir.HasCall(k) {
			last = i
		}
	}
	kids := kb.Slots(len(orig))
	for i, k := range orig {
		kids[i] = l.translate(k)
		if i < last && readsGlobal(kids[i]) {
			kids[i] = l.bindAlways("v", l.finish(kids[i]))
		}
	}
	return ir.WithOperands(e, kids)
}

// translateChain translates a load through a reference chain rooted at a
// var or global (a[i].f[j]): a memory view, whose element is loaded only
// after every index operand is evaluated, innermost first (WGSL
// #memory-views). So the root is never bound early, and an index operand
// that reads a global is bound before a later operand's call runs. A
// chain may stop being a memory view part way (g.yyy[h()]: the swizzle
// is a value, loaded before h runs); from there on it is a value like
// any other operand.
func (l *lowerer) translateChain(e ir.Expr, root *ir.Ident) ir.Expr {
	var chain []ir.Expr // innermost accessor first
	for x := e; x != ir.Expr(root); {
		chain = append([]ir.Expr{x}, chain...)
		switch y := x.(type) {
		case *ir.Index:
			x = y.X
		case *ir.Member:
			x = y.X
		case *ir.Swizzle:
			x = y.X
		}
	}
	last := -1
	for k, x := range chain {
		if ix, ok := x.(*ir.Index); ok && ir.HasCall(ix.Index) {
			last = k
		}
	}
	var base ir.Expr = l.ident(root)
	shared := l.sharedWritable(root)
	for k, x := range chain {
		switch y := x.(type) {
		case *ir.Index:
			idx := l.translate(y.Index)
			if k < last && readsGlobal(idx) {
				idx = l.bindAlways("v", l.finish(idx))
			}
			base = &ir.Index{Pos: y.Pos, X: base, Index: idx, T: y.T}
		case *ir.Member:
			base = &ir.Member{Pos: y.Pos, X: base, Field: y.Field, T: y.T}
		case *ir.Swizzle:
			if shared && len(y.Comps) != 1 && ir.IsReference(base) {
				base = l.sharedLoad(base) // the memory view is loaded here (entry.go)
			}
			base = &ir.Swizzle{Pos: y.Pos, X: base, Comps: append([]uint8(nil), y.Comps...), T: y.T}
		}
		// Where the chain stops being a reference (ir.IsReference: a
		// multi-component swizzle always yields a value, WGSL
		// #vector-multi-component), the load rule applies here, in
		// left-to-right order: a value read from a global is bound
		// before a later index operand's call can write the global.
		if k < last && !ir.IsReference(base) && readsGlobal(base) {
			base = l.bindAlways("v", l.finish(base))
		}
	}
	if shared && ir.IsReference(base) {
		base = l.sharedLoad(base)
	}
	return base
}

// checkUniform refuses a uniformity-dependent builtin (derivative,
// barrier, subgroup operation) where the effective predicate is not
// statically true: predication would run it in invocations the source
// does not, or change which invocations take part (issue item 4f; WGSL
// #uniformity). Where control is uniform it may stay when the whitelist
// has it. Two kinds stay under a predicate P, checked once the twin is
// lowered: an entry point's barrier, as a guard on a uniform P
// (barrier), and a fragment twin's derivative, evaluated unconditionally
// where P is uniform (quadUniform). It reports whether the call may
// stay.
func (l *lowerer) checkUniform(x *ir.BuiltinCall) bool {
	if !uniformityDependent(x.Fn) {
		return true
	}
	if l.entry && x.Fn.Info().Class == ir.ClassBarrier {
		return l.barrier(x)
	}
	if l.fragment && x.Fn.Info().Class == ir.ClassDerivative {
		// A fragment twin's derivative: unconditional, exact where the
		// predicate is uniform (quadUniform).
		l.quadUniform(x.Pos, x.Fn.String())
		return true
	}
	if !l.uniform() {
		l.errorf(x.Pos, "%s in non-uniform control flow: predication would change its meaning (WGSL #uniformity)", x.Fn)
		return false
	}
	if !l.white[x.Fn.String()] {
		l.errorf(x.Pos, "builtin %s is not in the whitelist of leaf builtins (%s)", x.Fn, builtinWhy(x.Fn))
		return false
	}
	return true
}

// call inlines a user call and returns its value (nil for void).
//
// A pointer argument &R (ir.AddrOf) becomes the reference R with its
// index operands evaluated and bound where the arguments are evaluated
// (l.ref: WGSL order, before the callee's effects), passed by
// copy-in/copy-out: `var p = R;` before the body, which uses p for *p,
// and R = p after it (a predicated store, only when the callee writes
// through p). The alias analysis the front end enforces (WGSL
// #alias-analysis) makes this equivalent to passing the view (interp's
// call does the same).
func (l *lowerer) call(c *ir.Call) ir.Expr {
	callee := l.m.Func(c.Func)
	args := make([]ir.Expr, len(c.Args))
	for i, a := range c.Args {
		if ad, ok := a.(*ir.AddrOf); ok {
			args[i] = l.pointerArg(ad)
			continue
		}
		args[i] = l.translate(a)
		if readsGlobal(args[i]) && anyCall(c.Args[i+1:]) {
			args[i] = l.bindAlways("v", l.finish(args[i]))
		}
	}
	e := l.pred()
	nf := &frame{fn: callee, names: map[string]*ir.Ident{}, live: e}
	type copyOut struct {
		ref ir.Expr
		v   *ir.Ident
	}
	var outs []copyOut
	for i, p := range callee.Params {
		if p.Ptr != 0 {
			name := l.fresh(p.Name, tempValue)
			l.emit(&ir.Decl{Pos: c.Pos, Name: name, T: p.T, Init: ir.CloneExpr(args[i]), Mutable: true})
			v := &ir.Ident{Pos: p.Pos, Name: name, T: p.T, Ref: ir.RefVar}
			nf.names[p.Name] = v
			if ir.WritesThrough(callee, p.Name) {
				outs = append(outs, copyOut{args[i], v})
			}
			continue
		}
		a := l.finish(args[i])
		name := l.fresh(p.Name, tempValue)
		l.emit(&ir.Decl{Pos: c.Pos, Name: name, T: p.T, Init: a})
		nf.names[p.Name] = &ir.Ident{Pos: p.Pos, Name: name, T: p.T, Ref: ir.RefLet}
		if v, ok := litVal(a); ok {
			l.consts[name] = v
		}
	}
	caller := l.fr
	l.fr = nf
	l.beginFrame(callee.Result, c.Pos)
	l.block(callee.Body)
	var result ir.Expr
	if !callee.Result.IsVoid() {
		result = l.frameResult(c.Pos)
		if len(outs) > 0 {
			// The result is read before the copy-out's stores.
			result = l.bindAlways("r", l.finish(ir.CloneExpr(result)))
		}
	}
	l.fr = caller
	for _, o := range outs {
		l.store(o.ref, ir.CloneExpr(o.v), l.pred(), c.Pos)
	}
	if result == nil {
		return nil
	}
	return ir.CloneExpr(result)
}

// guard rewrites every dynamic index in e that is not provably in bounds
// to select(0, i, E): unchanged where the path is live, in bounds where it
// is dead (issue item 4d), so the twin never indexes out of bounds where
// the source did not.
func (l *lowerer) guard(e ir.Expr) ir.Expr {
	if l.uniform() || !ir.Any(e, func(n ir.Node) bool { _, ok := n.(*ir.Index); return ok }) {
		return e
	}
	var walk func(e ir.Expr) ir.Expr
	walk = func(e ir.Expr) ir.Expr {
		switch e.(type) {
		case *ir.Lit, *ir.Ident:
			return e
		}
		var ob, kb ir.Operands
		orig := ir.ExprOperands(e, &ob)
		kids := kb.Slots(len(orig))
		for i, k := range orig {
			kids[i] = walk(k)
		}
		if x, ok := e.(*ir.Index); ok {
			kids[1] = l.guardIndex(kids[1], x.X.Type().Len)
		}
		return ir.WithOperands(e, kids)
	}
	return walk(e)
}

func (l *lowerer) guardIndex(idx ir.Expr, n int) ir.Expr {
	if inRange(idx, n) {
		return idx
	}
	e := l.pred()
	if e == nil {
		return idx
	}
	return &ir.Select{Pos: idx.Position(), False: &ir.Lit{Pos: idx.Position(), Val: ir.Zero(idx.Type())}, True: idx, Cond: e, T: idx.Type()}
}

// inRange reports whether every value of the integer expression e is in
// [0, n): a literal, or min/clamp/&/% by constants that keep it there.
func inRange(e ir.Expr, n int) bool {
	if v, ok := litVal(e); ok {
		return v.Int64() >= 0 && v.Int64() < int64(n)
	}
	unsigned := e.Type().Kind == ir.KindU32
	lit := func(e ir.Expr) (int64, bool) {
		v, ok := litVal(e)
		if !ok {
			return 0, false
		}
		return v.Int64(), true
	}
	switch x := e.(type) {
	case *ir.BuiltinCall:
		switch x.Fn {
		case ir.BMin:
			if !unsigned {
				return false
			}
			for _, a := range x.Args {
				if c, ok := lit(a); ok && c < int64(n) {
					return true
				}
			}
		case ir.BClamp:
			lo, ok1 := lit(x.Args[1])
			hi, ok2 := lit(x.Args[2])
			return ok1 && ok2 && lo >= 0 && hi < int64(n) && lo <= hi
		}
	case *ir.Binary:
		switch x.Op {
		case ir.OpAnd:
			for _, a := range []ir.Expr{x.X, x.Y} {
				if c, ok := lit(a); ok && c >= 0 && c < int64(n) {
					return true
				}
			}
		case ir.OpRem:
			c, ok := lit(x.Y)
			return ok && unsigned && c > 0 && c <= int64(n)
		}
	}
	return false
}

// pointerArg translates the view of a pointer argument: the twin's root
// and index operands bound to lets now, so that the copy-in, the
// callee's effects and the copy-out all see one element (an index that
// names a var the callee may write through another pointer argument is
// bound too).
func (l *lowerer) pointerArg(a *ir.AddrOf) ir.Expr {
	ref := l.ref(a.X, true)
	for e := ref; ; {
		switch x := e.(type) {
		case *ir.Index:
			if id, ok := x.Index.(*ir.Ident); ok && id.Ref == ir.RefVar {
				x.Index = l.bindAlways("idx", x.Index)
			}
			e = x.X
			continue
		case *ir.Member:
			e = x.X
			continue
		}
		break
	}
	return ref
}
