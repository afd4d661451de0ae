package wgsl

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// Portable-mode rewriting. Each rule spells out a WGSL runtime rule that a
// backend might otherwise leave to the target's (different or undefined)
// semantics. Rules that would duplicate an operand expression call a
// helper function instead (emitted once per operand type), so nothing is
// evaluated twice and no expression grows.
//
//   a / b, a % b (i32, u32)   divisor replaced by 1 when b == 0, or when
//                             a == INT_MIN and b == -1 (i32), giving
//                             x/0 = x, x%0 = 0, INT_MIN/-1 = INT_MIN,
//                             INT_MIN%-1 = 0  (WGSL #arithmetic-expr);
//                             i32 % as a - d * (a / d) (GLSL back ends
//                             leave % of negative operands undefined)
//   a << b, a >> b            b & 31u            (WGSL #bit-expr)
//   i32(f), u32(f)            clamp f to [-2^31, 2147483520] or
//                             [0, 4294967040] first (#floating-point-conversion)
//   abs(i32)                  select(x, -x, x < 0): wraps at INT_MIN
//   clamp(x, lo, hi)          min(max(x, lo), hi) (targets leave lo > hi undefined)
//   extractBits, insertBits   offset and count clamped as WGSL specifies
//   a[i] (run-time i)         a[min(u32(i), N - 1u)]: never out of bounds
//   r op= e (e has a call)    r = r op (e): WGSL reads r before evaluating e
//                             (#compound-assignment-sec expands to
//                             e1 = e1 op (e2), left to right); naga 0.19.2
//                             (wgpu 0.19.4) reads it after the call
//
// saturate, reflect, faceForward, ldexp, sinh, cosh and tanh need no rule:
// WGSL leaves nothing to the target there that it defines differently
// (saturate's bounds are ordered; ldexp's e2 > 128 is an indeterminate
// value in WGSL and undefined in GLSL.std.450 alike, and both let e2 < -126
// flush to zero; see compiler/spirv's glslFloat).
//
// Literal operands that cannot hit a guarded case (a divisor literal with
// no 0 or -1 component, a shift count literal below 32, a constant index)
// are left alone to keep the output readable.
//
// One rewrite applies in both modes because it works around a front end,
// not a semantic rule: naga (0.19.2, as in wgpu 0.19.4) rejects indexing an
// array *value* (a let, a parameter, a constructor) with a run-time index
// ("may only be indexed by a constant"), although WGSL allows it
// (#array-access-expr). Such an index becomes a call of a helper that
// copies the array into a function-scope var and indexes that. For the
// same reason (naga lacks the unrestricted_pointer_parameters language
// extension) a pointer parameter into workgroup, storage or uniform
// memory is emitted as ir.DirectVariableAccess rewrites it, in both
// modes.

// atomicUniformLoad returns the workgroupUniformLoad of an atomic that is
// the whole initializer, assigned value or returned value of s, else nil.
func atomicUniformLoad(s ir.Stmt) *ir.BuiltinCall {
	var x ir.Expr
	switch s := s.(type) {
	case *ir.Decl:
		x = s.Init
	case *ir.Assign:
		if s.Op == ir.OpNone {
			x = s.RHS
		}
	case *ir.Return:
		x = s.Value
	}
	if b, ok := x.(*ir.BuiltinCall); ok && b.Fn == ir.BWorkgroupUniformLoad && b.Args[0].Type().Kind == ir.KindAtomic {
		return b
	}
	return nil
}

func (e *emitter) rewriteFunc(f *ir.Func) {
	e.rewriteBlock(f.Body)
}

func (e *emitter) rewriteBlock(b *ir.Block) {
	var out []ir.Stmt
	for _, s := range b.Stmts {
		out = append(out, e.rewriteStmt(s)...)
	}
	b.Stmts = out
}

func (e *emitter) rewriteStmt(s ir.Stmt) []ir.Stmt {
	if b := atomicUniformLoad(s); b != nil {
		// In both modes: naga 0.19.2 (wgpu 0.19.4) types
		// workgroupUniformLoad of a ptr<workgroup, atomic<T>> as
		// atomic<T>, not T ("the type of `res` is expected to be `u32`,
		// but got `atomic<u32>`"). Its semantics spelled out (WGSL
		// #workgroupUniformLoad-builtin): a barrier, the atomic load, a
		// barrier.
		barrier := func() ir.Stmt {
			return &ir.ExprStmt{Pos: b.Pos, X: &ir.BuiltinCall{Pos: b.Pos, Fn: ir.BWorkgroupBarrier, T: ir.Void}}
		}
		load := ir.UniformLoadValue(b)
		switch s := s.(type) {
		case *ir.Decl:
			s.Init = load
		case *ir.Assign:
			s.RHS = load
		case *ir.Return:
			name := e.namer.Fresh("gpudiff_wul")
			out := append([]ir.Stmt{barrier()}, &ir.Decl{Pos: b.Pos, Name: name, T: b.T, Init: load}, barrier())
			return append(out, &ir.Return{Pos: s.Pos, Value: &ir.Ident{Pos: b.Pos, Name: name, T: b.T, Ref: ir.RefLet}})
		}
		return append(append([]ir.Stmt{barrier()}, e.rewriteStmt(s)...), barrier())
	}
	if e.mode != Portable {
		ir.EditChildren(s, e.rewriteNode)
		return []ir.Stmt{s}
	}
	var pre []ir.Stmt
	switch s := s.(type) {
	case *ir.Block:
		e.rewriteBlock(s)
		return []ir.Stmt{s}
	case *ir.If:
		s.Cond = e.rewriteExpr(s.Cond)
		e.rewriteBlock(s.Then)
		e.rewriteBlock(s.Else)
		return []ir.Stmt{s}
	case *ir.Loop:
		e.rewriteBlock(s.Body)
		e.rewriteBlock(s.Continuing)
		if s.BreakIf != nil {
			s.BreakIf = e.rewriteExpr(s.BreakIf)
		}
		return []ir.Stmt{s}
	case *ir.Switch:
		s.Selector = e.rewriteExpr(s.Selector)
		for _, c := range s.Cases {
			e.rewriteBlock(c.Body)
		}
		return []ir.Stmt{s}
	case *ir.Assign:
		guarded := e.guardedCompound(s)
		if guarded && ir.HasCall(s.LHS) {
			// Bind call-bearing indices so the reference is evaluated once.
			s.LHS = e.bindIndices(s.LHS, &pre)
		}
		s.LHS = e.rewriteExpr(s.LHS)
		s.RHS = e.rewriteExpr(s.RHS)
		if guarded {
			lhs := s.LHS
			t, _ := ir.BinaryResultType(s.Op, lhs.Type(), s.RHS.Type())
			bin := &ir.Binary{Pos: s.Pos, Op: s.Op, X: ir.CloneExpr(lhs), Y: s.RHS, T: t}
			s.RHS = e.rewriteBinary(bin)
			s.Op = ir.OpNone
		} else if s.Op == ir.OpShl || s.Op == ir.OpShr {
			s.RHS = e.maskShift(s.RHS)
		}
		return append(pre, s)
	default:
		ir.EditChildren(s, func(n ir.Node) ir.Node { return e.rewriteExpr(n.(ir.Expr)) })
		return []ir.Stmt{s}
	}
}

// guardedCompound reports whether a compound assignment must be spelled
// out as r = r op (e): its operator needs the division guard, or its
// right-hand side calls a function that might write r after WGSL has read
// it.
func (e *emitter) guardedCompound(s *ir.Assign) bool {
	if s.Op == ir.OpNone {
		return false
	}
	if ir.HasCall(s.RHS) {
		return true
	}
	return (s.Op == ir.OpDiv || s.Op == ir.OpRem) && s.LHS.Type().Scalar().IsInteger() && needsDivHelper(s.Op, s.LHS.Type(), s.RHS)
}

func (e *emitter) bindIndices(ref ir.Expr, pre *[]ir.Stmt) ir.Expr {
	switch x := ref.(type) {
	case *ir.Index:
		x.X = e.bindIndices(x.X, pre)
		if ir.HasCall(x.Index) {
			name := e.namer.Fresh("gpudiff_idx")
			*pre = append(*pre, &ir.Decl{Pos: x.Pos, Name: name, T: x.Index.Type(), Init: e.rewriteExpr(x.Index)})
			x.Index = &ir.Ident{Pos: x.Pos, Name: name, T: x.Index.Type(), Ref: ir.RefLet}
		}
	case *ir.Member:
		x.X = e.bindIndices(x.X, pre)
	case *ir.Swizzle:
		x.X = e.bindIndices(x.X, pre)
	}
	return ref
}

// rewriteNode rewrites raw-mode statements and expressions: only the
// array-value index workaround applies.
func (e *emitter) rewriteNode(n ir.Node) ir.Node {
	switch n := n.(type) {
	case *ir.Block:
		for i, s := range n.Stmts {
			ir.EditChildren(s, e.rewriteNode)
			n.Stmts[i] = s
		}
		return n
	case *ir.Case:
		ir.EditChildren(n, e.rewriteNode)
		return n
	case ir.Expr:
		ir.EditChildren(n, e.rewriteNode)
		switch x := n.(type) {
		case *ir.Index:
			return e.valueIndex(x)
		case *ir.Binary:
			return foldIntLits(x)
		}
		return n
	}
	ir.EditChildren(n, e.rewriteNode)
	return n
}

// isReference reports whether e designates memory (a var or private global,
// or a member/element of one), which naga may index dynamically.
func isReference(e ir.Expr) bool {
	switch x := e.(type) {
	case *ir.Ident:
		return x.Ref == ir.RefVar || x.Ref == ir.RefGlobal || x.Ref == ir.RefShared || x.Ref == ir.RefPtr
	case *ir.Index:
		return isReference(x.X)
	case *ir.Member:
		return isReference(x.X)
	}
	return false
}

// foldIntLits folds an integer operation whose operands are both literals
// into one literal, with WGSL's wrapping semantics (#arithmetic-expr,
// #bit-expr: concrete i32/u32 + - * wrap; shifts by less than 32). WGSL
// makes such an operation a const-expression; naga 0.19.2 (wgpu 0.19.4)
// rejects a const-expression that overflows where Tint wraps it, so the
// emitter hands it the folded value. Other operations are returned as is.
func foldIntLits(x *ir.Binary) ir.Expr {
	a, okA := x.X.(*ir.Lit)
	b, okB := x.Y.(*ir.Lit)
	if !okA || !okB || !x.T.Scalar().IsInteger() {
		return x
	}
	var fold func(u, v ir.Value) (ir.Value, bool)
	fold = func(u, v ir.Value) (ir.Value, bool) {
		if u.Type.Kind == ir.KindVec || v.Type.Kind == ir.KindVec {
			t := u.Type
			if t.Kind != ir.KindVec {
				t = v.Type
			}
			es := make([]ir.Value, t.Len)
			for i := range es {
				ui, vi := u, v
				if u.Type.Kind == ir.KindVec {
					ui = u.Elems[i]
				}
				if v.Type.Kind == ir.KindVec {
					vi = v.Elems[i]
				}
				e, ok := fold(ui, vi)
				if !ok {
					return ir.Value{}, false
				}
				es[i] = e
			}
			return ir.CompositeVal(x.T, es...), true
		}
		p, q := u.Bits, v.Bits
		var r uint32
		switch x.Op {
		case ir.OpAdd:
			r = p + q
		case ir.OpSub:
			r = p - q
		case ir.OpMul:
			r = p * q
		case ir.OpAnd:
			r = p & q
		case ir.OpOr:
			r = p | q
		case ir.OpXor:
			r = p ^ q
		case ir.OpShl:
			if q >= 32 {
				return ir.Value{}, false
			}
			r = p << q
		case ir.OpShr:
			if q >= 32 {
				return ir.Value{}, false
			}
			if u.Type.Kind == ir.KindI32 {
				r = uint32(int32(p) >> q)
			} else {
				r = p >> q
			}
		default:
			return ir.Value{}, false
		}
		return ir.ScalarVal(u.Type, r), true
	}
	v, ok := fold(a.Val, b.Val)
	if !ok {
		return x
	}
	return &ir.Lit{Pos: x.Pos, Val: v}
}

// valueIndex turns a run-time index of an array or matrix value into a
// helper call (naga 0.19.2, wgpu 0.19.4, indexes array and matrix values by
// constants only).
func (e *emitter) valueIndex(x *ir.Index) ir.Expr {
	if k := x.X.Type().Kind; isConstIndex(x) || k != ir.KindArray && k != ir.KindMat || isReference(x.X) {
		return x
	}
	t := x.X.Type()
	name := e.helper("index:"+t.String()+":"+x.Index.Type().String(), "gpudiff_index", func(name string) string {
		return fmt.Sprintf("fn %s(a: %s, i: %s) -> %s {\n  var v: %s = a;\n  return v[i];\n}\n", name, t, x.Index.Type(), t.Elem, t)
	})
	return &ir.Call{Pos: x.Pos, Func: name, Args: []ir.Expr{x.X, x.Index}, T: x.T}
}

func (e *emitter) rewriteExpr(x ir.Expr) ir.Expr {
	if x == nil {
		return nil
	}
	ir.EditChildren(x, func(n ir.Node) ir.Node { return e.rewriteExpr(n.(ir.Expr)) })
	switch x := x.(type) {
	case *ir.Binary:
		return e.rewriteBinary(x)
	case *ir.Convert:
		return e.rewriteConvert(x)
	case *ir.Index:
		// A runtime-sized array's length is arrayLength's, not the
		// type's: its index stays as written (WGSL's robust buffer access
		// keeps an out-of-bounds one inside the buffer; the reference
		// makes it indeterminate).
		if _, isLit := x.Index.(*ir.Lit); !isLit && x.X.Type().Kind != ir.KindRuntimeArray {
			x.Index = clampIndex(x.Index, x.X.Type().Len)
		}
		return e.valueIndex(x)
	case *ir.BuiltinCall:
		return e.rewriteBuiltin(x)
	}
	return x
}

// rewriteBinary applies the division and shift rules to an already
// rewritten binary expression.
func (e *emitter) rewriteBinary(x *ir.Binary) ir.Expr {
	if f := foldIntLits(x); f != ir.Expr(x) {
		return f
	}
	switch x.Op {
	case ir.OpDiv, ir.OpRem:
		if !x.T.Scalar().IsInteger() || !needsDivHelper(x.Op, x.T, x.Y) {
			return x
		}
		a, b := splat(x.X, x.T), splat(x.Y, x.T)
		name := e.divHelper(x.Op, x.T)
		return &ir.Call{Pos: x.Pos, Func: name, Args: []ir.Expr{a, b}, T: x.T}
	case ir.OpShl, ir.OpShr:
		x.Y = e.maskShift(x.Y)
	}
	return x
}

// needsDivHelper reports whether an integer division or remainder goes
// through its helper: the divisor may be 0 (or -1 for i32), or it is an
// i32 remainder, which the helper spells as a - d * (a / d) whatever the
// divisor (naga's GLSL output turns % into GLSL's, undefined for negative
// operands, even for a constant divisor such as x % -4i).
func needsDivHelper(op ir.BinaryOp, t *ir.Type, y ir.Expr) bool {
	return needsDivGuard(t, y) || (op == ir.OpRem && t.Scalar().Kind == ir.KindI32)
}

// needsDivGuard reports whether divisor y (of a t-typed division) can be
// 0 or, for i32, -1.
func needsDivGuard(t *ir.Type, y ir.Expr) bool {
	lit, ok := y.(*ir.Lit)
	if !ok {
		return true
	}
	bad := false
	var scan func(v ir.Value)
	scan = func(v ir.Value) {
		if v.Type.IsScalar() {
			if v.Bits == 0 || (v.Type.Kind == ir.KindI32 && v.I32() == -1) {
				bad = true
			}
			return
		}
		for _, c := range v.Elems {
			scan(c)
		}
	}
	scan(lit.Val)
	return bad
}

func (e *emitter) maskShift(y ir.Expr) ir.Expr {
	if lit, ok := y.(*ir.Lit); ok && allBelow(lit.Val, 32) {
		return y
	}
	mask := ir.Value(ir.U32Val(31))
	if y.Type().Kind == ir.KindVec {
		mask = splatValue(y.Type(), mask)
	}
	return &ir.Binary{Pos: y.Position(), Op: ir.OpAnd, X: y, Y: &ir.Lit{Pos: y.Position(), Val: mask}, T: y.Type()}
}

func allBelow(v ir.Value, n uint32) bool {
	if v.Type.IsScalar() {
		return v.Bits < n
	}
	for _, c := range v.Elems {
		if !allBelow(c, n) {
			return false
		}
	}
	return true
}

func splatValue(t *ir.Type, s ir.Value) ir.Value {
	es := make([]ir.Value, t.Len)
	for i := range es {
		es[i] = s
	}
	return ir.CompositeVal(t, es...)
}

// splat widens a scalar operand of a vector-typed operation to t.
func splat(x ir.Expr, t *ir.Type) ir.Expr {
	if t.Kind == ir.KindVec && x.Type().IsScalar() {
		if lit, ok := x.(*ir.Lit); ok {
			return &ir.Lit{Pos: lit.Pos, Val: splatValue(t, lit.Val)}
		}
		return &ir.Construct{Pos: x.Position(), T: t, Args: []ir.Expr{x}}
	}
	return x
}

func clampIndex(i ir.Expr, n int) ir.Expr {
	var u ir.Expr = i
	if i.Type().Kind != ir.KindU32 {
		u = &ir.Convert{Pos: i.Position(), T: ir.U32, X: i}
	}
	return &ir.BuiltinCall{Pos: i.Position(), Fn: ir.BMin, T: ir.U32,
		Args: []ir.Expr{u, &ir.Lit{Pos: i.Position(), Val: ir.U32Val(uint32(n - 1))}}}
}

func (e *emitter) rewriteConvert(x *ir.Convert) ir.Expr {
	from, to := x.X.Type().Scalar(), x.T.Scalar()
	if from.Kind == ir.KindF16 && to.Kind == ir.KindU32 {
		// Every finite f16 is within i32's range; only a negative one
		// converted to u32 needs the clamp (to 0, WGSL
		// #floating-point-conversion).
		ft := x.X.Type()
		zero := ir.F16Bits(0)
		if ft.Kind == ir.KindVec {
			zero = splatValue(ft, zero)
		}
		x.X = &ir.BuiltinCall{Pos: x.Pos, Fn: ir.BMax, Args: []ir.Expr{x.X, &ir.Lit{Pos: x.Pos, Val: zero}}, T: ft}
		return x
	}
	if from.Kind != ir.KindF32 || !to.IsInteger() {
		return x
	}
	lo, hi := float32(math.MinInt32), float32(2147483520)
	if to.Kind == ir.KindU32 {
		lo, hi = 0, 4294967040
	}
	ft := x.X.Type()
	lit := func(f float32) ir.Expr {
		v := ir.F32Val(f)
		if ft.Kind == ir.KindVec {
			v = splatValue(ft, v)
		}
		return &ir.Lit{Pos: x.Pos, Val: v}
	}
	mx := &ir.BuiltinCall{Pos: x.Pos, Fn: ir.BMax, Args: []ir.Expr{x.X, lit(lo)}, T: ft}
	x.X = &ir.BuiltinCall{Pos: x.Pos, Fn: ir.BMin, Args: []ir.Expr{mx, lit(hi)}, T: ft}
	return x
}

func (e *emitter) rewriteBuiltin(x *ir.BuiltinCall) ir.Expr {
	switch x.Fn {
	case ir.BAbs:
		switch x.T.Scalar().Kind {
		case ir.KindI32:
			return &ir.Call{Pos: x.Pos, Func: e.absHelper(x.T), Args: x.Args, T: x.T}
		case ir.KindU32:
			// abs of a u32 is the value itself (WGSL §17.5.1), as
			// gpudiff's SPIR-V spells it; naga's GLSL output computes a
			// signed abs (abs(4294967295u) = 1 on wgpu-gl).
			return x.Args[0]
		}
	case ir.BClamp:
		mx := &ir.BuiltinCall{Pos: x.Pos, Fn: ir.BMax, Args: []ir.Expr{x.Args[0], x.Args[1]}, T: x.T}
		return &ir.BuiltinCall{Pos: x.Pos, Fn: ir.BMin, Args: []ir.Expr{mx, x.Args[2]}, T: x.T}
	case ir.BExtractBits, ir.BInsertBits:
		return &ir.Call{Pos: x.Pos, Func: e.bitsHelper(x.Fn, x.T), Args: x.Args, T: x.T}
	}
	return x
}

// ---- helper functions ----

func typeTag(t *ir.Type) string {
	if t.Kind == ir.KindVec {
		return fmt.Sprintf("vec%d_%s", t.Len, t.Elem)
	}
	return t.String()
}

// lit spells a scalar literal s as a value of t's shape.
func litOf(t *ir.Type, s ir.Value) string {
	if t.Kind == ir.KindVec {
		return splatValue(t, s).String()
	}
	return s.String()
}

func (e *emitter) helper(key, base string, text func(name string) string) string {
	if n, ok := e.helpers[key]; ok {
		return n
	}
	name := e.namer.Fresh(base)
	e.helpers[key] = name
	e.helperText = append(e.helperText, text(name))
	return name
}

func (e *emitter) divHelper(op ir.BinaryOp, t *ir.Type) string {
	verb := "div"
	if op == ir.OpRem {
		verb = "rem"
	}
	return e.helper(verb+":"+t.String(), "gpudiff_"+verb+"_"+typeTag(t), func(name string) string {
		var cond string
		if t.Scalar().Kind == ir.KindI32 {
			cond = fmt.Sprintf("(b == %s) | ((a == %s) & (b == %s))",
				litOf(t, ir.I32Val(0)), litOf(t, ir.I32Val(math.MinInt32)), litOf(t, ir.I32Val(-1)))
		} else {
			cond = fmt.Sprintf("b == %s", litOf(t, ir.U32Val(0)))
		}
		one := litOf(t, ir.ScalarVal(t.Scalar(), 1))
		if op == ir.OpRem && t.Scalar().Kind == ir.KindI32 {
			// The truncating remainder through division: naga's GLSL
			// output turns % into GLSL's, undefined for negative operands.
			return fmt.Sprintf("fn %s(a: %s, b: %s) -> %s {\n  let d = select(b, %s, %s);\n  return a - d * (a / d);\n}\n",
				name, t, t, t, one, cond)
		}
		return fmt.Sprintf("fn %s(a: %s, b: %s) -> %s {\n  return a %s select(b, %s, %s);\n}\n",
			name, t, t, t, op, one, cond)
	})
}

func (e *emitter) absHelper(t *ir.Type) string {
	return e.helper("abs:"+t.String(), "gpudiff_abs_"+typeTag(t), func(name string) string {
		return fmt.Sprintf("fn %s(x: %s) -> %s {\n  return select(x, -x, x < %s);\n}\n", name, t, t, litOf(t, ir.I32Val(0)))
	})
}

func (e *emitter) bitsHelper(b ir.Builtin, t *ir.Type) string {
	fn := b.Info().Name
	return e.helper(fn+":"+t.String(), "gpudiff_"+strings.ToLower(fn)+"_"+typeTag(t), func(name string) string {
		clamp := "  let o1: u32 = min(offset, 32u);\n  let c1: u32 = min(count, 32u - o1);\n"
		if b == ir.BExtractBits {
			return fmt.Sprintf("fn %s(e: %s, offset: u32, count: u32) -> %s {\n%s  return extractBits(e, o1, c1);\n}\n", name, t, t, clamp)
		}
		return fmt.Sprintf("fn %s(e: %s, newbits: %s, offset: u32, count: u32) -> %s {\n%s  return insertBits(e, newbits, o1, c1);\n}\n", name, t, t, t, clamp)
	})
}

func isConstIndex(x *ir.Index) bool {
	_, isLit := x.Index.(*ir.Lit)
	return isLit
}
