package spirv

import (
	"math"

	"github.com/gpudiff/gpudiff/ir"
)

// expr emits x and returns the id of its value. Operands are evaluated
// left to right (WGSL "Expression Evaluation Order" — ir.DoChildren order).
func (f *fnEmitter) expr(x ir.Expr) uint32 {
	e := f.e
	switch x := x.(type) {
	case *ir.Lit:
		return e.constant(x.Val)
	case *ir.Ident:
		if x.Ref == ir.RefGlobal {
			return f.load(x.T, e.globals[x.Name])
		}
		if x.Ref == ir.RefShared {
			return f.loadPlace(x)
		}
		bd, ok := f.vals[x.Name]
		if !ok {
			e.errorf(x.Pos, "%s %s is not bound", x.Ref, x.Name)
			return f.b.constNull(e.typeOf(x.T))
		}
		if bd.ptr {
			return f.load(x.T, bd.id)
		}
		return bd.id
	case *ir.Unary:
		return f.unary(x)
	case *ir.Binary:
		if x.Op == ir.OpLogAnd || x.Op == ir.OpLogOr {
			return f.shortCircuit(x)
		}
		l := f.expr(x.X)
		r := f.expr(x.Y)
		return f.binary(x.Pos, x.Op, l, x.X.Type(), r, x.Y.Type(), x.T)
	case *ir.Select:
		fv := f.expr(x.False)
		tv := f.expr(x.True)
		c := f.expr(x.Cond)
		return f.selectVal(x.T, c, x.Cond.Type(), tv, fv)
	case *ir.Call:
		return f.call(x)
	case *ir.BuiltinCall:
		return f.builtin(x)
	case *ir.Construct:
		return f.construct(x)
	case *ir.Convert:
		return f.convert(f.expr(x.X), x.X.Type(), x.T)
	case *ir.Bitcast:
		v := f.expr(x.X)
		if ir.Identical(x.X.Type(), x.T) {
			return v
		}
		return f.op(opBitcast, e.typeOf(x.T), v)
	case *ir.Index, *ir.Member, *ir.Swizzle:
		return f.access(x)
	case *ir.Atomic:
		return f.atomic(x)
	case *ir.ArrayLength:
		return f.arrayLength(x)
	case *ir.TextureCall:
		if e.tex == nil {
			e.errorf(x.Pos, "%s outside an entry point as written: not emitted as SPIR-V", x.Op)
			return 0
		}
		return f.texture(x)
	}
	e.errorf(x.Position(), "unsupported expression %T", x)
	return 0
}

// unary emits -x (OpSNegate, wrapping; OpFNegate), !x (OpLogicalNot) and
// ~x (OpNot) — WGSL "Arithmetic Expressions", "Logical Expressions",
// "Bit Expressions"; identical in both modes.
func (f *fnEmitter) unary(x *ir.Unary) uint32 {
	v := f.expr(x.X)
	t := f.e.typeOf(x.T)
	switch x.Op {
	case ir.OpNeg:
		if x.T.Scalar().IsFloat() {
			return f.op(opFNegate, t, v)
		}
		return f.op(opSNegate, t, v)
	case ir.OpNot:
		return f.op(opLogicalNot, t, v)
	case ir.OpCompl:
		return f.op(opNot, t, v)
	}
	f.e.errorf(x.Pos, "unsupported unary operator %v", x.Op)
	return 0
}

// splat widens the scalar v to vector type t with OpCompositeConstruct.
func (f *fnEmitter) splat(t *ir.Type, v uint32) uint32 {
	parts := make([]uint32, t.Len)
	for i := range parts {
		parts[i] = v
	}
	return f.op(opCompositeConstruct, f.e.typeOf(t), parts...)
}

// binary emits x op y where x: xt, y: yt and the result is rt (WGSL §8.7
// arithmetic, §8.8 comparison, §8.9 bit expressions). A scalar operand of
// a vector arithmetic operation is splatted first. op is never && or ||
// (see shortCircuit).
//
// Portable mode spells out WGSL's rules (WGSL #arithmetic-expr, #bit-expr):
//   - integer / and %: the divisor is replaced by 1 where it is 0, and for
//     i32 where (x, y) = (INT_MIN, -1); so x/0 = x, x%0 = 0,
//     INT_MIN/-1 = INT_MIN, INT_MIN%-1 = 0; then OpSDiv/OpUDiv, OpUMod,
//     and for i32 % the truncating remainder x - y * (x / y) (as OpSRem
//     computes, but translated back ends leave OpSRem of negative operands
//     undefined; OpSMod floors);
//   - shifts: the count is masked with & 31 (taken modulo the bit width);
//   - & and | of vecN<bool>: through vecN<u32> (see vectorLogic).
//
// Raw mode emits OpSDiv, OpSRem, OpShiftLeftLogical, … on the operands as
// they are. f32 % is OpFRem in both (its sign follows the dividend, as
// WGSL's x - y * trunc(x / y)).
func (f *fnEmitter) binary(pos ir.Pos, op ir.BinaryOp, x uint32, xt *ir.Type, y uint32, yt *ir.Type, rt *ir.Type) uint32 {
	e := f.e
	if xt.IsMat() || yt.IsMat() {
		return f.matrixBinary(op, x, xt, y, yt, rt)
	}
	if op.Info().Class == ir.ClassArith && rt.Kind == ir.KindVec {
		if xt.Kind != ir.KindVec {
			x, xt = f.splat(rt, x), rt
		}
		if yt.Kind != ir.KindVec {
			y, yt = f.splat(rt, y), rt
		}
	}
	t := e.typeOf(rt)
	k := xt.Scalar().Kind
	sel := func(i32, u32, f32, b opcode) uint32 {
		var o opcode
		switch k {
		case ir.KindI32:
			o = i32
		case ir.KindU32:
			o = u32
		case ir.KindF32, ir.KindF16:
			o = f32
		case ir.KindBool:
			o = b
		}
		if o == 0 {
			e.errorf(pos, "operator %v is not defined for %v", op, xt)
			return 0
		}
		return f.op(o, t, x, y)
	}
	switch op {
	case ir.OpAdd:
		return sel(opIAdd, opIAdd, opFAdd, 0)
	case ir.OpSub:
		return sel(opISub, opISub, opFSub, 0)
	case ir.OpMul:
		return sel(opIMul, opIMul, opFMul, 0)
	case ir.OpDiv, ir.OpRem:
		if e.portable && !xt.Scalar().IsFloat() && !e.safeConstDivisor(k, y) {
			y = f.safeDivisor(xt, x, y)
		}
		if op == ir.OpDiv {
			return sel(opSDiv, opUDiv, opFDiv, 0)
		}
		if e.portable && k == ir.KindI32 {
			// x - y * (x / y) with the guarded divisor: WGSL's truncating
			// remainder, spelled with division because some backends
			// translate OpSRem to a remainder that is undefined for negative
			// operands (naga's GLSL output, WGSL #arithmetic-expr).
			q := f.op(opSDiv, t, x, y)
			return f.op(opISub, t, x, f.op(opIMul, t, q, y))
		}
		return sel(opSRem, opUMod, opFRem, 0)
	case ir.OpAnd, ir.OpOr:
		if e.portable && k == ir.KindBool && rt.Kind == ir.KindVec {
			return f.vectorLogic(op, rt, x, y)
		}
		if op == ir.OpAnd {
			return sel(opBitwiseAnd, opBitwiseAnd, 0, opLogicalAnd)
		}
		return sel(opBitwiseOr, opBitwiseOr, 0, opLogicalOr)
	case ir.OpXor:
		return sel(opBitwiseXor, opBitwiseXor, 0, 0)
	case ir.OpShl, ir.OpShr:
		if e.portable && !e.constBelow32(y) {
			y = f.op(opBitwiseAnd, e.typeOf(yt), y, e.splatConst(yt, 31))
		}
		if op == ir.OpShl {
			return sel(opShiftLeftLogical, opShiftLeftLogical, 0, 0)
		}
		return sel(opShiftRightArithmetic, opShiftRightLogical, 0, 0)
	case ir.OpEq:
		return sel(opIEqual, opIEqual, opFOrdEqual, opLogicalEqual)
	case ir.OpNe:
		return sel(opINotEqual, opINotEqual, opFUnordNotEqual, opLogicalNotEqual)
	case ir.OpLt:
		return sel(opSLessThan, opULessThan, opFOrdLessThan, 0)
	case ir.OpLe:
		return sel(opSLessThanEqual, opULessThanEqual, opFOrdLessThanEqual, 0)
	case ir.OpGt:
		return sel(opSGreaterThan, opUGreaterThan, opFOrdGreaterThan, 0)
	case ir.OpGe:
		return sel(opSGreaterThanEqual, opUGreaterThanEqual, opFOrdGreaterThanEqual, 0)
	}
	e.errorf(pos, "unsupported binary operator %v", op)
	return 0
}

// safeConstDivisor reports whether y is a constant divisor that needs no
// guard: no component is 0 or (for i32) -1.
func (e *emitter) safeConstDivisor(k ir.Kind, y uint32) bool {
	bits, ok := e.constComponents(y)
	if !ok {
		return false
	}
	for _, b := range bits {
		if b == 0 || (k == ir.KindI32 && b == math.MaxUint32) {
			return false
		}
	}
	return true
}

// constBelow32 reports whether y is a constant shift count whose
// components are all below 32 (masking would not change them).
func (e *emitter) constBelow32(y uint32) bool {
	bits, ok := e.constComponents(y)
	if !ok {
		return false
	}
	for _, b := range bits {
		if b >= 32 {
			return false
		}
	}
	return true
}

// vectorLogic emits x & y or x | y of two vecN<bool> x, y (rt; WGSL
// #logical-expr: component-wise, both operands evaluated) for portable
// mode without OpLogicalAnd/OpLogicalOr: each operand becomes a vecN<u32>
// of 0/1 (OpSelect), they are combined with OpBitwiseAnd/OpBitwiseOr, and
// OpINotEqual with zero turns the result back into booleans. naga's GLSL
// output translates OpLogicalAnd/OpLogicalOr on vectors to && and ||,
// which GLSL defines on scalars only (a compile error on wgpu's GL
// backend); raw mode emits the logical instructions.
func (f *fnEmitter) vectorLogic(op ir.BinaryOp, rt *ir.Type, x, y uint32) uint32 {
	e := f.e
	ut := ir.Vec(rt.Len, ir.U32)
	u := e.typeOf(ut)
	one, zero := e.splatConst(ut, 1), e.splatConst(ut, 0)
	xu := f.op(opSelect, u, x, one, zero)
	yu := f.op(opSelect, u, y, one, zero)
	o := opBitwiseOr
	if op == ir.OpAnd {
		o = opBitwiseAnd
	}
	return f.op(opINotEqual, e.typeOf(rt), f.op(o, u, xu, yu), zero)
}

// safeDivisor returns y with 1 wherever y is 0 and, for i32, wherever
// (x, y) is (INT_MIN, -1): WGSL #arithmetic-expr defines those divisions
// (x/0 = x, x%0 = 0, INT_MIN/-1 = INT_MIN, INT_MIN%-1 = 0) and x/1 and
// x%1 give exactly those values.
func (f *fnEmitter) safeDivisor(t *ir.Type, x, y uint32) uint32 {
	e := f.e
	bt := e.typeOf(ir.BoolShaped(t))
	// Selects only, no logical operators on booleans: naga's GLSL output
	// turns OpLogicalOr on vectors into `||`, which GLSL rejects.
	d := f.op(opSelect, e.typeOf(t), f.op(opIEqual, bt, y, e.splatConst(t, 0)), e.splatConst(t, 1), y)
	if t.Scalar().Kind == ir.KindI32 {
		// (x, y) == (INT_MIN, -1) exactly when (x ^ INT_MIN) | (y ^ -1) == 0.
		it := e.typeOf(t)
		both := f.op(opBitwiseOr, it, f.op(opBitwiseXor, it, x, e.splatConst(t, 1<<31)), f.op(opBitwiseXor, it, y, e.splatConst(t, math.MaxUint32)))
		d = f.op(opSelect, it, f.op(opIEqual, bt, both, e.splatConst(t, 0)), e.splatConst(t, 1), d)
	}
	return d
}

// shortCircuit emits x && y or x || y (WGSL "Logical Expressions": y is
// evaluated only when x does not decide the result). y never contains a
// user call (ir.Normalize); when it contains a run-time index — the only
// operation that could touch memory out of bounds in raw mode — it is
// evaluated under a selection construct and joined with OpPhi; otherwise
// both sides are evaluated and combined with OpLogicalAnd/OpLogicalOr.
func (f *fnEmitter) shortCircuit(x *ir.Binary) uint32 {
	l := f.expr(x.X)
	bt := f.e.typeOf(ir.Bool)
	if !hasDynamicIndex(x.Y) {
		r := f.expr(x.Y)
		if x.Op == ir.OpLogAnd {
			return f.op(opLogicalAnd, bt, l, r)
		}
		return f.op(opLogicalOr, bt, l, r)
	}
	from := f.cur
	rhs, merge := f.b.id(), f.b.id()
	f.inst(opSelectionMerge, merge, selectionControlNone)
	if x.Op == ir.OpLogAnd {
		f.branchCond(l, rhs, merge)
	} else {
		f.branchCond(l, merge, rhs)
	}
	f.label(rhs)
	r := f.expr(x.Y)
	rhsEnd := f.cur
	f.branch(merge)
	f.label(merge)
	// Coming straight from the header, the result is l itself.
	return f.op(opPhi, bt, l, from, r, rhsEnd)
}

func hasDynamicIndex(x ir.Expr) bool {
	return ir.Any(x, func(n ir.Node) bool {
		ix, ok := n.(*ir.Index)
		if !ok {
			return false
		}
		_, lit := ix.Index.(*ir.Lit)
		return !lit
	})
}

// selectVal emits select(f, t, cond) of type t (WGSL #select-builtin).
// Scalars and vectors use OpSelect (a scalar condition is splatted for
// vector arms: SPIR-V 1.3 OpSelect wants as many condition components as
// result components). Arrays and structs, which OpSelect does not take
// before SPIR-V 1.4, are decomposed into their leaves with
// OpCompositeExtract, selected, and rebuilt with OpCompositeConstruct.
func (f *fnEmitter) selectVal(t *ir.Type, cond uint32, ct *ir.Type, tv, fv uint32) uint32 {
	e := f.e
	switch t.Kind {
	case ir.KindArray, ir.KindStruct:
		n := t.Len
		if t.Kind == ir.KindStruct {
			n = len(t.Struct.Fields)
		}
		parts := make([]uint32, n)
		for i := range parts {
			et := elemType(t, i)
			a := f.op(opCompositeExtract, e.typeOf(et), tv, uint32(i))
			b := f.op(opCompositeExtract, e.typeOf(et), fv, uint32(i))
			parts[i] = f.selectVal(et, cond, ct, a, b)
		}
		return f.op(opCompositeConstruct, e.typeOf(t), parts...)
	case ir.KindVec:
		if ct.Kind != ir.KindVec {
			cond = f.splat(ir.Vec(t.Len, ir.Bool), cond)
		}
	}
	return f.op(opSelect, e.typeOf(t), cond, tv, fv)
}

// elemType is the type of element i of an array or struct type.
func elemType(t *ir.Type, i int) *ir.Type {
	if t.Kind == ir.KindStruct {
		return t.Struct.Fields[i].Type
	}
	return t.Elem
}

// construct emits a value constructor (WGSL "Value Constructor Built-in
// Functions"): T() is the zero value (OpConstantNull), T(x) of a scalar is
// x, a vector splat repeats its scalar, everything else is
// OpCompositeConstruct of the arguments (vector pieces may be vectors).
func (f *fnEmitter) construct(x *ir.Construct) uint32 {
	e := f.e
	if len(x.Args) == 0 {
		return e.b.constNull(e.typeOf(x.T))
	}
	if v, ok := constValue(x); ok {
		return e.constant(v)
	}
	args := make([]uint32, len(x.Args))
	for i, a := range x.Args {
		args[i] = f.expr(a)
	}
	switch {
	case x.T.IsScalar(), len(args) == 1 && ir.Identical(x.Args[0].Type(), x.T):
		return args[0] // T(x) of a T, e.g. vec2<i32>(v)
	}
	if e.work.foldConstructs {
		if v, ok := e.foldConstruct(x.T, args); ok {
			return e.constant(v)
		}
	}
	if x.T.Kind == ir.KindVec && len(args) == 1 {
		return f.splat(x.T, args[0])
	}
	return f.op(opCompositeConstruct, e.typeOf(x.T), args...)
}

// foldConstruct returns the value of constructor t(args) when every
// argument id is a constant made by constant (a let bound to a literal, a
// folded constructor, …): a vector from a splat or from scalar and vector
// pieces, an array or a struct from its elements.
func (e *emitter) foldConstruct(t *ir.Type, args []uint32) (ir.Value, bool) {
	vals := make([]ir.Value, len(args))
	for i, a := range args {
		v, ok := e.consts[a]
		if !ok {
			return ir.Value{}, false
		}
		vals[i] = v
	}
	if t.Kind != ir.KindVec {
		return ir.CompositeVal(t, vals...), true
	}
	var comps []ir.Value
	for _, v := range vals {
		if v.Type.Kind == ir.KindVec {
			comps = append(comps, v.Elems...)
		} else {
			comps = append(comps, v)
		}
	}
	for len(comps) < t.Len { // a splat
		comps = append(comps, comps[0])
	}
	return ir.CompositeVal(t, comps...), true
}

// convert emits the value conversion of v from type from to type to, both
// scalars or vectors of one width (WGSL "Conversion" constructors,
// #floating-point-conversion):
//   - float → i32/u32: portable mode first clamps to the range
//     representable in both types — f32: [-2147483648.0, 2147483520.0]
//     for i32, [0.0, 4294967040.0] for u32; f16: [-65504.0, 65504.0] and
//     [0.0, 65504.0], its whole finite range, so only ±∞ move — with
//     GLSL.std.450 FClamp (its bounds are ordered constants, so it is
//     defined), then OpConvertFToS/U, which truncate; raw mode converts
//     directly;
//   - i32/u32 → f32 or f16: OpConvertSToF/OpConvertUToF;
//   - f32 ↔ f16: OpFConvert (to f16: rounded by the implementation, which
//     WGSL allows either way; out of f16's range indeterminate);
//   - i32 ↔ u32: OpBitcast (the bits are kept);
//   - bool → number: OpSelect of 1 and 0; number → bool: x != 0
//     (OpINotEqual, OpFUnordNotEqual: -0.0 is false, NaN true).
func (f *fnEmitter) convert(v uint32, from, to *ir.Type) uint32 {
	e := f.e
	fs, ts := from.Scalar(), to.Scalar()
	fk, tk := fs.Kind, ts.Kind
	if fk == tk {
		return v
	}
	t := e.typeOf(to)
	switch {
	case tk == ir.KindBool:
		if fs.IsFloat() {
			return f.op(opFUnordNotEqual, t, v, e.splatConst(from, 0))
		}
		return f.op(opINotEqual, t, v, e.splatConst(from, 0))
	case fk == ir.KindBool:
		return f.op(opSelect, t, v, e.floatOrIntConst(to, 1), e.splatConst(to, 0))
	case fs.IsFloat() && ts.IsFloat():
		return f.op(opFConvert, t, v)
	case fs.IsFloat():
		if e.portable {
			lo, hi := float32(-2147483648.0), float32(2147483520.0)
			if tk == ir.KindU32 {
				lo, hi = 0, 4294967040.0
			}
			if fk == ir.KindF16 {
				lo, hi = -65504, 65504
				if tk == ir.KindU32 {
					lo = 0
				}
			}
			v = f.glsl(glslFClamp, e.typeOf(from), v, e.floatConst(from, lo), e.floatConst(from, hi))
		}
		if tk == ir.KindI32 {
			return f.op(opConvertFToS, t, v)
		}
		return f.op(opConvertFToU, t, v)
	case ts.IsFloat():
		if fk == ir.KindI32 {
			return f.op(opConvertSToF, t, v)
		}
		return f.op(opConvertUToF, t, v)
	}
	return f.op(opBitcast, t, v)
}

// access emits an Index, Member or Swizzle read. A chain rooted at a
// variable (var, global, demoted let) becomes one OpAccessChain and an
// OpLoad of just the element read (a multi-component swizzle loads its
// vector, then shuffles); a chain on a value uses OpCompositeExtract,
// OpVectorShuffle, OpVectorExtractDynamic, and — for a run-time index into
// an array value, which SPIR-V can only index through memory — a store
// into a Function variable and an access chain into it.
func (f *fnEmitter) access(x ir.Expr) uint32 {
	e := f.e
	if sw, ok := x.(*ir.Swizzle); ok && len(sw.Comps) > 1 {
		v := f.expr(sw.X)
		ops := []uint32{v, v}
		for _, c := range sw.Comps {
			ops = append(ops, uint32(c))
		}
		return f.op(opVectorShuffle, e.typeOf(sw.T), ops...)
	}
	if f.isPlace(x) {
		return f.loadPlace(x)
	}
	var operand ir.Expr
	switch x := x.(type) {
	case *ir.Member:
		operand = x.X
	case *ir.Swizzle:
		operand = x.X
	case *ir.Index:
		operand = x.X
	default:
		e.errorf(x.Position(), "unsupported access %T", x)
		return 0
	}
	return f.valueStep(f.expr(operand), x) // the operand first, then a run-time index
}

// isPlace reports whether x is an Index/Member/one-component Swizzle
// chain rooted at a name bound to a pointer.
func (f *fnEmitter) isPlace(x ir.Expr) bool {
	for {
		switch y := x.(type) {
		case *ir.Ident:
			if y.Ref == ir.RefGlobal || y.Ref == ir.RefShared {
				return true
			}
			return f.vals[y.Name].ptr
		case *ir.Index:
			x = y.X
		case *ir.Member:
			x = y.X
		case *ir.Swizzle:
			if len(y.Comps) != 1 {
				return false
			}
			x = y.X
		default:
			return false
		}
	}
}

// ref returns a pointer to the place x (an Ident of a var/global or an
// Index/Member/one-component Swizzle chain rooted at one), evaluating the
// indices from the root outwards.
func (f *fnEmitter) ref(x ir.Expr) uint32 {
	ptr, _, _ := f.refp(x)
	return ptr
}

// refp is ref that also returns the pointer's storage class and pointee
// type: the logical type of x, except in StorageBuffer and Uniform, where
// it is x's host-shareable mirror (abiType) or, for a whole binding of
// struct type, its Block struct.
func (f *fnEmitter) refp(x ir.Expr) (ptr, class, pointee uint32) {
	root, class, idx := f.chain(x)
	if len(idx) == 0 {
		if sv := f.e.sharedByID[root]; sv != nil {
			return root, class, sv.typ
		}
		return root, class, f.e.typeOf(x.Type())
	}
	pointee = f.e.typeOf(x.Type())
	if hostClass(class) {
		pointee = f.e.abiType(x.Type())
	}
	ptr = f.op(opAccessChain, f.b.typePointer(class, pointee), append([]uint32{root}, idx...)...)
	return ptr, class, pointee
}

// loadPlace loads the value of the place x: an OpLoad through refp, and
// in StorageBuffer and Uniform the conversion of the host-shareable
// mirror to the logical type (fromHost; arrays and structs are rebuilt,
// since their mirrors carry layout decorations and are other types).
func (f *fnEmitter) loadPlace(x ir.Expr) uint32 {
	if sv := f.std140Root(x); sv != nil {
		return f.uniformLoad(x, sv)
	}
	ptr, class, pointee := f.refp(x)
	if !hostClass(class) {
		return f.op(opLoad, pointee, ptr)
	}
	return f.fromHost(f.op(opLoad, pointee, ptr), x.Type())
}

// storeTo stores v, a value of logical type t, through ptr of class and
// pointee type pointee (from refp), converting it to the host-shareable
// mirror in StorageBuffer and Uniform (toHost; a whole struct binding's
// Block struct is built from the converted members).
func (f *fnEmitter) storeTo(ptr, class, pointee uint32, v uint32, t *ir.Type) {
	if hostClass(class) {
		if t.Kind == ir.KindStruct && pointee != f.e.abiType(t) {
			parts := f.leaves(v, t, func(x uint32, et *ir.Type) uint32 { return f.toHost(x, et) }, f.e.typeOf)
			v = f.op(opCompositeConstruct, pointee, parts...)
		} else {
			v = f.toHost(v, t)
		}
	}
	f.store(ptr, v)
}

func (f *fnEmitter) chain(x ir.Expr) (root, class uint32, idx []uint32) {
	e := f.e
	switch y := x.(type) {
	case *ir.Ident:
		if y.Ref == ir.RefGlobal {
			return e.globals[y.Name], storageClassPrivate, nil
		}
		if y.Ref == ir.RefShared {
			sv := e.shared[y.Name]
			if sv == nil {
				e.errorf(y.Pos, "%s is a shared variable, which only a compute entry point's call graph may use (ARCHITECTURE.md \"Kernel ABI\")", y.Name)
				return 0, storageClassPrivate, nil
			}
			return sv.id, sv.class, append([]uint32(nil), sv.wrap...)
		}
		bd := f.vals[y.Name]
		return bd.id, bd.class, nil
	case *ir.Index:
		root, class, idx = f.chain(y.X)
		if lit, ok := y.Index.(*ir.Lit); ok {
			return root, class, append(idx, e.b.constU32(lit.Val.Bits))
		}
		if y.X.Type().Kind == ir.KindRuntimeArray {
			if sv := e.sharedByID[root]; sv != nil {
				return root, class, append(idx, f.runtimeIndex(y.Index, sv))
			}
		}
		return root, class, append(idx, f.index(y.Index, y.X.Type().Len))
	case *ir.Member:
		root, class, idx = f.chain(y.X)
		return root, class, append(idx, e.b.constU32(uint32(y.Field)))
	case *ir.Swizzle:
		root, class, idx = f.chain(y.X)
		return root, class, append(idx, e.b.constU32(uint32(y.Comps[0])))
	}
	e.errorf(x.Position(), "%T is not a reference", x)
	return 0, 0, nil
}

// index emits a run-time index into an array or vector of n elements. In
// portable mode it is clamped to [0, n-1] as u32: min(u32(i), n-1), so a
// negative i32 index selects the last element (the reference semantics of
// ir.Index); raw mode passes it through unclamped.
func (f *fnEmitter) index(x ir.Expr, n int) uint32 {
	v := f.expr(x)
	if !f.e.portable {
		return v
	}
	u32 := f.e.typeOf(ir.U32)
	if x.Type().Kind == ir.KindI32 {
		v = f.op(opBitcast, u32, v)
	}
	return f.glsl(glslUMin, u32, v, f.b.constU32(uint32(n-1)))
}

// matrixBinary emits x op y where x or y is a matrix (WGSL
// #matrix-arithmetic): + and - column by column (OpFAdd and OpFSub take
// no matrices, SPIR-V §3.52.13), matrix * scalar and scalar * matrix
// OpMatrixTimesScalar, matrix * vector OpMatrixTimesVector, vector *
// matrix OpVectorTimesMatrix, matrix * matrix OpMatrixTimesMatrix.
func (f *fnEmitter) matrixBinary(op ir.BinaryOp, x uint32, xt *ir.Type, y uint32, yt *ir.Type, rt *ir.Type) uint32 {
	e := f.e
	t := e.typeOf(rt)
	switch {
	case op == ir.OpAdd || op == ir.OpSub:
		o := opFAdd
		if op == ir.OpSub {
			o = opFSub
		}
		ct := e.typeOf(rt.Elem)
		cols := make([]uint32, rt.Len)
		for i := range cols {
			a := f.op(opCompositeExtract, ct, x, uint32(i))
			b := f.op(opCompositeExtract, ct, y, uint32(i))
			cols[i] = f.op(o, ct, a, b)
		}
		return f.op(opCompositeConstruct, t, cols...)
	case yt.IsFloat():
		return f.op(opMatrixTimesScalar, t, x, y)
	case xt.IsFloat():
		return f.op(opMatrixTimesScalar, t, y, x)
	case yt.Kind == ir.KindVec:
		return f.op(opMatrixTimesVector, t, x, y)
	case xt.Kind == ir.KindVec:
		return f.op(opVectorTimesMatrix, t, x, y)
	}
	return f.op(opMatrixTimesMatrix, t, x, y)
}

// call emits a user call. A pointer argument (ir.AddrOf) that is a whole
// variable or pointer parameter is passed as it is; a view into one is
// passed through a temporary of the parameter's storage class, loaded
// before the call and stored back after it when the callee writes through
// it: SPIR-V's logical addressing lets an OpFunctionCall pointer operand
// be only a memory object declaration (SPIR-V §2.16.1, "Logical
// addressing"; VariablePointers is not required). The access chain is
// formed where the argument is evaluated (WGSL order), and the alias
// analysis (WGSL #alias-analysis) makes the copy unobservable.
func (f *fnEmitter) call(x *ir.Call) uint32 {
	e := f.e
	fi := e.funcs[x.Func]
	callee := e.m.Func(x.Func)
	args := make([]uint32, 0, len(x.Args)+1)
	args = append(args, fi.id)
	type copyOut struct {
		ptr, tmp uint32
		t        *ir.Type
	}
	var outs []copyOut
	for i, a := range x.Args {
		ad, ok := a.(*ir.AddrOf)
		if !ok {
			args = append(args, f.expr(a))
			continue
		}
		root, class, idx := f.chain(ad.X)
		if len(idx) == 0 {
			args = append(args, root)
			continue
		}
		pointee := e.typeOf(ad.T)
		ptr := f.op(opAccessChain, e.b.typePointer(class, pointee), append([]uint32{root}, idx...)...)
		var tmp uint32
		if class == storageClassPrivate {
			tmp = e.b.variable(e.b.typePointer(class, pointee), class, e.b.constNull(pointee))
		} else {
			tmp = f.newVar(ad.T, "ptr_arg")
		}
		f.store(tmp, f.op(opLoad, pointee, ptr))
		args = append(args, tmp)
		if callee != nil && ir.WritesThrough(callee, callee.Params[i].Name) {
			outs = append(outs, copyOut{ptr, tmp, ad.T})
		}
	}
	r := f.op(opFunctionCall, fi.result, args...)
	for _, o := range outs {
		f.store(o.ptr, f.load(o.t, o.tmp))
	}
	return r
}
