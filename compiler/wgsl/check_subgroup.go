package wgsl

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// Subgroup and quad builtins (WGSL #subgroup-builtin-functions,
// #quad-builtin-functions; ir.ClassSubgroup), checked against their
// overloads and lowered to ir.BuiltinCall:
//
//   - subgroupAdd, Mul, Min, Max and the inclusive and exclusive scans
//     (InclusiveAdd, ExclusiveAdd, InclusiveMul, ExclusiveMul) take a
//     concrete numeric scalar or vector T (i32, u32, f32, f16) and
//     return T; subgroupAnd, Or and Xor an integer one;
//   - subgroupAll and subgroupAny take and return bool, subgroupBallot
//     takes a bool and returns vec4<u32>, subgroupElect takes nothing and
//     returns bool;
//   - subgroupBroadcastFirst(e: T), subgroupBroadcast(e: T, id: I) and
//     quadBroadcast(e: T, id: I) with I i32 or u32 and id a
//     const-expression in [0, 128) and [0, 4); subgroupShuffle(e: T,
//     id: I); subgroupShuffleXor(e: T, mask: u32), subgroupShuffleUp and
//     subgroupShuffleDown(e: T, delta: u32); quadSwapX, quadSwapY and
//     quadSwapDiagonal(e: T): T a concrete numeric scalar or vector.
//
// Abstract arguments concretize (AbstractInt to i32 for T and I, to u32
// for a u32 parameter; AbstractFloat to f32). None is a const-expression.
// WGSL requires `enable subgroups;` for all of them; a module without it
// is accepted as naga accepts it, with a note (Notes).

// chkMaxSubgroupSize is the largest subgroup size WGSL allows (WGSL
// #subgroup-builtin-values: a power of two in [4, 128]), the bound of a
// subgroupBroadcast id.
const chkMaxSubgroupSize = 128

// subgroupCall checks a call of subgroup or quad builtin b with checked
// arguments args (their count already checked).
func (c *chkCtx) subgroupCall(b ir.Builtin, id *astIdentExpr, args []chkOp) chkOp {
	name := b.Info().Name
	noOverload := func() {
		c.errorf(id.off, "no overload of %s(%s) (WGSL #subgroup-builtin-functions)", name, chkTypeList(args))
	}
	var want func(l *chkType) bool
	switch b {
	case ir.BSubgroupAll, ir.BSubgroupAny, ir.BSubgroupBallot:
		want = func(l *chkType) bool { return l.k == ckBool }
		if args[0].t.k != ckBool {
			noOverload()
		}
	case ir.BSubgroupAnd, ir.BSubgroupOr, ir.BSubgroupXor:
		want = func(l *chkType) bool { return l.isInt() }
	case ir.BSubgroupElect:
	default:
		want = func(l *chkType) bool { return l.k != ckBool }
	}
	for i, a := range args {
		if i > 0 {
			args[i] = c.subgroupIndexArg(b, a, i)
			continue
		}
		l := a.t.leaf()
		if l == nil || !want(l) {
			noOverload()
		}
		args[i] = c.concrete(a)
	}
	irArgs := make([]*ir.Type, len(args))
	exprs := make([]ir.Expr, len(args))
	for i, a := range args {
		irArgs[i] = a.t.toIR()
		exprs[i] = c.irOf(a)
	}
	rt, err := ir.BuiltinResultType(b, irArgs)
	if err != nil {
		c.errorf(id.off, "%s: %v", name, err)
	}
	return chkOp{t: chkFromIR(rt), e: &ir.BuiltinCall{Pos: c.pos(id.off), Fn: b, Args: exprs, T: rt}, off: id.off}
}

// subgroupIndexArg checks argument i > 0 of b: the lane or quad index of
// subgroupBroadcast, subgroupShuffle and quadBroadcast (i32 or u32; a
// const-expression in range for the broadcasts) or the u32 mask or delta
// of the relative shuffles.
func (c *chkCtx) subgroupIndexArg(b ir.Builtin, a chkOp, i int) chkOp {
	name := b.Info().Name
	what := fmt.Sprintf("argument %d of %s", i+1, name)
	if !a.t.isScalar() || !a.t.isInt() {
		c.errorf(a.off, "%s must be an integer scalar, not %v (WGSL #subgroup-builtin-functions)", what, a.t)
	}
	switch b {
	case ir.BSubgroupShuffleXor, ir.BSubgroupShuffleUp, ir.BSubgroupShuffleDown:
		return c.to(a, chkU32, what)
	}
	a = c.concrete(a)
	limit, idName := int64(0), "id"
	switch b {
	case ir.BSubgroupBroadcast:
		limit, idName = chkMaxSubgroupSize, "sourceLaneIndex"
	case ir.BQuadBroadcast:
		limit = 4
	}
	if limit == 0 {
		return a
	}
	if a.c == nil {
		c.errorf(a.off, "the %s argument of %s must be a const-expression (WGSL #%s-builtin)", idName, name, name)
	}
	if a.c.i < 0 || a.c.i >= limit {
		c.errorf(a.off, "the %s argument of %s is %d, not in [0, %d) (WGSL #%s-builtin)", idName, name, a.c.i, limit, name)
	}
	return a
}
