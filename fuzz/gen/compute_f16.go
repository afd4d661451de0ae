package gen

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// f16 code (Profile.F16, the "f16" profile; doc.go "f16 code"): a compute
// entry point of the compute profile that also computes in f16 (WGSL
// #floating-point-types, `enable f16;`): a read-only storage input and a
// read_write storage output of f16 or vecN<f16> elements, a uniform struct
// of f16 and vecN<f16> members beside an f32 one (the layouts that differ
// from f32's: 2-byte scalars, vec3<f16> of size 6 and alignment 8), a
// workgroup tile of f16 values exchanged like the compute profile's tile,
// and an f16 accumulator the phases update:
//
//	enable f16;
//	@group(0) @binding(20) var<storage, read> hin: array<H, N>;
//	@group(0) @binding(21) var<storage, read_write> hout: array<H2, N>;
//	@group(0) @binding(22) var<uniform> hprm: HParams;                 (optional)
//	var<workgroup> htile: array<H3, L>;                                 (optional)
//
//	var hacc: HT = <hin[gi] reshaped>;
//	phase*: { let hv… = <f16 expression>; hacc = …; [acc = f(acc, i32(hacc…))]; }
//	        [htile[li] = hacc…; barrier; hacc = hacc + htile[neighbour]…; barrier]
//	hout[gi] = <hacc reshaped>;
//
// The f16 expressions: + - * unary -, abs, min, max, clamp, sign, floor,
// ceil, round, trunc, select on f16 comparisons, dot, halving (x · 0.5h,
// floored), vector constructors and swizzles, conversions from and to
// f32, i32 and u32 (f32(h), f16(f32), i32(h), f16(i32), u32(abs(h)),
// f16(u32)), the input's and the uniform's elements and the local index.
//
// Exactness (binary16 holds every integer of magnitude ≤ 2^11 = 2048):
// every f16 value is an integer whose magnitude has a tracked bound ≤
// 1024 (hBound), as the compute profile's f32 values stay below 2^23
// (build.go), so that a sum or difference of two of them (≤ 2048) is
// itself exact; one whose bound passes 1024 is clamped back. The
// operands of a product are clamped to ±32 (a product ≤ 1024), of a dot
// to ±16 (every partial sum ≤ 1024); a halving multiplies by 0.5h (exact)
// and floors; conversions into f16 clamp to ±1024 first. So every f16
// operation's result is exact — the same bits on every conforming
// implementation, whatever WGSL's f16 accuracy rules allow for inexact
// ones (WGSL #concrete-float-accuracy) — and the inputs (Bindings) are
// integers of magnitude ≤ 1024.

// hBound is the magnitude bound of every f16 value in generated
// programs (2^10: binary16's integers are exact up to 2^11, so a sum of
// two is too).
const hBound = 1024

// f16Binding is the first binding number of the f16 bindings.
const f16Binding = 20

// hval is an f16 expression and the bound of its components' magnitudes.
type hval struct {
	e ir.Expr
	b int
}

// f16Gen generates the f16 code of one entry point.
type f16Gen struct {
	cg *computeGen
	r  *chooser
	// ht is hacc's type (f16 or vecN<f16>).
	ht                     *ir.Type
	hin, hout, hprm, htile *ir.Ident
	// params is hprm's struct, added to the module by finish.
	params *ir.StructDecl
	seq    int
}

// finish adds the uniform's struct to the module: after the rest of the
// program is generated, so the statement generator, which picks types
// among the module's structs, never computes with f16.
func (hg *f16Gen) finish() {
	if hg.params != nil {
		hg.cg.g.m.Structs = append(hg.cg.g.m.Structs, hg.params)
	}
}

func h16(v float32) ir.Expr { return lit(ir.F16Val(v)) }

// hType draws f16 or vecN<f16>.
func (hg *f16Gen) hType() *ir.Type {
	if n := []int{1, 1, 2, 3, 4}[hg.r.intn(5)]; n > 1 {
		return ir.Vec(n, ir.F16)
	}
	return ir.F16
}

// declare adds the f16 bindings and workgroup tile, and `enable f16;`.
func (hg *f16Gen) declare(add func(*ir.SharedVar) *ir.Ident) {
	cg, r := hg.cg, hg.r
	m := cg.g.m
	m.Opaque = append(m.Opaque, &ir.Opaque{Kind: "enable", Text: "enable f16;", Reason: "module-scope enable (kept verbatim)"})
	hg.ht = hg.hType()
	hg.hin = add(&ir.SharedVar{Name: "hin", T: ir.ArrayOf(hg.hType(), cg.n), Space: ir.SpaceStorage, Access: ir.AccessRead, Group: 0, Binding: f16Binding})
	hg.hout = add(&ir.SharedVar{Name: "hout", T: ir.ArrayOf(hg.hType(), cg.n), Space: ir.SpaceStorage, Access: ir.AccessReadWrite, Group: 0, Binding: f16Binding + 1})
	if r.chance(60) {
		p := &ir.StructDecl{Name: "HParams"}
		for i, nf := 0, r.between(1, 4); i < nf; i++ {
			ft := hg.hType()
			if i == 1 && r.chance(50) {
				ft = ir.F32 // f16 members around an f32: the layout mixes alignments 2, 4 and 8
			}
			p.Fields = append(p.Fields, ir.Field{Name: fmt.Sprintf("h%d", i), Type: ft})
		}
		hg.params = p // added to the module last: the statement generator must not pick it (f16)
		hg.hprm = add(&ir.SharedVar{Name: "hprm", T: ir.StructType(p), Space: ir.SpaceUniform, Access: ir.AccessRead, Group: 0, Binding: f16Binding + 2})
	}
	if r.chance(50) {
		hg.htile = add(&ir.SharedVar{Name: "htile", T: ir.ArrayOf(hg.hType(), cg.l), Space: ir.SpaceWorkgroup, Access: ir.AccessRead, Group: -1, Binding: -1})
	}
}

func (hg *f16Gen) haccE() ir.Expr { return &ir.Ident{Name: "hacc", T: hg.ht, Ref: ir.RefVar} }
func (hg *f16Gen) giE() ir.Expr   { return &ir.Ident{Name: hg.cg.gi.Name, T: ir.U32, Ref: ir.RefLet} }
func (hg *f16Gen) liE() ir.Expr   { return &ir.Ident{Name: hg.cg.li.Name, T: ir.U32, Ref: ir.RefParam} }

// init appends `var hacc: HT = <hin[gi]>;`.
func (hg *f16Gen) init() {
	cg := hg.cg
	cg.stmts = append(cg.stmts, &ir.Decl{Name: "hacc", T: hg.ht, Mutable: true, Init: reshape(index(ir.CloneExpr(hg.hin), hg.giE()), hg.ht)})
}

// reshape returns e (scalar or vector, of one scalar kind) as type t of
// the same scalar kind: a scalar splatted, a vector's first components
// (padded with its first).
func reshape(e ir.Expr, t *ir.Type) ir.Expr {
	from := e.Type()
	if ir.Identical(from, t) {
		return e
	}
	if t.Kind != ir.KindVec {
		return swizzle(e, 0)
	}
	if from.Kind != ir.KindVec {
		return construct(t, e)
	}
	if t.Len <= from.Len {
		comps := make([]uint8, t.Len)
		for i := range comps {
			comps[i] = uint8(i)
		}
		return swizzle(e, comps...)
	}
	args := []ir.Expr{e}
	for i := from.Len; i < t.Len; i++ {
		args = append(args, swizzle(ir.CloneExpr(e), 0))
	}
	return construct(t, args...)
}

// recondition clamps v back into ±hBound when its bound passed it.
func (hg *f16Gen) recondition(v hval) hval {
	if v.b <= hBound {
		return v
	}
	t := v.e.Type()
	return hval{e: builtin(ir.BClamp, v.e, hsplat(t, -hBound), hsplat(t, hBound)), b: hBound}
}

// bounded clamps v's components to ±b when its bound is larger.
func (hg *f16Gen) bounded(v hval, b int) hval {
	if v.b <= b {
		return v
	}
	t := v.e.Type()
	return hval{e: builtin(ir.BClamp, v.e, hsplat(t, -b), hsplat(t, b)), b: b}
}

// hsplat is the f16 (or vecN<f16>) constant with every component v.
func hsplat(t *ir.Type, v int) ir.Expr {
	if t.Kind == ir.KindVec {
		es := make([]ir.Value, t.Len)
		for i := range es {
			es[i] = ir.F16Val(float32(v))
		}
		return lit(ir.CompositeVal(t, es...))
	}
	return h16(float32(v))
}

// leaf returns a run-time f16 value of type t.
func (hg *f16Gen) leaf(t *ir.Type) hval {
	cg, r := hg.cg, hg.r
	switch r.weighted(4, 3, 2, 3, 1) {
	case 0:
		return hval{e: reshape(hg.haccE(), t), b: hBound}
	case 1:
		at := hg.giE()
		if r.chance(40) {
			at = bin(ir.OpRem, bin(ir.OpAdd, at, lit(ir.U32Val(uint32(r.between(1, cg.n))))), lit(ir.U32Val(uint32(cg.n))))
		}
		return hval{e: reshape(index(ir.CloneExpr(hg.hin), at), t), b: hBound}
	case 2:
		if hg.hprm != nil {
			s := hg.hprm.T.Struct
			i := r.intn(len(s.Fields))
			if s.Fields[i].Type.Scalar().Kind == ir.KindF16 {
				return hval{e: reshape(member(ir.CloneExpr(hg.hprm), i), t), b: hBound}
			}
		}
		fallthrough
	case 3:
		return hval{e: reshape(hg.fromOther(), t), b: hBound}
	}
	return hval{e: reshape(convert(ir.F16, hg.liE()), t), b: maxLocalInvocations}
}

// fromOther converts a value of the entry point's other types (acc) to
// f16, clamped into ±hBound first: f16(clamp(f32, …)), f16(clamp(i32,
// …)), f16(min(u32, 1024u)).
func (hg *f16Gen) fromOther() ir.Expr {
	cg := hg.cg
	switch hg.r.intn(3) {
	case 0:
		f := func(v float32) ir.Expr { return lit(ir.F32Val(v)) }
		return convert(ir.F16, builtin(ir.BClamp, cg.scalarOf(ir.F32), f(-hBound), f(hBound)))
	case 1:
		return convert(ir.F16, builtin(ir.BClamp, cg.scalarOf(ir.I32), lit(ir.I32Val(-hBound)), lit(ir.I32Val(hBound))))
	}
	return convert(ir.F16, builtin(ir.BMin, cg.scalarOf(ir.U32), lit(ir.U32Val(hBound))))
}

// expr returns an f16 expression of type t (f16 or vecN<f16>), depth d,
// with its bound ≤ hBound; it is never a const-expression.
func (hg *f16Gen) expr(t *ir.Type, d int) hval {
	r := hg.r
	if d <= 0 {
		return hg.leaf(t)
	}
	switch r.weighted(6, 3, 2, 2, 2, 2, 2, 2, 1, 2) {
	case 0: // a ± b (one operand may be a literal)
		a := hg.expr(t, d-1)
		var b hval
		if r.chance(25) {
			k := r.between(1, 8)
			b = hval{e: hsplat(t, k), b: k}
		} else {
			b = hg.expr(t, d-1)
		}
		op := ir.OpAdd
		if r.chance(40) {
			op = ir.OpSub
		}
		return hg.recondition(hval{e: bin(op, a.e, b.e), b: a.b + b.b})
	case 1: // a * b, operands ±32
		a, b := hg.bounded(hg.expr(t, d-1), 32), hg.bounded(hg.expr(t, d-1), 32)
		return hval{e: bin(ir.OpMul, a.e, b.e), b: a.b * b.b}
	case 2: // -a, abs(a), sign(a)
		a := hg.expr(t, d-1)
		switch r.intn(3) {
		case 0:
			return hval{e: un(ir.OpNeg, a.e), b: a.b}
		case 1:
			return hval{e: builtin(ir.BAbs, a.e), b: a.b}
		}
		return hval{e: builtin(ir.BSign, a.e), b: 1}
	case 3: // min, max
		a, b := hg.expr(t, d-1), hg.expr(t, d-1)
		fn := ir.BMin
		if r.chance(50) {
			fn = ir.BMax
		}
		return hval{e: builtin(fn, a.e, b.e), b: max(a.b, b.b)}
	case 4: // clamp(a, lo, hi), lo ≤ hi
		a := hg.expr(t, d-1)
		lo := r.between(-100, 10)
		hi := lo + r.between(0, 100)
		return hval{e: builtin(ir.BClamp, a.e, hsplat(t, lo), hsplat(t, hi)), b: min(a.b, max(-lo, hi, lo, -hi))}
	case 5: // floor, ceil, round, trunc of an integer (exact), or a halving
		a := hg.expr(t, d-1)
		if r.chance(40) {
			return hval{e: builtin(ir.BFloor, bin(ir.OpMul, a.e, hsplat05(t))), b: (a.b + 1) / 2}
		}
		fn := []ir.Builtin{ir.BFloor, ir.BCeil, ir.BRound, ir.BTrunc}[r.intn(4)]
		return hval{e: builtin(fn, a.e), b: a.b}
	case 6: // select(a, b, a.x < b.x)
		a, b := hg.expr(t, d-1), hg.expr(t, d-1)
		op := []ir.BinaryOp{ir.OpLt, ir.OpLe, ir.OpGt, ir.OpEq, ir.OpNe}[r.intn(5)]
		c := bin(op, reshape(ir.CloneExpr(a.e), ir.F16), reshape(ir.CloneExpr(b.e), ir.F16))
		return hval{e: &ir.Select{False: a.e, True: b.e, Cond: c, T: t}, b: max(a.b, b.b)}
	case 7: // through f32, i32 or u32 and back
		a := hg.expr(t, d-1)
		wt := t.WithScalar(ir.F32)
		switch r.intn(3) {
		case 0: // f16(clamp(f32(a) * 3.0f, …))
			k := float32(r.between(2, 5))
			e := bin(ir.OpMul, convert(wt, a.e), lit(splatF32(wt, k)))
			return hval{e: convert(t, builtin(ir.BClamp, e, lit(splatF32(wt, -hBound)), lit(splatF32(wt, hBound)))), b: min(hBound, a.b*int(k))}
		case 1: // f16(clamp(i32(a) * k, …)), |i32(a) * k| ≤ 1024 · 5
			it := t.WithScalar(ir.I32)
			k := int64(r.between(2, 5))
			e := bin(ir.OpMul, convert(it, a.e), lit(splat(it, k)))
			return hval{e: convert(t, builtin(ir.BClamp, e, lit(splat(it, -hBound)), lit(splat(it, hBound)))), b: min(hBound, a.b*int(k))}
		}
		ut := t.WithScalar(ir.U32) // f16(u32(abs(a)))
		return hval{e: convert(t, convert(ut, builtin(ir.BAbs, a.e))), b: a.b}
	case 8: // dot of two vectors, operands ±16
		if t.Kind != ir.KindVec {
			n := r.between(2, 4)
			vt := ir.Vec(n, ir.F16)
			a, b := hg.bounded(hg.expr(vt, d-1), 16), hg.bounded(hg.expr(vt, d-1), 16)
			return hval{e: builtin(ir.BDot, a.e, b.e), b: n * a.b * b.b}
		}
		fallthrough
	default: // a vector built from scalars, or a scalar from a vector's component
		if t.Kind == ir.KindVec {
			args := make([]ir.Expr, t.Len)
			b := 0
			for i := range args {
				v := hg.expr(ir.F16, d-1)
				args[i], b = v.e, max(b, v.b)
			}
			return hval{e: construct(t, args...), b: b}
		}
		vt := ir.Vec(r.between(2, 4), ir.F16)
		v := hg.expr(vt, d-1)
		return hval{e: swizzle(v.e, uint8(r.intn(vt.Len))), b: v.b}
	}
}

func hsplat05(t *ir.Type) ir.Expr {
	if t.Kind == ir.KindVec {
		es := make([]ir.Value, t.Len)
		for i := range es {
			es[i] = ir.F16Val(0.5)
		}
		return lit(ir.CompositeVal(t, es...))
	}
	return h16(0.5)
}

func splatF32(t *ir.Type, v float32) ir.Value {
	if t.Kind == ir.KindVec {
		es := make([]ir.Value, t.Len)
		for i := range es {
			es[i] = ir.F32Val(v)
		}
		return ir.CompositeVal(t, es...)
	}
	return ir.F32Val(v)
}

// phase appends a block of f16 code: lets of f16 expressions, an update
// of hacc (whole, or a component), and sometimes hacc mixed into acc.
func (hg *f16Gen) phase() {
	cg, r := hg.cg, hg.r
	var ss []ir.Stmt
	var lets []hval
	for i, n := 0, r.between(1, 3); i < n; i++ {
		t := hg.hType()
		v := hg.expr(t, r.between(1, 3))
		hg.seq++
		name := fmt.Sprintf("hv%d", hg.seq-1)
		ss = append(ss, &ir.Decl{Name: name, T: t, Init: v.e})
		lets = append(lets, hval{e: &ir.Ident{Name: name, T: t, Ref: ir.RefLet}, b: v.b})
	}
	last := lets[len(lets)-1]
	if hg.ht.Kind == ir.KindVec && r.chance(35) {
		// hacc.c = f(hacc.c, let)
		c := uint8(r.intn(hg.ht.Len))
		cur := hval{e: swizzle(hg.haccE(), c), b: hBound}
		nv := hg.recondition(hval{e: bin(ir.OpAdd, cur.e, reshape(last.e, ir.F16)), b: cur.b + last.b})
		ss = append(ss, &ir.Assign{LHS: swizzle(hg.haccE(), c), RHS: nv.e})
	} else {
		cur := hval{e: hg.haccE(), b: hBound}
		var nv hval
		switch r.intn(3) {
		case 0:
			nv = hg.recondition(hval{e: bin(ir.OpAdd, cur.e, reshape(last.e, hg.ht)), b: cur.b + last.b})
		case 1:
			nv = hval{e: builtin(ir.BMax, cur.e, reshape(last.e, hg.ht)), b: hBound}
		default:
			nv = hval{e: reshape(last.e, hg.ht), b: last.b}
		}
		ss = append(ss, &ir.Assign{LHS: hg.haccE(), RHS: nv.e})
	}
	if r.chance(50) {
		ss = append(ss, hg.mixIntoAcc())
	}
	cg.stmts = append(cg.stmts, &ir.Block{Stmts: ss})
}

// mixIntoAcc is acc = f(acc, i32(hacc…)) (exact: an integer ≤ 1024).
func (hg *f16Gen) mixIntoAcc() ir.Stmt {
	cg := hg.cg
	var h ir.Expr = reshape(hg.haccE(), ir.F16)
	var s ir.Expr
	if hg.r.chance(30) {
		s = convert(ir.U32, builtin(ir.BAbs, h))
	} else {
		s = convert(ir.I32, h)
	}
	return &ir.Assign{LHS: cg.acc, RHS: cg.combine(cg.acc, cg.fromScalar(s))}
}

// write is the exchange's write phase: htile[li] = hacc (reshaped).
func (hg *f16Gen) write() {
	cg := hg.cg
	cg.stmts = append(cg.stmts, &ir.Assign{LHS: index(ir.CloneExpr(hg.htile), hg.liE()), RHS: reshape(hg.haccE(), hg.htile.T.Elem)})
}

// read is the exchange's read phase: hacc = f(hacc, a neighbour's slot).
func (hg *f16Gen) read() {
	cg := hg.cg
	nb := reshape(index(ir.CloneExpr(hg.htile), cg.rot(hg.liE(), uint32(cg.l))), hg.ht)
	var e ir.Expr
	if hg.r.chance(50) {
		e = builtin(ir.BClamp, bin(ir.OpAdd, hg.haccE(), nb), hsplat(hg.ht, -hBound), hsplat(hg.ht, hBound))
	} else {
		e = builtin(ir.BMin, hg.haccE(), nb)
	}
	cg.stmts = append(cg.stmts, &ir.Assign{LHS: hg.haccE(), RHS: e})
}

// output appends hout[gi] = <hacc, or an expression of it, reshaped>.
func (hg *f16Gen) output() {
	cg := hg.cg
	et := hg.hout.T.Elem
	v := hval{e: reshape(hg.haccE(), et), b: hBound}
	if hg.r.chance(40) {
		v = hg.recondition(hval{e: bin(ir.OpAdd, v.e, hg.expr(et, 1).e), b: 2 * hBound})
	}
	cg.stmts = append(cg.stmts, &ir.Assign{LHS: index(ir.CloneExpr(hg.hout), hg.giE()), RHS: v.e})
	if hg.r.chance(50) {
		cg.stmts = append(cg.stmts, hg.mixIntoAcc())
	}
}
