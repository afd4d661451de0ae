package wgsl

import (
	"fmt"
	"math"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/ir/wgslsem"
)

// Type checking, constant evaluation and lowering of expressions (WGSL
// #expressions, #type-checking-section, #const-expr, #concretization).
// Every const-expression becomes one ir.Lit of its concretized type where
// a concrete value is needed; abstract values convert to the type their
// context requires (WGSL #conversion-rank, #overload-resolution-section).

// chkOp is a checked operand: a constant (c set, e nil) or a run-time
// expression (e set, concrete type). ref marks a memory view rooted at a
// var or private global that may be assigned.
type chkOp struct {
	t   *chkType
	c   *cVal
	e   ir.Expr
	ref bool
	off int32
	// vcomp marks a component of a vector (swizzle or vector index).
	vcomp bool
}

func (c *chkCtx) constOp(v cVal, off int32) chkOp { return chkOp{t: v.t, c: &v, off: off} }

// cvResult turns a const-evaluation result into an operand; an error is a
// shader-creation error unless the operand is not evaluated.
func (c *chkCtx) cvResult(off int32, v cVal, err error, t *chkType) chkOp {
	if err != nil {
		if c.noEval > 0 {
			return c.constOp(cvZero(t), off)
		}
		c.errorf(off, "%v", err)
	}
	return c.constOp(v, off)
}

// irOf returns the ir expression of a concrete operand.
func (c *chkCtx) irOf(op chkOp) ir.Expr {
	if op.c != nil && (op.e == nil || op.t.k != ckStruct || !ir.IsPredeclaredStruct(op.t.st)) {
		if op.t.isAbstract() {
			panic(fmt.Sprintf("wgsl: irOf abstract operand of type %v", op.t))
		}
		return &ir.Lit{Pos: c.pos(op.off), Val: op.c.toIR()}
	}
	return op.e
}

// to converts op to type t (identity or a feasible automatic conversion of
// an abstract constant), or reports "cannot use … as t in what".
func (c *chkCtx) to(op chkOp, t *chkType, what string) chkOp {
	if chkIdentical(op.t, t) {
		return op
	}
	if op.c != nil && op.t.isAbstract() && chkAutoConvertible(op.t, t) {
		v, err := cvAuto(*op.c, t)
		r := c.cvResult(op.off, v, err, t)
		return r
	}
	c.errorf(op.off, "cannot use a value of type %v as %v in %s", op.t, t, what)
	return op
}

// concrete applies concretization (WGSL #concretization).
func (c *chkCtx) concrete(op chkOp) chkOp {
	if !op.t.isAbstract() {
		return op
	}
	return c.to(op, op.t.concretize(), "concretization")
}

// value checks an expression that must produce a value (not void).
func (c *chkCtx) value(e astExpr) chkOp {
	op := c.expr(e)
	if op.t.k == ckVoid {
		c.errorf(astExprStart(e), "expression has no value")
	}
	return op
}

func (c *chkCtx) expr(e astExpr) chkOp {
	switch x := e.(type) {
	case *astLitExpr:
		return c.literal(x)
	case *astParenExpr:
		op := c.expr(x.x)
		op.off = x.off
		return op
	case *astIdentExpr:
		return c.ident(x)
	case *astCallExpr:
		return c.call(x, false)
	case *astUnaryExpr:
		return c.unary(x)
	case *astBinaryExpr:
		return c.binary(x)
	case *astIndexExpr:
		return c.index(x)
	case *astMemberExpr:
		return c.member(x)
	}
	panic(fmt.Sprintf("wgsl: unknown expression %T", e))
}

func (c *chkCtx) literal(x *astLitExpr) chkOp {
	if x.kind == lexKeyword {
		return c.constOp(cvBool(x.text == "true"), x.off)
	}
	v, _, err := cvLiteral(x.text, x.kind)
	if err != nil {
		c.errorf(x.off, "%v", err)
	}
	return c.constOp(v, x.off)
}

func (c *chkCtx) ident(x *astIdentExpr) chkOp {
	if l := c.local(x.name); l != nil {
		if x.hasTmpl {
			c.errorf(x.off, "'%s' does not take template arguments", x.name)
		}
		if l.ref == 0 {
			return c.constOp(*l.c, x.off)
		}
		if l.ptr != nil && l.ptr.param {
			c.errorf(x.off, "%s cannot be used as a value here (WGSL #address-of-expr: no operator, conversion or value builtin takes a pointer; write *%s)", l.ptr.what, x.name)
		}
		if l.ptr != nil {
			c.errorf(x.off, "let '%s' is %s, which cannot be used as a value here (WGSL #address-of-expr: no operator, conversion or value builtin takes a pointer)", x.name, l.ptr.what)
		}
		return chkOp{t: l.t, e: &ir.Ident{Pos: c.pos(x.off), Name: l.name, T: l.t.toIR(), Ref: l.ref},
			ref: l.ref == ir.RefVar, off: x.off}
	}
	if d, ok := c.mc.byName[x.name]; ok {
		kind := d.a.kind
		switch kind {
		case "const", "var", "override":
			if d.outside != "" {
				c.outsideThrough(x.off, "uses "+kind+" "+x.name, d)
			}
			if x.hasTmpl {
				c.errorf(x.off, "'%s' does not take template arguments", x.name)
			}
			if kind == "const" || kind == "override" {
				// An override's value is its default (overrideDecl).
				if d.c == nil {
					panic(chkAbort{})
				}
				return c.constOp(*d.c, x.off)
			}
			if d.tex != nil {
				return chkOp{t: chkFromIR(d.tex.T), e: &ir.Ident{Pos: c.pos(x.off), Name: x.name, T: d.tex.T, Ref: ir.RefHandle}, off: x.off}
			}
			if d.shared != nil {
				t := chkFromIR(d.shared.T)
				return chkOp{t: t, e: &ir.Ident{Pos: c.pos(x.off), Name: x.name, T: d.shared.T, Ref: ir.RefShared},
					ref: d.shared.Writable(), off: x.off}
			}
			if d.glob == nil {
				panic(chkAbort{})
			}
			t := chkFromIR(d.glob.T)
			return chkOp{t: t, e: &ir.Ident{Pos: c.pos(x.off), Name: x.name, T: d.glob.T, Ref: ir.RefGlobal},
				ref: true, off: x.off}
		case "fn":
			c.errorf(x.off, "function '%s' cannot be used as a value", x.name)
		}
		c.errorf(x.off, "type '%s' cannot be used as a value", x.name)
	}
	if chkIsPredeclared(x.name) {
		c.errorf(x.off, "'%s' cannot be used as a value", x.name)
	}
	panic(chkAbort{}) // undeclared: reported by the resolver
}

// ---- operators ----

var chkBinaryOps = map[lexKind]ir.BinaryOp{
	lexPlus: ir.OpAdd, lexMinus: ir.OpSub, lexStar: ir.OpMul, lexSlash: ir.OpDiv, lexPercent: ir.OpRem,
	lexAnd: ir.OpAnd, lexOr: ir.OpOr, lexXor: ir.OpXor, lexShl: ir.OpShl, lexShr: ir.OpShr,
	lexAndAnd: ir.OpLogAnd, lexOrOr: ir.OpLogOr, lexEqEq: ir.OpEq, lexNotEq: ir.OpNe,
	lexLt: ir.OpLt, lexLe: ir.OpLe, lexGt: ir.OpGt, lexGe: ir.OpGe,
	lexPlusAssign: ir.OpAdd, lexMinusAssign: ir.OpSub, lexStarAssign: ir.OpMul, lexSlashAssign: ir.OpDiv,
	lexPercentAssgn: ir.OpRem, lexAndAssign: ir.OpAnd, lexOrAssign: ir.OpOr, lexXorAssign: ir.OpXor,
	lexShlAssign: ir.OpShl, lexShrAssign: ir.OpShr,
}

func (c *chkCtx) unary(x *astUnaryExpr) chkOp {
	switch x.op {
	case lexAnd:
		// Reached only where a pointer is not allowed: the places that
		// take one call pointerUse first.
		c.errorf(x.off, "%s cannot be used as a value here (WGSL #address-of-expr: no operator, conversion or value builtin takes a pointer)", c.addrOfView(x).what)
	case lexStar:
		if p := c.pointerUse(x.x); p != nil {
			v := p.view
			v.off = x.off
			return v
		}
	}
	a := c.value(x.x)
	if x.op == lexStar {
		// No subset expression has a pointer type (forming one makes the
		// function outside the subset before this point).
		c.errorf(x.off, "cannot dereference a value of type %v", a.t)
	}
	var op ir.UnaryOp
	ok := false
	l := a.t.leaf()
	switch x.op {
	case lexMinus:
		op, ok = ir.OpNeg, l != nil && (l.k == ckAbsInt || l.k == ckAbsFloat || l.k == ckI32 || l.k == ckF32 || l.k == ckF16)
	case lexBang:
		op, ok = ir.OpNot, l != nil && l.k == ckBool
	case lexTilde:
		op, ok = ir.OpCompl, l != nil && l.isInt()
	}
	if !ok {
		c.errorf(x.off, "operator %s is not defined for %v", lexSpelling[x.op], a.t)
	}
	if a.c != nil {
		v, err := cvUnary(op, *a.c)
		return c.cvResult(x.off, v, err, a.t)
	}
	return chkOp{t: a.t, e: &ir.Unary{Pos: c.pos(x.off), Op: op, X: a.e, T: a.t.toIR()}, off: x.off}
}

// chkAddrOf returns e, parentheses removed, when it is an address-of
// expression &x; else nil.
func chkAddrOf(e astExpr) *astUnaryExpr {
	if u, ok := chkUnparen(e).(*astUnaryExpr); ok && u.op == lexAnd {
		return u
	}
	return nil
}

func chkUnparen(e astExpr) astExpr {
	for {
		p, ok := e.(*astParenExpr)
		if !ok {
			return e
		}
		e = p.x
	}
}

// chkPtr is a pointer the checker follows (WGSL #address-of-expr): the
// memory view it points to, and how messages name it.
type chkPtr struct {
	view chkOp
	what string // "a pointer (address-of operator '&', ptr<function, u32, read_write>)"
	off  int32
	// space is the pointer's address space; param marks a pointer
	// parameter (in the subset), whose view is a fresh RefPtr Ident at
	// each use.
	space ir.AddressSpace
	param bool
	// readOnly marks a pointer parameter whose view may not be stored
	// to (ptr<storage, T, read>, ptr<uniform, T>).
	readOnly bool
	// stable marks a let's pointer whose view the subset re-evaluates
	// at each use (stableView): each use gets a copy of the view.
	stable bool
}

// addrOfView checks the operand of &x (a memory view, not a vector
// component) and returns the pointer &x forms.
func (c *chkCtx) addrOfView(u *astUnaryExpr) *chkPtr {
	if inner := c.pointer(u.x); inner != nil {
		c.errorf(u.off, "cannot take the address of %s", inner.what)
	}
	a := c.value(u.x)
	var root *ir.Ident
	if a.e != nil {
		root = ir.RootIdent(a.e)
	}
	if !a.ref && (root == nil || root.Ref != ir.RefShared && root.Ref != ir.RefPtr) {
		c.errorf(u.off, "cannot take the address of a value of type %v that is not a variable reference", a.t)
	}
	if a.vcomp {
		c.errorf(u.off, "cannot take the address of a vector component")
	}
	space, access := ir.SpaceFunction, "read_write"
	switch {
	case root == nil:
	case root.Ref == ir.RefGlobal:
		space = ir.SpacePrivate
	case root.Ref == ir.RefPtr:
		if l := c.local(root.Name); l != nil && l.ptr != nil {
			space = l.ptr.space
			if l.ptr.readOnly {
				access = "read"
			}
		}
	case root.Ref == ir.RefShared:
		if d := c.mc.byName[root.Name]; d != nil && d.shared != nil {
			space = d.shared.Space
			if !d.shared.Writable() {
				access = "read"
			}
		}
	}
	return &chkPtr{view: a, what: fmt.Sprintf("a pointer (address-of operator '&', ptr<%v, %v, %s>)", space, a.t, access), off: u.off, space: space, readOnly: access == "read"}
}

// pointer returns the pointer e denotes when e is &x or names a let
// holding a pointer; else nil.
func (c *chkCtx) pointer(e astExpr) *chkPtr {
	switch x := chkUnparen(e).(type) {
	case *astUnaryExpr:
		if x.op == lexAnd {
			return c.addrOfView(x)
		}
	case *astIdentExpr:
		if l := c.local(x.name); l != nil && l.ptr != nil && l.ptr.param {
			p := *l.ptr
			p.off = x.off
			p.view = chkOp{t: l.t, e: &ir.Ident{Pos: c.pos(x.off), Name: l.name, T: l.t.toIR(), Ref: ir.RefPtr}, ref: !l.ptr.readOnly, off: x.off}
			return &p
		}
		if l := c.local(x.name); l != nil && l.ptr != nil {
			p := *l.ptr
			p.off = x.off
			p.view.off = x.off
			if p.stable {
				p.view.e = ir.CloneExpr(p.view.e)
			}
			return &p
		}
	}
	return nil
}

// pointerUse is called where WGSL allows a pointer (a let initializer, a
// phony assignment, the operand of '*', the base of '.' or '[]'): it
// returns the pointer e denotes, or nil. A pointer is valid WGSL outside
// the subset; the declaration is refused as such once checked through
// (deferOutside), so that its errors are still found.
func (c *chkCtx) pointerUse(e astExpr) *chkPtr {
	p := c.pointer(e)
	if p != nil && !p.param && !p.stable && chkAddrOf(e) == nil {
		c.deferOutside(p.off, "pointer (address-of operator '&')")
	}
	return p
}

// deferOutside records that the declaration is outside the subset, its
// first such construct winning; checkDecl refuses it at the end unless
// an error abandons it first.
func (c *chkCtx) deferOutside(off int32, reason string) {
	if c.pending == nil {
		c.pending = &chkOutside{off: off, reason: reason}
	}
}

// noPointerOperand refuses a pointer as an operand of operator op.
func (c *chkCtx) noPointerOperand(e astExpr, op ir.BinaryOp) {
	if p := c.pointer(e); p != nil {
		c.errorf(p.off, "operator %s is not defined for %s", op, p.what)
	}
}

// chkUnifyLeaf returns the scalar type both a and b convert to, or nil.
func chkUnifyLeaf(a, b *chkType) *chkType {
	switch {
	case a.k == b.k:
		return a
	case a.isAbstract() && !b.isAbstract():
		if chkConvRank(a, b) >= 0 {
			return b
		}
	case b.isAbstract() && !a.isAbstract():
		if chkConvRank(b, a) >= 0 {
			return a
		}
	case a.isAbstract() && b.isAbstract():
		return chkAbsFloat
	}
	return nil
}

// chkBinaryType types x op y for operands with the same scalar type
// (WGSL #arithmetic-expr, #comparison-expr, #bit-expr, #logical-expr).
func chkBinaryType(op ir.BinaryOp, x, y *chkType) *chkType {
	xs, ys := x.leaf(), y.leaf()
	if xs == nil || ys == nil || xs.k != ys.k {
		return nil
	}
	boolShaped := func(t *chkType) *chkType {
		if t.k == ckVec {
			return chkVec(t.n, chkBool)
		}
		return chkBool
	}
	switch op.Info().Class {
	case ir.ClassArith:
		if xs.k == ckBool {
			return nil
		}
		switch {
		case chkIdentical(x, y):
			return x
		case x.k == ckVec && y.isScalar():
			return x
		case x.isScalar() && y.k == ckVec:
			return y
		}
	case ir.ClassBitwise:
		if chkIdentical(x, y) && (xs.isInt() || xs.k == ckBool && op != ir.OpXor) {
			return x
		}
	case ir.ClassLogical:
		if x.k == ckBool && y.k == ckBool {
			return chkBool
		}
	case ir.ClassEquality:
		if chkIdentical(x, y) {
			return boolShaped(x)
		}
	case ir.ClassOrder:
		if chkIdentical(x, y) && xs.k != ckBool {
			return boolShaped(x)
		}
	}
	return nil
}

func (c *chkCtx) binary(x *astBinaryExpr) chkOp {
	op := chkBinaryOps[x.op]
	c.noPointerOperand(x.x, op)
	a := c.value(x.x)
	c.noPointerOperand(x.y, op)
	var b chkOp
	if (op == ir.OpLogAnd || op == ir.OpLogOr) && a.c != nil && a.t.k == ckBool && a.c.b == (op == ir.OpLogOr) {
		c.noEval++
		b = c.value(x.y)
		c.noEval--
	} else {
		b = c.value(x.y)
	}
	return c.binaryOps(op, a, b, x.off)
}

// binaryOps types, evaluates or lowers a op b; off is the operator.
func (c *chkCtx) binaryOps(op ir.BinaryOp, a, b chkOp, off int32) chkOp {
	bad := func() chkOp {
		c.errorf(off, "operator %s is not defined for %v and %v", op, a.t, b.t)
		return a
	}
	if a.t.k == ckMat || b.t.k == ckMat {
		return c.matrixBinary(op, a, b, off)
	}
	al, bl := a.t.leaf(), b.t.leaf()
	if al == nil || bl == nil {
		return bad()
	}
	if op.Info().Class == ir.ClassShift {
		if !al.isInt() || !bl.isInt() || a.t.width() != b.t.width() {
			return bad()
		}
		b = c.to(b, b.t.withScalar(chkU32), "shift amount")
		if a.c == nil || b.c == nil {
			a = c.concrete(a)
			if b.c != nil && !a.t.isAbstract() {
				for _, s := range cvComponents(*b.c) {
					if s.i >= 32 {
						c.errorf(b.off, "shift amount %d is not less than the bit width 32 of %v", s.i, a.t.leaf())
					}
				}
			}
		}
	} else {
		leaf := chkUnifyLeaf(al, bl)
		if leaf == nil {
			return bad()
		}
		if (a.c == nil || b.c == nil) && leaf.isAbstract() {
			leaf = leaf.concretize()
		}
		a = c.to(a, a.t.withScalar(leaf), "operand of "+op.String())
		b = c.to(b, b.t.withScalar(leaf), "operand of "+op.String())
	}
	var rt *chkType
	if op.Info().Class == ir.ClassShift {
		rt = a.t
	} else if rt = chkBinaryType(op, a.t, b.t); rt == nil {
		return bad()
	}
	if a.c != nil && b.c != nil {
		v, err := cvBinary(op, *a.c, *b.c, rt)
		return c.cvResult(off, v, err, rt)
	}
	if (op == ir.OpDiv || op == ir.OpRem) && rt.leaf().isInt() && b.c != nil {
		for _, s := range cvComponents(*b.c) {
			if s.i == 0 {
				c.errorf(b.off, "integer %s by zero", cvDivName(op))
			}
		}
	}
	return chkOp{t: rt, e: &ir.Binary{Pos: c.pos(off), Op: op, X: c.irOf(a), Y: c.irOf(b), T: rt.toIR()}, off: off}
}

// ---- access ----

func (c *chkCtx) index(x *astIndexExpr) chkOp {
	op, i, ok := c.zeroArrayElement(x)
	if ok {
		return op
	}
	var base chkOp
	if p := c.pointerUse(x.x); p != nil {
		base = p.view // WGSL #pointer-composite-access
	} else {
		base = c.value(x.x)
	}
	if base.t.k != ckVec && base.t.k != ckArray && base.t.k != ckRuntimeArray && base.t.k != ckMat {
		c.errorf(x.off, "cannot index a value of type %v", base.t)
	}
	if i == nil {
		v := c.value(x.index)
		i = &v
	}
	if !i.t.isScalar() || !i.t.isInt() {
		c.errorf(i.off, "index must be an integer, not %v", i.t)
	}
	if i.c != nil && base.t.k == ckRuntimeArray && i.c.i < 0 {
		c.errorf(i.off, "index %d is out of bounds for %v", i.c.i, base.t)
	}
	if i.c != nil && base.t.k != ckRuntimeArray && (i.c.i < 0 || i.c.i >= int64(base.t.n)) {
		c.errorf(i.off, "index %d is out of bounds for %v", i.c.i, base.t)
	}
	if base.c != nil && i.c != nil && base.t.isAbstract() && c.usesOverride(x.index) {
		// An index that depends on an override makes the access an
		// override-expression, evaluated at pipeline creation, whose
		// abstract base is concretized first (WGSL #override-expr,
		// #concretization): vec2(1e-50)[O] is 0.0f (bug/tint/1697.wgsl).
		base = c.concrete(base)
	}
	if base.c != nil && i.c != nil {
		return c.constOp(base.c.el[i.c.i], x.off)
	}
	base = c.concrete(base)
	ci := c.concrete(*i)
	return chkOp{t: base.t.elem, e: &ir.Index{Pos: c.pos(x.off), X: c.irOf(base), Index: c.irOf(ci), T: base.t.elem.toIR()},
		ref: base.ref, off: x.off, vcomp: base.t.k == ckVec}
}

// zeroArrayElement folds array<T, N>()[k], k a const-expression, to T's
// zero value (WGSL #zero-value-builtin-function, #array-access-expr)
// without making the array, whose N may be far larger than any value
// gpudiff makes (Tint's bug/chromium/1449538.wgsl: array<i32,
// 636109182>()[0]); ok is false for any other index expression, with the
// index already checked (i) when x has that form but k is not constant.
func (c *chkCtx) zeroArrayElement(x *astIndexExpr) (op chkOp, i *chkOp, ok bool) {
	call, isCall := chkUnparen(x.x).(*astCallExpr)
	if !isCall || len(call.args) != 0 {
		return chkOp{}, nil, false
	}
	id := call.callee
	if id.name != "array" || len(id.tmpl) != 2 || c.local("array") != nil || c.mc.byName["array"] != nil {
		return chkOp{}, nil, false
	}
	elem := c.resolveType(c.typeArg(id.tmpl[0]))
	if elem.k == ckRuntimeArray {
		c.errorf(id.tmpl[0].astOff(), "array element type cannot be a runtime-sized array")
	}
	c.constructible(elem, id.tmpl[0].astOff(), "an array element")
	c.valueLimit(elem, id.tmpl[0].astOff(), "an array element")
	n := c.expr(id.tmpl[1])
	if n.c == nil || !n.t.isInt() || !n.t.isScalar() || n.c.i <= 0 {
		return chkOp{}, nil, false // the ordinary path reports it
	}
	k := c.value(x.index)
	if k.c == nil || !k.t.isScalar() || !k.t.isInt() {
		return chkOp{}, &k, false
	}
	if k.c.i < 0 || k.c.i >= n.c.i {
		c.errorf(k.off, "index %d is out of bounds for array<%v, %d>", k.c.i, elem, n.c.i)
	}
	return c.constOp(cvZero(elem), x.off), nil, true
}

func (c *chkCtx) member(x *astMemberExpr) chkOp {
	var base chkOp
	if p := c.pointerUse(x.x); p != nil {
		base = p.view // WGSL #pointer-composite-access
	} else {
		base = c.value(x.x)
	}
	switch base.t.k {
	case ckStruct:
		fi := base.t.st.FieldIndex(x.name)
		if fi < 0 {
			c.errorf(x.off, "struct %s has no member '%s'", base.t.st.Name, x.name)
		}
		ft := chkFromIR(base.t.st.Fields[fi].Type)
		if base.c != nil {
			return c.constOp(base.c.el[fi], x.off)
		}
		return chkOp{t: ft, e: &ir.Member{Pos: c.pos(x.off), X: base.e, Field: fi, T: ft.toIR()}, ref: base.ref, off: x.off}
	case ckVec:
		comps := chkSwizzle(x.name, base.t.n)
		if comps == nil {
			c.errorf(x.off, "invalid swizzle '%s' for %v", x.name, base.t)
		}
		t := base.t.elem
		if len(comps) > 1 {
			t = chkVec(len(comps), base.t.elem)
		}
		if base.c != nil {
			if len(comps) == 1 {
				return c.constOp(base.c.el[comps[0]], x.off)
			}
			el := make([]cVal, len(comps))
			for i, k := range comps {
				el[i] = base.c.el[k]
			}
			return c.constOp(cVal{t: t, el: el}, x.off)
		}
		return chkOp{t: t, e: &ir.Swizzle{Pos: c.pos(x.off), X: base.e, Comps: comps, T: t.toIR()},
			ref: base.ref && len(comps) == 1, off: x.off, vcomp: true}
	}
	c.errorf(x.off, "cannot access member '%s' of a value of type %v", x.name, base.t)
	return base
}

// chkSwizzle decodes a swizzle name (WGSL #swizzle-names: 1 to 4 letters,
// all from xyzw or all from rgba) for an n-component vector; nil if
// invalid.
func chkSwizzle(name string, n int) []uint8 {
	if len(name) < 1 || len(name) > 4 {
		return nil
	}
	set := "xyzw"
	if strings.ContainsRune("rgba", rune(name[0])) {
		set = "rgba"
	}
	out := make([]uint8, len(name))
	for i := 0; i < len(name); i++ {
		k := strings.IndexByte(set, name[i])
		if k < 0 || k >= n {
			return nil
		}
		out[i] = uint8(k)
	}
	return out
}

// ---- calls ----

// call checks a call expression; stmt is set for a call statement (a void
// result is allowed, a @must_use builtin is not).
func (c *chkCtx) call(x *astCallExpr, stmt bool) chkOp {
	id := x.callee
	name := id.name
	if c.local(name) != nil {
		c.errorf(id.off, "'%s' is not a function", name)
	}
	if d, ok := c.mc.byName[name]; ok {
		switch d.a.kind {
		case "fn":
			return c.userCall(x, d, stmt)
		case "struct", "alias":
			t := c.resolveType(id)
			return c.mustUse(c.construct(t, c.args(x.args), id.off), stmt, name)
		}
		c.errorf(id.off, "'%s' is not a function", name)
	}
	if op, ok := c.sharedCall(x, stmt); ok {
		return op
	}
	if op, ok := ir.LookupTexOp(name); ok {
		return c.textureCall(op, x, stmt)
	}
	switch {
	case name == "bitcast":
		return c.mustUse(c.bitcast(x), stmt, name)
	case name == "select":
		return c.mustUse(c.selectCall(x), stmt, name)
	case chkIsPredeclaredType(name):
		return c.mustUse(c.typeCall(id, x), stmt, name)
	}
	if b, ok := ir.LookupBuiltin(name); ok {
		if id.hasTmpl {
			c.errorf(id.off, "builtin '%s' does not take template arguments", name)
		}
		op := c.builtinCall(b, x)
		if op.t.k != ckVoid {
			return c.mustUse(op, stmt, name)
		}
		if !stmt {
			c.errorf(id.off, "builtin '%s' does not return a value", name)
		}
		return op
	}
	if chkPredeclaredFuncs[name] {
		c.outsidef(id.off, "builtin %s", name)
	}
	if chkIsPredeclared(name) {
		c.errorf(id.off, "'%s' is not a function", name)
	}
	panic(chkAbort{})
}

// mustUse rejects a call statement of a @must_use builtin (every value
// constructor and value-returning builtin is @must_use).
func (c *chkCtx) mustUse(op chkOp, stmt bool, name string) chkOp {
	if stmt {
		c.errorf(op.off, "the result of '%s' must be used (@must_use)", name)
	}
	return op
}

func (c *chkCtx) args(es []astExpr) []chkOp {
	out := make([]chkOp, len(es))
	for i, e := range es {
		out[i] = c.value(e)
	}
	return out
}

func (c *chkCtx) userCall(x *astCallExpr, d *chkDecl, stmt bool) chkOp {
	id := x.callee
	if d.outside != "" {
		c.outsideThrough(id.off, "calls "+id.name, d)
	}
	if d.fn == nil {
		panic(chkAbort{})
	}
	if id.hasTmpl {
		c.errorf(id.off, "function '%s' does not take template arguments", id.name)
	}
	if len(x.args) != len(d.params) {
		c.errorf(id.off, "function '%s' expects %d argument(s), got %d", id.name, len(d.params), len(x.args))
	}
	irArgs := make([]ir.Expr, len(x.args))
	for i, e := range x.args {
		if prm := d.fn.Params[i]; prm.Ptr != 0 {
			irArgs[i] = c.pointerArg(e, prm, i, id.name)
			continue
		}
		irArgs[i] = c.irOf(c.to(c.value(e), d.params[i], fmt.Sprintf("argument %d of %s", i+1, id.name)))
	}
	c.aliasCall(x, d, irArgs)
	if !stmt && d.result.k == ckVoid {
		c.errorf(id.off, "function '%s' does not return a value", id.name)
	}
	return chkOp{t: d.result, e: &ir.Call{Pos: c.pos(id.off), Func: id.name, Args: irArgs, T: d.result.toIR()}, off: id.off}
}

// pointerArg checks argument i of a call of fn for pointer parameter prm
// (WGSL #function-calls, #function-restriction: the argument agrees with
// the parameter on address space, store type and access mode) and
// returns it as &view.
func (c *chkCtx) pointerArg(e astExpr, prm *ir.Param, i int, fn string) ir.Expr {
	p := c.pointer(e)
	mode := "read_write"
	if !prm.PtrWritable() {
		mode = "read"
	}
	want := fmt.Sprintf("ptr<%v, %v, %s>", prm.Ptr, prm.T, mode)
	if p == nil {
		a := c.value(e)
		c.errorf(astExprStart(e), "argument %d of %s must be a pointer %s, not a value of type %v", i+1, fn, want, a.t)
	}
	if p.space != prm.Ptr || !ir.Identical(p.view.t.toIRMaybe(), prm.T) || prm.Ptr == ir.SpaceStorage && p.readOnly == prm.PtrWritable() {
		c.errorf(astExprStart(e), "argument %d of %s is %s, which does not match the parameter's %s (WGSL #function-restriction)", i+1, fn, p.what, want)
	}
	return &ir.AddrOf{Pos: c.pos(astExprStart(e)), X: c.irOf(p.view), T: prm.T}
}

// typeCall checks a value constructor or conversion named by a
// predeclared type (WGSL #constructor-builtin-function).
func (c *chkCtx) typeCall(id *astIdentExpr, x *astCallExpr) chkOp {
	name := id.name
	if reason := chkOutsideTypeReason(name); reason != "" {
		c.outsidef(id.off, "%s", reason)
	}
	switch name {
	case "vec2", "vec3", "vec4":
		if !id.hasTmpl {
			return c.constructVecInferred(int(name[3]-'0'), c.args(x.args), id.off)
		}
	case "array":
		if !id.hasTmpl {
			return c.constructArrayInferred(c.args(x.args), id.off)
		}
		if len(id.tmpl) == 1 {
			c.errorf(id.off, "cannot construct a runtime-sized array")
		}
	case "mat2x2", "mat2x3", "mat2x4", "mat3x2", "mat3x3", "mat3x4", "mat4x2", "mat4x3", "mat4x4":
		if !id.hasTmpl {
			// matCxR(...) infers its component type from its arguments
			// (WGSL #matrix-builtin): f16 where they are f16, else f32
			// (AbstractFloat arguments concretize).
			args := c.args(x.args)
			elem := chkF32
			for _, a := range args {
				if l := a.t.scalarOf(); l != nil && l.k == ckF16 || a.t.k == ckMat && a.t.elem.elem.k == ckF16 {
					elem = chkF16
				}
			}
			return c.construct(chkMatOf(int(name[3]-'0'), int(name[5]-'0'), elem), args, id.off)
		}
	}
	t := c.resolveType(id)
	return c.construct(t, c.args(x.args), id.off)
}

// construct checks T(args) for a known type T.
func (c *chkCtx) construct(t *chkType, args []chkOp, off int32) chkOp {
	c.valueLimit(t, off, "a constructed value")
	if len(args) == 0 {
		return c.constOp(cvZero(t), off)
	}
	allConst := true
	for _, a := range args {
		allConst = allConst && a.c != nil
	}
	switch t.k {
	case ckBool, ckI32, ckU32, ckF32, ckF16:
		if len(args) != 1 {
			c.errorf(off, "%v constructor expects 1 argument, got %d", t, len(args))
		}
		a := args[0]
		if !a.t.isScalar() {
			c.errorf(a.off, "cannot convert %v to %v", a.t, t)
		}
		return c.convertOp(a, t, off)
	case ckVec:
		if len(args) == 1 && args[0].t.isScalar() {
			a := c.to(args[0], t.elem, "splat to "+t.String())
			if a.c != nil {
				return c.constOp(cvSplat(*a.c, t), off)
			}
			return chkOp{t: t, e: &ir.Construct{Pos: c.pos(off), T: t.toIR(), Args: []ir.Expr{a.e}}, off: off}
		}
		if len(args) == 1 && args[0].t.k == ckVec && args[0].t.n == t.n {
			return c.convertOp(args[0], t, off)
		}
		n := 0
		for i, a := range args {
			if a.t.width() == 0 {
				c.errorf(a.off, "%v constructor: argument of type %v", t, a.t)
			}
			args[i] = c.to(a, a.t.withScalar(t.elem), t.String()+" constructor")
			n += a.t.width()
		}
		if n != t.n {
			c.errorf(off, "%v constructor: the arguments supply %d components, want %d", t, n, t.n)
		}
		if allConst {
			var el []cVal
			for _, a := range args {
				el = append(el, cvComponents(*a.c)...)
			}
			return c.constOp(cVal{t: t, el: el}, off)
		}
	case ckArray:
		if len(args) != t.n {
			c.errorf(off, "%v constructor expects %d arguments, got %d", t, t.n, len(args))
		}
		for i, a := range args {
			args[i] = c.to(a, t.elem, t.String()+" constructor")
		}
		if allConst {
			return c.constOp(c.composite(t, args), off)
		}
	case ckMat:
		return c.constructMatrix(t, args, off)
	case ckStruct:
		fs := t.st.Fields
		if len(args) != len(fs) {
			c.errorf(off, "%v constructor expects %d arguments, got %d", t, len(fs), len(args))
		}
		for i, a := range args {
			args[i] = c.to(a, chkFromIR(fs[i].Type), "member "+fs[i].Name+" of "+t.String())
		}
		if allConst {
			return c.constOp(c.composite(t, args), off)
		}
	default:
		c.errorf(off, "cannot construct a value of type %v", t)
	}
	if t.isAbstract() {
		panic("wgsl: run-time construct of an abstract type")
	}
	irArgs := make([]ir.Expr, len(args))
	for i, a := range args {
		irArgs[i] = c.irOf(a)
	}
	return chkOp{t: t, e: &ir.Construct{Pos: c.pos(off), T: t.toIR(), Args: irArgs}, off: off}
}

func (c *chkCtx) composite(t *chkType, args []chkOp) cVal {
	el := make([]cVal, len(args))
	for i, a := range args {
		el[i] = *a.c
	}
	return cVal{t: t, el: el}
}

// convertOp converts a scalar or vector to t of the same width (the
// identity, or a value conversion: WGSL #i32-builtin, #vec3-builtin, …).
func (c *chkCtx) convertOp(a chkOp, t *chkType, off int32) chkOp {
	if chkIdentical(a.t, t) {
		a.ref = false
		return a
	}
	if a.c != nil {
		v, err := cvConvert(*a.c, t)
		return c.cvResult(off, v, err, t)
	}
	return chkOp{t: t, e: &ir.Convert{Pos: c.pos(off), T: t.toIR(), X: a.e}, off: off}
}

// commonLeaf returns the scalar type all operands convert to.
func (c *chkCtx) commonLeaf(args []chkOp, off int32, what string) *chkType {
	var leaf *chkType
	for _, a := range args {
		l := a.t.scalarOf()
		if l == nil {
			c.errorf(a.off, "%s: argument of type %v", what, a.t)
		}
		if leaf == nil {
			leaf = l
			continue
		}
		if leaf = chkUnifyLeaf(leaf, l); leaf == nil {
			c.errorf(off, "%s: arguments have no common type (%s)", what, chkTypeList(args))
		}
	}
	return leaf
}

func chkTypeList(args []chkOp) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.t.String()
	}
	return strings.Join(parts, ", ")
}

// constructVecInferred checks vecN(args) with an inferred component type.
func (c *chkCtx) constructVecInferred(n int, args []chkOp, off int32) chkOp {
	if len(args) == 0 {
		return c.constOp(cvZero(chkVec(n, chkAbsInt)), off)
	}
	if len(args) == 1 && args[0].t.k == ckVec && args[0].t.n == n {
		a := args[0]
		a.ref = false
		return a
	}
	for _, a := range args {
		if a.t.width() == 0 {
			c.errorf(a.off, "vec%d constructor: argument of type %v", n, a.t)
		}
	}
	return c.construct(chkVec(n, c.commonLeaf(args, off, fmt.Sprintf("vec%d constructor", n))), args, off)
}

// constructArrayInferred checks array(args) with an inferred element type
// and count.
func (c *chkCtx) constructArrayInferred(args []chkOp, off int32) chkOp {
	if len(args) == 0 {
		c.errorf(off, "array() needs an element type and count, or at least one element")
	}
	elem := args[0].t
	for _, a := range args[1:] {
		if !chkSameShape(elem, a.t) {
			c.errorf(a.off, "array constructor: elements of types %v and %v", elem, a.t)
		}
	}
	if elem.scalarOf() != nil {
		// Scalars, vectors and arrays of them unify their leaves; a
		// struct or matrix element (matrices are f32 in the subset) is
		// the first argument's type.
		elem = elem.withScalar(c.commonLeaf(args, off, "array constructor"))
	}
	return c.construct(chkArray(elem, len(args)), args, off)
}

// bitcast checks bitcast<T>(e) (WGSL #bitcast-builtin).
func (c *chkCtx) bitcast(x *astCallExpr) chkOp {
	id := x.callee
	if len(id.tmpl) != 1 {
		c.errorf(id.off, "bitcast needs one template argument, the result type")
	}
	t := c.resolveType(c.typeArg(id.tmpl[0]))
	if len(x.args) != 1 {
		c.errorf(id.off, "bitcast expects 1 argument, got %d", len(x.args))
	}
	a := c.value(x.args[0])
	switch l := a.t.leaf(); {
	case l == nil:
	case l.k == ckAbsInt:
		// Overload resolution (WGSL #overload-resolution-section) ranks
		// AbstractInt -> i32 before u32: bitcast<u32>(-1) is
		// bitcast<u32>(-1i). A value beyond i32 takes u32 (0xffffffff).
		to := chkI32
		for _, s := range cvComponents(*a.c) {
			if s.i < math.MinInt32 || s.i > math.MaxInt32 {
				to = chkU32
			}
		}
		a = c.to(a, a.t.withScalar(to), "bitcast")
	case l.k == ckAbsFloat:
		a = c.to(a, a.t.withScalar(chkF32), "bitcast")
	}
	okLeaf := func(t *chkType) bool {
		l := t.leaf()
		return l != nil && (l.k == ckI32 || l.k == ckU32 || l.k == ckF32 || l.k == ckF16)
	}
	// WGSL #bitcast-builtin: the same number of bits; f16 components
	// are 16 bits (vec2<f16> ↔ a 32-bit scalar, vec4<f16> ↔ vec2 of
	// them), and a 16-bit total (a lone f16) casts only to f16.
	bitsOf := func(t *chkType) int { return t.width() * cvBitWidth(t.leaf()) }
	if !okLeaf(t) || !okLeaf(a.t) || bitsOf(t) != bitsOf(a.t) {
		c.errorf(id.off, "no bitcast from %v to %v", a.t, t)
	}
	if a.c != nil {
		v, err := cvBitcast(*a.c, t)
		return c.cvResult(id.off, v, err, t)
	}
	return chkOp{t: t, e: &ir.Bitcast{Pos: c.pos(id.off), T: t.toIR(), X: a.e}, off: id.off}
}

// selectCall checks select(f, t, cond) (WGSL #select-builtin).
func (c *chkCtx) selectCall(x *astCallExpr) chkOp {
	id := x.callee
	if id.hasTmpl {
		c.errorf(id.off, "select does not take template arguments")
	}
	args := c.args(x.args)
	if len(args) != 3 {
		c.errorf(id.off, "select expects 3 arguments, got %d", len(args))
	}
	f, t, cond := args[0], args[1], args[2]
	if f.t.width() == 0 || !chkSameShape(f.t, t.t) {
		c.errorf(id.off, "no overload of select(%s)", chkTypeList(args))
	}
	leaf := c.commonLeaf(args[:2], id.off, "select")
	if (f.c == nil || t.c == nil || cond.c == nil) && leaf.isAbstract() {
		leaf = leaf.concretize()
	}
	f = c.to(f, f.t.withScalar(leaf), "select")
	t = c.to(t, t.t.withScalar(leaf), "select")
	if cl := cond.t.leaf(); cl == nil || cl.k != ckBool || !(cond.t.isScalar() || cond.t.k == ckVec && f.t.k == ckVec && cond.t.n == f.t.n) {
		c.errorf(cond.off, "select condition has type %v for operands of type %v", cond.t, f.t)
	}
	if f.c != nil && t.c != nil && cond.c != nil {
		if cond.t.isScalar() {
			if cond.c.b {
				return c.constOp(*t.c, id.off)
			}
			return c.constOp(*f.c, id.off)
		}
		el := make([]cVal, f.t.n)
		for i := range el {
			el[i] = f.c.el[i]
			if cond.c.el[i].b {
				el[i] = t.c.el[i]
			}
		}
		return c.constOp(cVal{t: f.t, el: el}, id.off)
	}
	return chkOp{t: f.t, e: &ir.Select{Pos: c.pos(id.off), False: c.irOf(f), True: c.irOf(t), Cond: c.irOf(cond), T: f.t.toIR()}, off: id.off}
}

// chkBuiltinAbstract lists which builtins have AbstractInt and
// AbstractFloat overloads (WGSL "Numeric Built-in Functions").
func chkBuiltinAbstract(b ir.Builtin) (absInt, absFloat bool) {
	info := b.Info()
	if info.Class != ir.ClassMath {
		return false, false
	}
	switch b {
	case ir.BAbs, ir.BMin, ir.BMax, ir.BClamp, ir.BSign, ir.BDot:
		return true, true
	}
	return false, true
}

// chkFixedU32 lists the u32 parameters of builtins (offset and count of
// extractBits and insertBits).
func chkFixedU32(b ir.Builtin, i int) bool {
	switch b {
	case ir.BExtractBits:
		return i >= 1
	case ir.BInsertBits:
		return i >= 2
	}
	return false
}

// chkFixedI32 lists the i32 parameters of builtins (ldexp's exponent e2,
// WGSL #ldexp-builtin: I is i32 or AbstractInt, converted to i32 here).
func chkFixedI32(b ir.Builtin, i int) bool { return b == ir.BLdexp && i == 1 }

func chkProxy(t *chkType) *ir.Type {
	switch t.k {
	case ckAbsInt:
		return ir.I32
	case ckAbsFloat:
		return ir.F32
	case ckVec:
		return ir.Vec(t.n, chkProxy(t.elem))
	}
	return t.toIR()
}

// builtinCall checks a call of a builtin of the ir table, resolving
// overloads over abstract arguments in WGSL's preference order
// (WGSL #overload-resolution-section): AbstractInt, i32, u32,
// AbstractFloat, f32, f16.
func (c *chkCtx) builtinCall(b ir.Builtin, x *astCallExpr) chkOp {
	id := x.callee
	info := b.Info()
	args := c.args(x.args)
	if len(args) != info.Args {
		c.errorf(id.off, "%s expects %d argument(s), got %d", info.Name, info.Args, len(args))
	}
	if b == ir.BModf || b == ir.BFrexp {
		return c.splitBuiltin(b, id, args)
	}
	if info.Class == ir.ClassSubgroup {
		return c.subgroupCall(b, id, args)
	}
	if b == ir.BTranspose || b == ir.BDeterminant {
		// WGSL #transpose-builtin, #determinant-builtin: matrix
		// arguments, evaluated at run time in the subset.
		rt, err := ir.BuiltinResultType(b, []*ir.Type{args[0].t.toIRMaybe()})
		if args[0].t.k != ckMat || err != nil {
			c.errorf(id.off, "no overload of %s(%s)", info.Name, chkTypeList(args))
		}
		return chkOp{t: chkFromIR(rt), e: &ir.BuiltinCall{Pos: c.pos(id.off), Fn: b, Args: []ir.Expr{c.irOf(args[0])}, T: rt}, off: id.off}
	}
	absInt, absFloat := chkBuiltinAbstract(b)
	allConst := true
	var concrete *chkType
	for i, a := range args {
		allConst = allConst && a.c != nil
		l := a.t.leaf()
		if l == nil {
			c.errorf(a.off, "no overload of %s(%s)", info.Name, chkTypeList(args))
		}
		if b == ir.BLdexp && i == 1 && l != nil && !l.isAbstract() && concrete == nil {
			// WGSL #ldexp-builtin: T is abstract only if I is too.
			concrete = chkF32
		}
		if !chkFixedU32(b, i) && !chkFixedI32(b, i) && !l.isAbstract() {
			if concrete != nil && concrete.k != l.k {
				c.errorf(id.off, "no overload of %s(%s)", info.Name, chkTypeList(args))
			}
			concrete = l
		}
	}
	cands := []*chkType{chkAbsInt, chkI32, chkU32, chkAbsFloat, chkF32, chkF16}
	if concrete != nil {
		cands = []*chkType{concrete}
	}
	var pick, res *chkType
	var lastErr error
	for _, cand := range cands {
		if cand.isAbstract() && (!allConst || !info.Pure() || cand.k == ckAbsInt && !absInt || cand.k == ckAbsFloat && !absFloat) {
			continue
		}
		ok := true
		proxies := make([]*ir.Type, len(args))
		for i, a := range args {
			l := a.t.leaf()
			if chkFixedU32(b, i) {
				if l.k != ckU32 && !(l.k == ckAbsInt && a.c != nil) {
					ok = false
				}
				proxies[i] = chkProxy(a.t.withScalar(chkU32))
				continue
			}
			if chkFixedI32(b, i) {
				if l.k != ckI32 && !(l.k == ckAbsInt && a.c != nil) {
					ok = false
				}
				proxies[i] = chkProxy(a.t.withScalar(chkI32))
				continue
			}
			if l.isAbstract() && chkConvRank(l, cand) < 0 {
				ok = false
			}
			proxies[i] = chkProxy(a.t.withScalar(cand))
		}
		if !ok {
			continue
		}
		rt, err := ir.BuiltinResultType(b, proxies)
		if err != nil {
			lastErr = err
			continue
		}
		pick, res = cand, chkFromIR(rt)
		if cand.isAbstract() && res.leaf() != nil && res.leaf().k == chkFromIR(chkProxy(cand)).k {
			res = res.withScalar(cand)
		}
		break
	}
	if pick == nil {
		if lastErr != nil {
			c.errorf(id.off, "%v", lastErr)
		}
		c.errorf(id.off, "no overload of %s(%s)", info.Name, chkTypeList(args))
	}
	for i, a := range args {
		if chkFixedU32(b, i) {
			args[i] = c.to(a, a.t.withScalar(chkU32), fmt.Sprintf("argument %d of %s", i+1, info.Name))
		} else if chkFixedI32(b, i) {
			args[i] = c.to(a, a.t.withScalar(chkI32), fmt.Sprintf("argument %d of %s", i+1, info.Name))
		} else {
			args[i] = c.to(a, a.t.withScalar(pick), fmt.Sprintf("argument %d of %s", i+1, info.Name))
		}
	}
	if allConst && info.Pure() {
		vals := make([]cVal, len(args))
		for i, a := range args {
			vals[i] = *a.c
		}
		v, err := cvBuiltin(b, vals, res)
		return c.cvResult(id.off, v, err, res)
	}
	c.builtinConstArgs(b, args, id.off)
	irArgs := make([]ir.Expr, len(args))
	for i, a := range args {
		irArgs[i] = c.irOf(a)
	}
	return chkOp{t: res, e: &ir.BuiltinCall{Pos: c.pos(id.off), Fn: b, Args: irArgs, T: res.toIR()}, off: id.off}
}

// builtinConstArgs applies the shader-creation errors WGSL defines for
// const arguments of a builtin whose call is not itself constant: clamp
// with low > high, extractBits/insertBits with offset + count > 32,
// smoothstep with equal edges, ldexp with an exponent above 128.
func (c *chkCtx) builtinConstArgs(b ir.Builtin, args []chkOp, off int32) {
	pairs := func(i, j int, bad func(x, y cVal) bool, msg string) {
		if args[i].c == nil || args[j].c == nil {
			return
		}
		xs, ys := cvComponents(*args[i].c), cvComponents(*args[j].c)
		for k := range xs {
			y := ys[0]
			if len(ys) > 1 {
				y = ys[k]
			}
			if bad(xs[k], y) {
				c.errorf(off, "%s: %s", b.Info().Name, msg)
			}
		}
	}
	switch b {
	case ir.BClamp:
		pairs(1, 2, func(x, y cVal) bool {
			if x.t.isInt() {
				return x.i > y.i
			}
			return x.f > y.f
		}, "low is greater than high")
	case ir.BExtractBits:
		pairs(1, 2, func(x, y cVal) bool { return x.i+y.i > 32 }, "offset + count is greater than 32")
	case ir.BInsertBits:
		pairs(2, 3, func(x, y cVal) bool { return x.i+y.i > 32 }, "offset + count is greater than 32")
	case ir.BSmoothstep:
		pairs(0, 1, func(x, y cVal) bool { return x.f == y.f }, "edge0 equals edge1")
	case ir.BLdexp:
		// WGSL #ldexp-builtin: a const-expression e2 > bias + 1 (128
		// for f32) is a shader-creation error, whatever e1 is.
		if args[1].c != nil {
			bias, t := int64(wgslsem.F32Bias), "f32"
			if l := args[0].t.leaf(); l != nil && l.k == ckF16 {
				bias, t = f16Bias, "f16"
			}
			for _, e2 := range cvComponents(*args[1].c) {
				if wgslsem.LdexpFault(e2.i, bias) != wgslsem.NoFault {
					c.errorf(off, "ldexp: the exponent %d is greater than %d, the bias of %s + 1 (WGSL #ldexp-builtin)", e2.i, bias+1, t)
				}
			}
		}
	}
}

// constructMatrix checks matCxR<T>(args), T f32 or f16 (WGSL #matrix-builtin): the
// identity from a matrix of the same type, C column vectors vecR, or C*R
// scalars in column-major order. Scalars are grouped into column vectors
// here, so an IR matrix constructor always takes its C columns.
func (c *chkCtx) constructMatrix(t *chkType, args []chkOp, off int32) chkOp {
	cols, rows := t.n, t.elem.n
	col := t.elem
	if len(args) == 1 && chkIdentical(args[0].t, t) {
		a := args[0]
		a.ref = false
		return a
	}
	if len(args) == 1 && args[0].t.k == ckMat && chkSameShape(args[0].t, t) {
		return c.convertMatrix(t, args[0], off)
	}
	var colOps []chkOp
	switch {
	case len(args) == cols && args[0].t.k == ckVec:
		for _, a := range args {
			if a.t.k != ckVec || a.t.n != rows {
				c.errorf(a.off, "%v constructor: column of type %v, want %v", t, a.t, col)
			}
			colOps = append(colOps, c.to(a, col, t.String()+" constructor"))
		}
	case len(args) == cols*rows:
		for i, a := range args {
			if !a.t.isScalar() {
				c.errorf(a.off, "%v constructor: argument of type %v, want %v", t, a.t, col.elem)
			}
			args[i] = c.to(a, col.elem, t.String()+" constructor")
		}
		for k := 0; k < cols; k++ {
			colOps = append(colOps, c.construct(col, args[k*rows:(k+1)*rows], args[k*rows].off))
		}
	default:
		c.errorf(off, "%v constructor expects %d columns or %d scalars, got %d arguments", t, cols, cols*rows, len(args))
	}
	allConst := true
	for _, a := range colOps {
		allConst = allConst && a.c != nil
	}
	if allConst {
		return c.constOp(c.composite(t, colOps), off)
	}
	irArgs := make([]ir.Expr, len(colOps))
	for i, a := range colOps {
		irArgs[i] = c.irOf(a)
	}
	return chkOp{t: t, e: &ir.Construct{Pos: c.pos(off), T: t.toIR(), Args: irArgs}, off: off}
}

// matrixBinary types and lowers x op y where x or y is a matrix (WGSL
// #matrix-arithmetic): abstract operands become the matrix's component
// type, f32 or f16 (scalars and vectors); the operation is always
// evaluated at run time, so matrix arithmetic is not a const-expression
// in the subset.
func (c *chkCtx) matrixBinary(op ir.BinaryOp, a, b chkOp, off int32) chkOp {
	elem := chkF32
	for _, x := range []chkOp{a, b} {
		if x.t.k == ckMat {
			elem = x.t.elem.elem
		}
	}
	f32ify := func(x chkOp) chkOp {
		if x.t.isAbstract() && (x.t.isScalar() || x.t.k == ckVec) {
			return c.to(x, x.t.withScalar(elem), "operand of "+op.String())
		}
		return x
	}
	a, b = f32ify(a), f32ify(b)
	var rt *ir.Type
	if !a.t.isAbstract() && !b.t.isAbstract() && a.t.k != ckVoid && b.t.k != ckVoid {
		rt = ir.MatrixResultType(op, a.t.toIR(), b.t.toIR())
	}
	if rt == nil {
		c.errorf(off, "operator %s is not defined for %v and %v", op, a.t, b.t)
		return a
	}
	return chkOp{t: chkFromIR(rt), e: &ir.Binary{Pos: c.pos(off), Op: op, X: c.irOf(a), Y: c.irOf(b), T: rt}, off: off}
}

// splitBuiltin checks modf(e) and frexp(e) (WGSL #modf-builtin,
// #frexp-builtin): e a float scalar or vector, converted to f32 (the
// subset has no __modf_result_abstract: an abstract argument is
// concretized first, which gives the same members wherever the value is
// an f32). The result is the predeclared struct ir.ModfResult or
// ir.FrexpResult; with a constant argument it is also constant (so its
// members fold), and its IR stays the call, since the struct has no WGSL
// spelling a literal could use.
func (c *chkCtx) splitBuiltin(b ir.Builtin, id *astIdentExpr, args []chkOp) chkOp {
	name := b.Info().Name
	if len(args) != 1 {
		c.errorf(id.off, "%s expects 1 argument, got %d", name, len(args))
	}
	a := args[0]
	l := a.t.leaf()
	if l == nil || l.k != ckF32 && l.k != ckF16 && l.k != ckAbsFloat && l.k != ckAbsInt {
		c.errorf(id.off, "no overload of %s(%s)", name, chkTypeList(args))
	}
	// f16 splits into __modf_result_f16 and its kin (ir.ModfResult): both
	// parts of an f16 are f16 values, exactly.
	elem := chkF32
	if l != nil && l.k == ckF16 {
		elem = chkF16
	}
	a = c.to(a, a.t.withScalar(elem), "argument 1 of "+name)
	rt, err := ir.BuiltinResultType(b, []*ir.Type{a.t.toIR()})
	if err != nil {
		c.errorf(id.off, "%v", err)
	}
	res := chkFromIR(rt)
	op := chkOp{t: res, e: &ir.BuiltinCall{Pos: c.pos(id.off), Fn: b, Args: []ir.Expr{c.irOf(a)}, T: rt}, off: id.off}
	if a.c == nil {
		return op
	}
	xs := cvComponents(*a.c)
	ft := make([]*chkType, 2)
	for i := range ft {
		ft[i] = chkFromIR(rt.Struct.Fields[i].Type)
	}
	var first, second []cVal
	for _, x := range xs {
		if b == ir.BModf {
			w := math.Trunc(x.f)
			first, second = append(first, cvFloat(elem, x.f-w)), append(second, cvFloat(elem, w))
		} else {
			f, e := math.Frexp(x.f)
			first, second = append(first, cvFloat(elem, f)), append(second, cvInt(chkI32, int64(e)))
		}
	}
	member := func(t *chkType, vs []cVal) cVal {
		if t.k == ckVec {
			return cVal{t: t, el: vs}
		}
		return vs[0]
	}
	v := cVal{t: res, el: []cVal{member(ft[0], first), member(ft[1], second)}}
	op.c = &v
	return op
}

// usesOverride reports whether e names a module-scope override (not
// shadowed by a local): an override-expression, which the checker
// evaluates with the override's value as if it were constant.
func (c *chkCtx) usesOverride(e astExpr) bool {
	switch x := e.(type) {
	case *astIdentExpr:
		if c.local(x.name) == nil {
			if d, ok := c.mc.byName[x.name]; ok && d.a.kind == "override" {
				return true
			}
		}
		for _, t := range x.tmpl {
			if c.usesOverride(t) {
				return true
			}
		}
	case *astCallExpr:
		for _, a := range x.args {
			if c.usesOverride(a) {
				return true
			}
		}
	case *astParenExpr:
		return c.usesOverride(x.x)
	case *astUnaryExpr:
		return c.usesOverride(x.x)
	case *astBinaryExpr:
		return c.usesOverride(x.x) || c.usesOverride(x.y)
	case *astIndexExpr:
		return c.usesOverride(x.x) || c.usesOverride(x.index)
	case *astMemberExpr:
		return c.usesOverride(x.x)
	}
	return false
}
