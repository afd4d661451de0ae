package gen

import (
	"fmt"

	"github.com/gpudiff/gpudiff/ir"
)

// Matrices in compute entry points (issue 14 item 5; doc.go "Compute
// entry points"). A share of the compute profile's programs
// (Profile.Matrices) declares matCxR<f32> values (C, R ∈ 2..4) in up to
// three places, each with its own random shape:
//
//	@group(0) @binding(4) var<storage, read> minp: array<matCxR<f32>, N>;        (optional)
//	@group(0) @binding(5) var<storage, read_write> mout: array<matCxR<f32>, N>;  (optional)
//	var<workgroup> mtile: array<matCxR<f32>, L>;                                 (optional)
//
// and computes with them: constructors from columns, matrix × vector,
// vector × matrix, matrix × matrix, transpose, determinant (square),
// scalar × matrix and matrix × scalar, matrix ± matrix, columns m[i] and
// elements m[i][j] (constant and run-time indices, reduced by % C), a
// matrix var assigned, compound-assigned (+=, *=) and written by column
// and element under a run-time if (flatten's predication selects it
// column by column). mtile follows the tile's discipline: in a write
// phase each invocation writes mtile[local_invocation_index] (whole, a
// column or an element), after the barrier it reads a neighbour's slot
// (whole, a column or an element) and folds what it computes into acc;
// mout[gi] is the invocation's own output slot; minp is read-only, any
// element. The values flow into acc, so they reach out as well.
//
// Exactness (doc.go: the exact float domain): every matrix, vector and
// scalar of the matrix code is tracked with a bound b on the magnitude of
// its components (fval), which are all integers, and every operation is
// reconditioned so that every product and every partial sum it makes is
// an integer of magnitude ≤ 2^23 — exact in binary32 whatever the order
// of the additions or any fusing into fma (WGSL #concrete-float-accuracy
// lets matrix products inherit dot's accuracy; on exact operands every
// conforming implementation then gives the exact result):
//
//   - a product (matrix × vector, vector × matrix, matrix × matrix, K
//     terms per component) clamps its operands column by column so that
//     K·b1·b2 ≤ 2^23;
//   - ± needs b1 + b2 ≤ 2^23, scalar × matrix bs·bm ≤ 2^23;
//   - determinant (WGSL grants it infinite ULP; the reference gives the
//     exact value only where its Leibniz expansion is exact) takes an
//     n×n matrix clamped to |m[i][j]| ≤ 2^11, 64, 16 for n = 2, 3, 4, so
//     n!·b^n ≤ 2^23: every term and partial sum of any expansion a
//     compiler may use (Leibniz, cofactors, 2×2 sub-determinants) is an
//     integer within that, and the reference's value is exact;
//   - the bindings' matrices hold any value of the exact domain (±2^23)
//     and are reconditioned like any other operand.
//
// Matrix values are bound to lets (m0, m1, …) that the per-invocation
// statement generator does not see (it has no matrix types); the results
// reach acc through an element, a column or a determinant converted to
// acc's type (convertScalar: exact, in range).

// fval is an f32 scalar, vector or matrix expression whose every
// component is an integer of magnitude at most b.
type fval struct {
	e ir.Expr
	b int64
}

// prodBounds are the bounds a product's operands are clamped to when
// their bounds make the product leave the exact domain: K·b1·b2 ≤ 4·2^20.
var prodBounds = []int64{16, 256, 1 << 10}

// detBound[n] bounds the entries of an n×n matrix whose determinant is
// taken: n!·b^n ≤ 2^23 (2·2^22, 6·2^18, 24·2^16).
var detBound = [5]int64{2: 1 << 11, 3: 64, 4: 16}

// matGen generates the matrix code of one compute entry point.
type matGen struct {
	cg *computeGen
	r  *chooser
	// The matrix bindings and workgroup array (nil when absent).
	minp, mout, mtile *ir.Ident
	// tileB bounds what mtile holds: every value ever written to a slot
	// (zero-initialized).
	tileB int64
	// pool holds the let-bound (or var) matrices in scope at the entry
	// point's top level.
	pool []fval
	seq  int
	// helpers are the matrix helper functions made so far, by shape.
	helpers map[[3]int]string
}

// matType returns a random matCxR<f32>.
func (mg *matGen) matType() *ir.Type {
	return ir.Mat(mg.r.between(2, 4), mg.r.between(2, 4))
}

// declare adds the matrix bindings and workgroup array to the module.
func (mg *matGen) declare(add func(*ir.SharedVar) *ir.Ident) {
	cg, r := mg.cg, mg.r
	main := mg.matType()
	pick := func() *ir.Type {
		if r.chance(50) {
			return main
		}
		return mg.matType()
	}
	if r.chance(60) {
		mg.minp = add(&ir.SharedVar{Name: "minp", T: ir.ArrayOf(pick(), cg.n), Space: ir.SpaceStorage, Access: ir.AccessRead, Group: 0, Binding: 4})
	}
	if r.chance(70) {
		mg.mout = add(&ir.SharedVar{Name: "mout", T: ir.ArrayOf(pick(), cg.n), Space: ir.SpaceStorage, Access: ir.AccessReadWrite, Group: 0, Binding: 5})
	}
	if r.chance(75) {
		mg.mtile = add(&ir.SharedVar{Name: "mtile", T: ir.ArrayOf(pick(), cg.l), Space: ir.SpaceWorkgroup, Access: ir.AccessRead, Group: -1, Binding: -1})
	}
}

func flit(v int64) ir.Expr { return lit(ir.F32Val(float32(v))) }

// mlet binds e to a new let (invisible to the statement generator);
// a matrix joins the pool.
func (mg *matGen) mlet(e ir.Expr, b int64) fval {
	name := fmt.Sprintf("m%d", mg.seq)
	mg.seq++
	v := fval{mg.cg.let(name, e, false), b}
	if e.Type().IsMat() {
		mg.pool = append(mg.pool, v)
	}
	return v
}

// fclampTo clamps an f32 scalar or vector expression (never a
// const-expression: its bound would need no clamp) to [-b, b].
func fclampTo(e ir.Expr, b int64) ir.Expr {
	t := e.Type()
	return builtin(ir.BClamp, e, lit(splat(t, -b)), lit(splat(t, b)))
}

// clampTo returns v reconditioned to bound b: v itself when its bound is
// within b; a matrix column by column (v.e is an identifier), bound to a
// let.
func (mg *matGen) clampTo(v fval, b int64) fval {
	if v.b <= b {
		return v
	}
	t := v.e.Type()
	if !t.IsMat() {
		return fval{fclampTo(v.e, b), b}
	}
	cols := make([]ir.Expr, t.Len)
	for j := range cols {
		cols[j] = fclampTo(index(v.e, lit(ir.U32Val(uint32(j)))), b)
	}
	return mg.mlet(construct(t, cols...), b)
}

// fitProduct reconditions the operands of a product of k terms per
// component so that k·a.b·b.b stays within the exact domain.
func (mg *matGen) fitProduct(a, b fval, k int64) (fval, fval) {
	if k*a.b*b.b <= FloatBound {
		return a, b
	}
	pb := prodBounds[mg.r.intn(len(prodBounds))]
	if a.b >= b.b {
		a = mg.clampTo(a, pb)
	} else {
		b = mg.clampTo(b, pb)
	}
	if k*a.b*b.b > FloatBound {
		a, b = mg.clampTo(a, pb), mg.clampTo(b, pb)
	}
	return a, b
}

// u32Index returns a run-time index in [0, n): a u32 from acc % n.
func (mg *matGen) u32Index(n int) ir.Expr {
	return bin(ir.OpRem, mg.cg.scalarOf(ir.U32), lit(ir.U32Val(uint32(n))))
}

// colIndex returns a column (or row) index of a matrix with n columns
// (or a vector of n components): mostly a constant, sometimes run-time.
func (mg *matGen) colIndex(n int) ir.Expr {
	if mg.r.chance(30) {
		return mg.u32Index(n)
	}
	return lit(ir.U32Val(uint32(mg.r.intn(n))))
}

// inpIndex returns an index into minp (any element: it is read-only).
func (mg *matGen) inpIndex() ir.Expr {
	cg := mg.cg
	if cg.n > 1 && mg.r.chance(40) {
		return bin(ir.OpRem, bin(ir.OpAdd, cg.gi, lit(ir.U32Val(uint32(mg.r.between(1, cg.n-1))))), lit(ir.U32Val(uint32(cg.n))))
	}
	return cg.gi
}

// fsrc returns a run-time f32 scalar bounded by b taken from the
// invocation's state: acc, x, the local or global index.
func (mg *matGen) fsrc(b int64) fval {
	cg := mg.cg
	comp := func(e ir.Expr) ir.Expr {
		if e.Type().Kind == ir.KindVec {
			return swizzle(e, uint8(mg.r.intn(e.Type().Len)))
		}
		return e
	}
	var e ir.Expr
	src := int64(FloatBound)
	switch mg.r.weighted(5, 2, 2) {
	case 0:
		e = comp(cg.acc)
	case 1:
		e = comp(cg.x)
	default:
		if mg.r.chance(50) {
			e, src = cg.li, int64(cg.l-1)
		} else {
			e, src = cg.gi, int64(cg.n-1)
		}
	}
	e = convertScalar(e, ir.F32)
	if src <= b {
		return fval{e, src}
	}
	return fval{fclampTo(e, b), b}
}

// smallBound returns a random bound for values built from the
// invocation's state.
func (mg *matGen) smallBound() int64 {
	return []int64{4, 16, 256, 4096, FloatBound}[mg.r.weighted(2, 3, 3, 2, 2)]
}

// vecLit returns a literal vecN<f32> with components in [-8, 8].
func (mg *matGen) vecLit(n int) fval {
	es := make([]ir.Value, n)
	for i := range es {
		es[i] = ir.F32Val(float32(mg.r.between(-8, 8)))
	}
	return fval{lit(ir.CompositeVal(ir.Vec(n, ir.F32), es...)), 8}
}

// poolOf returns the pool's matrices satisfying keep.
func (mg *matGen) poolOf(keep func(t *ir.Type) bool) []fval {
	var out []fval
	for _, v := range mg.pool {
		if keep(v.e.Type()) {
			out = append(out, v)
		}
	}
	return out
}

// matOf returns a matrix of type t (a let or var identifier), of at most
// depth nested operations.
func (mg *matGen) matOf(t *ir.Type, depth int) fval {
	r := mg.r
	c, rows := t.Len, t.Rows()
	same := mg.poolOf(func(u *ir.Type) bool { return ir.Identical(u, t) })
	inp := mg.minp != nil && ir.Identical(mg.minp.T.Elem, t)
	w := func(ok bool, n int) int {
		if ok {
			return n
		}
		return 0
	}
	d := depth > 0
	switch r.weighted(w(len(same) > 0, 4), 4, w(inp, 3), 1, w(d, 2), w(d, 3), w(d, 2), w(d, 2)) {
	case 0: // one of the pool
		return same[r.intn(len(same))]
	case 1: // C columns
		cols := make([]ir.Expr, c)
		var b int64
		for j := range cols {
			v := mg.vecOf(rows, depth-1)
			cols[j], b = v.e, max(b, v.b)
		}
		return mg.mlet(construct(t, cols...), b)
	case 2: // an element of minp
		return mg.mlet(index(mg.minp, mg.inpIndex()), FloatBound)
	case 3: // a literal
		cols := make([]ir.Value, c)
		for j := range cols {
			es := make([]ir.Value, rows)
			for i := range es {
				es[i] = ir.F32Val(float32(r.between(-4, 4)))
			}
			cols[j] = ir.CompositeVal(t.Elem, es...)
		}
		return mg.mlet(lit(ir.CompositeVal(t, cols...)), 4)
	case 4: // transpose
		a := mg.matOf(ir.Mat(rows, c), depth-1)
		return mg.mlet(builtin(ir.BTranspose, a.e), a.b)
	case 5: // matKxR × matCxK
		k := r.between(2, 4)
		a := mg.matOf(ir.Mat(k, rows), depth-1)
		b := mg.matOf(ir.Mat(c, k), depth-1)
		a, b = mg.fitProduct(a, b, int64(k))
		return mg.mlet(bin(ir.OpMul, a.e, b.e), int64(k)*a.b*b.b)
	case 6: // ±
		a := mg.matOf(t, depth-1)
		b := mg.matOf(t, depth-1)
		if a.b+b.b > FloatBound {
			a, b = mg.clampTo(a, FloatBound/2), mg.clampTo(b, FloatBound/2)
		}
		op := ir.OpAdd
		if r.chance(50) {
			op = ir.OpSub
		}
		return mg.mlet(bin(op, a.e, b.e), a.b+b.b)
	}
	// scalar × matrix, matrix × scalar
	s := mg.fsrc(8)
	if r.chance(40) {
		s = fval{flit(int64(r.between(-4, 4))), 4}
	}
	a := mg.matOf(t, depth-1)
	if s.b > 0 {
		a = mg.clampTo(a, FloatBound/s.b)
	}
	if r.chance(50) {
		return mg.mlet(bin(ir.OpMul, s.e, a.e), s.b*a.b)
	}
	return mg.mlet(bin(ir.OpMul, a.e, s.e), s.b*a.b)
}

// vecOf returns a vecN<f32> of at most depth nested operations.
func (mg *matGen) vecOf(n int, depth int) fval {
	r := mg.r
	cols := mg.poolOf(func(u *ir.Type) bool { return u.Rows() == n })
	inp := mg.minp != nil && mg.minp.T.Elem.Rows() == n
	w := func(ok bool, k int) int {
		if ok {
			return k
		}
		return 0
	}
	d := depth > 0
	switch r.weighted(w(len(cols) > 0, 4), 3, 1, w(inp, 1), w(d, 2), w(d, 2), 1, w(d, 1)) {
	case 0: // a column of a matrix
		m := cols[r.intn(len(cols))]
		return fval{index(m.e, mg.colIndex(m.e.Type().Len)), m.b}
	case 1: // components
		b, sb := mg.smallBound(), int64(0)
		es := make([]ir.Expr, n)
		for i := range es {
			if r.chance(70) {
				s := mg.fsrc(b)
				es[i], sb = s.e, max(sb, s.b)
			} else {
				es[i], sb = flit(int64(r.between(-8, 8))), max(sb, 8)
			}
		}
		return fval{construct(ir.Vec(n, ir.F32), es...), sb}
	case 2: // a splat
		s := mg.fsrc(mg.smallBound())
		return fval{construct(ir.Vec(n, ir.F32), s.e), s.b}
	case 3: // a column of minp
		return fval{index(index(mg.minp, mg.inpIndex()), mg.colIndex(mg.minp.T.Elem.Len)), FloatBound}
	case 4: // matCxN × vecC
		c := r.between(2, 4)
		m := mg.matOf(ir.Mat(c, n), depth-1)
		v := mg.vecOf(c, depth-1)
		m, v = mg.fitProduct(m, v, int64(c))
		return fval{bin(ir.OpMul, m.e, v.e), int64(c) * m.b * v.b}
	case 5: // vecK × matNxK
		k := r.between(2, 4)
		v := mg.vecOf(k, depth-1)
		m := mg.matOf(ir.Mat(n, k), depth-1)
		v, m = mg.fitProduct(v, m, int64(k))
		return fval{bin(ir.OpMul, v.e, m.e), int64(k) * m.b * v.b}
	case 6:
		return mg.vecLit(n)
	}
	// a helper's column of a product: mh(matKxN, matCxK, i)
	k, c := r.between(2, 4), r.between(2, 4)
	a := mg.matOf(ir.Mat(k, n), depth-1)
	b := mg.matOf(ir.Mat(c, k), depth-1)
	a, b = mg.fitProduct(a, b, int64(k))
	h := mg.helper(k, n, c)
	return fval{&ir.Call{Func: h, Args: []ir.Expr{a.e, b.e, mg.u32Index(1 << 8)}, T: ir.Vec(n, ir.F32)}, int64(k) * a.b * b.b}
}

// helper returns the name of the helper function of shape (k, r, c),
// made on first use (matrix parameters, a matrix let, an early return;
// flatten inlines it):
//
//	fn mhN(a: matKxR<f32>, b: matCxK<f32>, i: u32) -> vecR<f32> {
//	  let p = a * b;
//	  if (i % 2u == 0u) {
//	    return p[i % C];
//	  }
//	  return a * b[i % C];
//	}
//
// Both results are products of a and b: their bound is K·|a|·|b|.
func (mg *matGen) helper(k, rows, c int) string {
	key := [3]int{k, rows, c}
	if name, ok := mg.helpers[key]; ok {
		return name
	}
	if mg.helpers == nil {
		mg.helpers = map[[3]int]string{}
	}
	name := fmt.Sprintf("mh%d", len(mg.helpers))
	mg.helpers[key] = name
	at, bt, pt := ir.Mat(k, rows), ir.Mat(c, k), ir.Mat(c, rows)
	a := &ir.Ident{Name: "a", T: at, Ref: ir.RefParam}
	b := &ir.Ident{Name: "b", T: bt, Ref: ir.RefParam}
	i := &ir.Ident{Name: "i", T: ir.U32, Ref: ir.RefParam}
	p := &ir.Ident{Name: "p", T: pt, Ref: ir.RefLet}
	u := func(v uint32) ir.Expr { return lit(ir.U32Val(v)) }
	col := func() ir.Expr { return bin(ir.OpRem, i, u(uint32(c))) }
	f := &ir.Func{Name: name, Result: ir.Vec(rows, ir.F32),
		Params: []*ir.Param{{Name: "a", T: at}, {Name: "b", T: bt}, {Name: "i", T: ir.U32}},
		Body: &ir.Block{Stmts: []ir.Stmt{
			&ir.Decl{Name: "p", T: pt, Init: bin(ir.OpMul, a, b)},
			&ir.If{Cond: bin(ir.OpEq, bin(ir.OpRem, i, u(2)), u(0)),
				Then: &ir.Block{Stmts: []ir.Stmt{&ir.Return{Value: index(p, col())}}}, Else: &ir.Block{}},
			&ir.Return{Value: bin(ir.OpMul, a, index(b, col()))},
		}}}
	mg.cg.g.m.Funcs = append(mg.cg.g.m.Funcs, f)
	return name
}

// scalarOf returns a run-time f32 scalar of at most depth nested
// operations: an element, a determinant or a component of a product.
func (mg *matGen) scalarOf(depth int) fval {
	r := mg.r
	d := depth > 0
	w := func(ok bool, k int) int {
		if ok {
			return k
		}
		return 0
	}
	switch r.weighted(w(len(mg.pool) > 0, 4), w(d, 3), w(d, 2), w(mg.minp != nil, 1), 1) {
	case 0: // an element
		m := mg.pool[r.intn(len(mg.pool))]
		t := m.e.Type()
		return fval{index(index(m.e, mg.colIndex(t.Len)), mg.colIndex(t.Rows())), m.b}
	case 1: // a determinant
		n := r.between(2, 4)
		return mg.det(mg.matOf(ir.Mat(n, n), depth-1))
	case 2: // a component of a vector
		v := mg.vecOf(r.between(2, 4), depth)
		if isConst(v.e) {
			return mg.fsrc(mg.smallBound())
		}
		return fval{swizzle(v.e, uint8(r.intn(v.e.Type().Len))), v.b}
	case 3: // an element of minp
		t := mg.minp.T.Elem
		return fval{index(index(index(mg.minp, mg.inpIndex()), mg.colIndex(t.Len)), mg.colIndex(t.Rows())), FloatBound}
	}
	return mg.fsrc(mg.smallBound())
}

// det returns determinant(m) of a square matrix m, reconditioned to
// detBound: bound n!·b^n ≤ 2^23.
func (mg *matGen) det(m fval) fval {
	n := m.e.Type().Len
	m = mg.clampTo(m, detBound[n])
	p := int64(1)
	for i := 1; i <= n; i++ {
		p *= int64(i) * m.b
	}
	return fval{builtin(ir.BDeterminant, m.e), p}
}

// columnLoop appends a loop over the columns of a matrix m (flatten
// unrolls it, substituting the counter into m[k]):
//
//	{ var mN = 0u; loop { if (!(mN < C)) { break; } acc = f(acc, m[mN][j]); continuing { mN = mN + 1u; } } }
func (mg *matGen) columnLoop() {
	cg := mg.cg
	c := cg.c
	var m fval
	if len(mg.pool) > 0 && mg.r.chance(70) {
		m = mg.pool[mg.r.intn(len(mg.pool))]
	} else {
		m = mg.matOf(mg.matType(), 1)
	}
	cols := m.e.Type().Len
	if !c.copiesFit(cols + 1) {
		return
	}
	c.addCopies(cols + 1)
	name := fmt.Sprintf("m%d", mg.seq)
	mg.seq++
	k := &ir.Ident{Name: name, T: ir.U32, Ref: ir.RefVar}
	u := func(v uint32) ir.Expr { return lit(ir.U32Val(v)) }
	var v fval
	if mg.r.chance(50) {
		v = fval{index(index(m.e, k), mg.colIndex(m.e.Type().Rows())), m.b}
	} else {
		v = fval{index(m.e, k), m.b}
	}
	exit := &ir.If{Cond: un(ir.OpNot, bin(ir.OpLt, k, u(uint32(cols)))), Then: &ir.Block{Stmts: []ir.Stmt{&ir.Break{}}}, Else: &ir.Block{}}
	loop := &ir.Loop{
		Body:       &ir.Block{Stmts: []ir.Stmt{exit, mg.feedStmt(v)}},
		Continuing: &ir.Block{Stmts: []ir.Stmt{&ir.Assign{LHS: k, RHS: bin(ir.OpAdd, k, u(1))}}},
	}
	cg.stmts = append(cg.stmts, &ir.Block{Stmts: []ir.Stmt{&ir.Decl{Name: name, T: ir.U32, Mutable: true, Init: u(0)}, loop}})
}

// feed folds a run-time f32 scalar or vector into acc: acc =
// combine(acc, v converted to acc's type).
func (mg *matGen) feed(v fval) {
	mg.cg.stmts = append(mg.cg.stmts, mg.feedStmt(v))
}

// feedStmt is feed's statement.
func (mg *matGen) feedStmt(v fval) ir.Stmt {
	cg := mg.cg
	e := v.e
	if isConst(e) {
		e = mg.fsrc(FloatBound).e
	}
	et := e.Type()
	if cg.t.Kind == ir.KindVec {
		if et.Kind == ir.KindVec {
			comps := make([]uint8, cg.t.Len)
			for i := range comps {
				comps[i] = uint8(mg.r.intn(et.Len))
			}
			e = swizzle(e, comps...)
		} else {
			e = construct(ir.Vec(cg.t.Len, ir.F32), e)
		}
	} else if et.Kind == ir.KindVec {
		e = swizzle(e, uint8(mg.r.intn(et.Len)))
	}
	e = convertScalar(e, cg.t.Scalar())
	return &ir.Assign{LHS: cg.acc, RHS: cg.combine(cg.acc, e)}
}

// use feeds something computed from matrix m into acc: an element, a
// column, a product with a vector, a determinant or a product's element.
func (mg *matGen) use(m fval) {
	r := mg.r
	t := m.e.Type()
	c, rows := t.Len, t.Rows()
	switch r.intn(6) {
	case 0:
		mg.feed(fval{index(index(m.e, mg.colIndex(c)), mg.colIndex(rows)), m.b})
	case 1:
		mg.feed(fval{index(m.e, mg.colIndex(c)), m.b})
	case 2: // m × vecC
		v := mg.vecOf(c, 1)
		m, v = mg.fitProduct(m, v, int64(c))
		mg.feed(fval{bin(ir.OpMul, m.e, v.e), int64(c) * m.b * v.b})
	case 3: // vecR × m
		v := mg.vecOf(rows, 1)
		v, m = mg.fitProduct(v, m, int64(rows))
		mg.feed(fval{bin(ir.OpMul, v.e, m.e), int64(rows) * m.b * v.b})
	case 4: // determinant of m (square) or of m × transpose(m)
		sq := m
		if c != rows {
			if int64(c)*m.b*m.b > FloatBound {
				m = mg.clampTo(m, prodBounds[r.intn(len(prodBounds))])
			}
			tr := mg.mlet(builtin(ir.BTranspose, m.e), m.b)
			sq = mg.mlet(bin(ir.OpMul, m.e, tr.e), int64(c)*m.b*m.b)
		}
		mg.feed(mg.det(sq))
	default: // an element of m × another
		k := r.between(2, 4)
		o := mg.matOf(ir.Mat(k, c), 1)
		a, b := mg.fitProduct(m, o, int64(c))
		p := mg.mlet(bin(ir.OpMul, a.e, b.e), int64(c)*a.b*b.b)
		mg.feed(fval{index(index(p.e, mg.colIndex(k)), mg.colIndex(rows)), p.b})
	}
}

// phase appends matrix code touching no shared memory but minp (read
// only): a few matrices computed and used, sometimes a matrix var
// assigned and written under a run-time if.
func (mg *matGen) phase() {
	r := mg.r
	depth := 1
	if r.chance(30) {
		depth = 2
	}
	mg.use(mg.matOf(mg.matType(), depth))
	if r.chance(30) {
		mg.feed(mg.scalarOf(1))
	}
	if r.chance(30) {
		mg.branchVar()
	}
	if r.chance(25) {
		mg.columnLoop()
	}
}

// branchVar appends a matrix var written under a run-time condition:
//
//	var mN = <matrix>;
//	if (<acc-derived condition>) { mN = …; | mN += …; | mN *= …; | mN[j] = …; | mN[j][k] = …; }
//	else { … }
//
// (flatten predicates it: matrices are selected column by column, the
// column and element stores lowered), then uses it.
func (mg *matGen) branchVar() {
	cg, r := mg.cg, mg.r
	t := mg.matType()
	c, rows := t.Len, t.Rows()
	init := mg.clampTo(mg.matOf(t, 1), 1<<10)
	name := fmt.Sprintf("m%d", mg.seq)
	mg.seq++
	cg.stmts = append(cg.stmts, &ir.Decl{Name: name, T: t, Mutable: true, Init: init.e})
	mv := &ir.Ident{Name: name, T: t, Ref: ir.RefVar}
	bound := init.b
	arm := func() *ir.Block {
		var ss []ir.Stmt
		for i, n := 0, r.between(1, 2); i < n; i++ {
			switch r.intn(5) {
			case 0:
				a := mg.matOf(t, 1)
				ss = append(ss, &ir.Assign{LHS: mv, RHS: a.e})
				bound = max(bound, a.b)
			case 1:
				a := mg.clampTo(mg.matOf(t, 1), 1<<10)
				ss = append(ss, &ir.Assign{LHS: mv, Op: ir.OpAdd, RHS: a.e})
				bound += a.b // ≤ 2^10 per += and at most 4 of them
			case 2:
				if bound <= 1<<10 {
					sq := mg.clampTo(mg.matOf(ir.Mat(c, c), 1), 16)
					ss = append(ss, &ir.Assign{LHS: mv, Op: ir.OpMul, RHS: sq.e})
					bound *= int64(c) * sq.b
					break
				}
				fallthrough
			case 3:
				v := mg.vecOf(rows, 1)
				if v.b > 1<<10 {
					v = mg.clampTo(v, 1<<10)
				}
				ss = append(ss, &ir.Assign{LHS: index(mv, mg.colIndex(c)), RHS: v.e})
				bound = max(bound, v.b)
			default:
				s := mg.clampTo(mg.scalarOf(1), 1<<10)
				ss = append(ss, &ir.Assign{LHS: index(index(mv, mg.colIndex(c)), mg.colIndex(rows)), RHS: s.e})
				bound = max(bound, s.b)
			}
		}
		return &ir.Block{Stmts: ss}
	}
	then := arm()
	els := &ir.Block{}
	if r.chance(60) {
		els = arm()
	}
	op := []ir.BinaryOp{ir.OpLt, ir.OpGt, ir.OpNe}[r.intn(3)]
	cond := bin(op, cg.scalarOf(ir.I32), lit(ir.I32Val(int32(r.between(-8, 8)))))
	cg.stmts = append(cg.stmts, &ir.If{Cond: cond, Then: then, Else: els})
	v := fval{mv, bound}
	mg.pool = append(mg.pool, v)
	mg.use(v)
}

// write appends the write half of an exchange: the invocation's own
// mtile slot written whole, by column or by element.
func (mg *matGen) write() {
	cg, r := mg.cg, mg.r
	t := mg.mtile.T.Elem
	own := index(mg.mtile, cg.li)
	switch r.weighted(5, 3, 2) {
	case 0:
		m := mg.matOf(t, 1)
		cg.stmts = append(cg.stmts, &ir.Assign{LHS: own, RHS: m.e})
		mg.tileB = max(mg.tileB, m.b)
	case 1:
		for j := 0; j < t.Len; j++ {
			if j > 0 && r.chance(40) {
				continue
			}
			v := mg.vecOf(t.Rows(), 1)
			cg.stmts = append(cg.stmts, &ir.Assign{LHS: index(ir.CloneExpr(own), lit(ir.U32Val(uint32(j)))), RHS: v.e})
			mg.tileB = max(mg.tileB, v.b)
		}
	default:
		s := mg.scalarOf(1)
		cg.stmts = append(cg.stmts, &ir.Assign{LHS: index(index(own, mg.colIndex(t.Len)), mg.colIndex(t.Rows())), RHS: s.e})
		mg.tileB = max(mg.tileB, s.b)
	}
}

// read appends the read half of an exchange (after the barrier): a
// neighbour's mtile slot (or the own one) read whole, by column or by
// element, and folded into acc.
func (mg *matGen) read() {
	cg, r := mg.cg, mg.r
	t := mg.mtile.T.Elem
	var slot ir.Expr = index(mg.mtile, cg.rot(cg.li, uint32(cg.l)))
	if r.chance(15) {
		slot = index(mg.mtile, cg.li)
	}
	switch r.weighted(5, 2, 2) {
	case 0:
		mg.use(mg.mlet(slot, mg.tileB))
	case 1:
		v := mg.mlet(index(slot, mg.colIndex(t.Len)), mg.tileB)
		mg.feed(v)
	default:
		mg.feed(fval{index(index(slot, mg.colIndex(t.Len)), mg.colIndex(t.Rows())), mg.tileB})
	}
}

// output appends the invocation's own mout slot's writes: whole, by
// column or by element.
func (mg *matGen) output() {
	cg, r := mg.cg, mg.r
	t := mg.mout.T.Elem
	own := index(mg.mout, cg.gi)
	switch r.weighted(5, 3, 1) {
	case 0:
		cg.stmts = append(cg.stmts, &ir.Assign{LHS: own, RHS: mg.matOf(t, 1).e})
	case 1:
		for j := 0; j < t.Len; j++ {
			if j > 0 && r.chance(30) {
				continue
			}
			cg.stmts = append(cg.stmts, &ir.Assign{LHS: index(ir.CloneExpr(own), lit(ir.U32Val(uint32(j)))), RHS: mg.vecOf(t.Rows(), 1).e})
		}
	default:
		cg.stmts = append(cg.stmts, &ir.Assign{LHS: index(index(own, mg.colIndex(t.Len)), mg.colIndex(t.Rows())), RHS: mg.scalarOf(1).e})
	}
}
