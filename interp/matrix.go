package interp

import (
	"math"

	"github.com/gpudiff/gpudiff/ir"
)

// Matrices (WGSL #matrix-types, #matrix-arithmetic). A matCxR<T> value
// (T f32 or f16) occupies C*R slots, column-major: element [c][r] at slot
// c*R + r, so a column is a vecR and indexing m[i] is an array index.
//
// Accuracy, in T's format (f16.go: the rules are f32.go's with binary16's
// ULPs and range): matrix + - and the products with a scalar are
// component-wise + - * (correctly rounded, f32.go's rules). The matrix-vector,
// vector-matrix and matrix-matrix products are, per result component, a
// sum of products — the same rule as dot (WGSL #matrix-arithmetic defines
// them as dot products of rows and columns; #concrete-float-accuracy
// makes them inherited from that expression): exact for small
// integer-valued operands, else a bound of one ULP of the sum of
// magnitudes per addition (fSum). transpose moves values and is exact.
// determinant is specified with infinite ULP (#concrete-float-accuracy):
// the reference gives the exact value where every product and every
// partial sum of its Leibniz expansion is exact in f32 (small
// integer-valued matrices, which every formula — cofactor expansion,
// LU — computes exactly as well) and is indeterminate otherwise (reason:
// outside the range where the accuracy is specified), like an f32
// operation outside its domain. That is stricter than the letter of the
// spec (which leaves every determinant unspecified) in the same way
// division by a power of two is.

// matrixBinary compiles x op y where x or y is a matrix: xt, yt and rt
// are the operand and result types.
func (c *compiler) matrixBinary(pos ir.Pos, node ir.Node, op ir.BinaryOp, xt, yt, rt *ir.Type, x, y cexpr, dst int32) cexpr {
	n := size(rt)
	mt := xt
	if !mt.IsMat() {
		mt = yt
	}
	m := fmtOf(mt.Elem.Elem.Kind) // the columns' element: f32 or f16
	switch {
	case op == ir.OpAdd || op == ir.OpSub || xt.IsFloat() || yt.IsFloat():
		// Component-wise: matrix ± matrix, matrix * scalar, scalar * matrix.
		sx, sy := int32(1), int32(1)
		if xt.IsFloat() {
			sx = 0
		}
		if yt.IsFloat() {
			sy = 0
		}
		d := c.pickDst(dst, n, true, x, y)
		fn := c.floatArith(m, pos, node, op, x, y, sx, sy, n, d)
		return cexpr{code: c.emitI(instr{op: opFn, d: d, fn: fn}, x, y), loc: d, n: n, stops: x.stops || y.stops}
	}
	var k vk
	switch {
	case xt.IsMat() && yt.Kind == ir.KindVec:
		k = vkMatVec(m, xt.Len, xt.Rows())
	case xt.Kind == ir.KindVec && yt.IsMat():
		k = vkVecMat(m, yt.Len, yt.Rows())
	default:
		k = vkMatMat(m, xt.Len, xt.Rows(), yt.Len)
	}
	site := c.site(pos, node, "inherited from sums of products (dot)")
	ops := []cexpr{x, y}
	d := c.pickDst(dst, n, false, ops...)
	fn := vecKernel(m, site, k, ops, n, d)
	return cexpr{code: c.emitI(instr{op: opFn, d: d, fn: fn}, ops...), loc: d, n: n, stops: x.stops || y.stops}
}

// dotStrided is m.dot of x[xo + i*xs] and y[yo + i*ys], i < n.
func dotStrided(m *ffmt, in []fv, xo, xs, yo, ys, n int) (fv, fstatus) {
	var tmp [4]fv
	for i := 0; i < n; i++ {
		tmp[i] = m.mul(in[xo+i*xs], in[yo+i*ys])
	}
	return m.sum(tmp[:n])
}

// worst keeps the first non-OK status.
func worst(a, b fstatus) fstatus {
	if a != fsOK {
		return a
	}
	return b
}

// vkMatVec is matCxR * vecC: result[r] = Σ_k m[k][r] * v[k].
func vkMatVec(m *ffmt, cols, rows int) vk {
	return func(in, out []fv) fstatus {
		st := fsOK
		for r := 0; r < rows; r++ {
			var s fstatus
			out[r], s = dotStrided(m, in, r, rows, cols*rows, 1, cols)
			st = worst(st, s)
		}
		return st
	}
}

// vkVecMat is vecR * matCxR: result[c] = Σ_r v[r] * m[c][r].
func vkVecMat(m *ffmt, cols, rows int) vk {
	return func(in, out []fv) fstatus {
		st := fsOK
		for c := 0; c < cols; c++ {
			var s fstatus
			out[c], s = dotStrided(m, in, 0, 1, rows+c*rows, 1, rows)
			st = worst(st, s)
		}
		return st
	}
}

// vkMatMat is matKxR * matCxK: result[c][r] = Σ_k a[k][r] * b[c][k].
func vkMatMat(m *ffmt, k, rows, cols int) vk {
	return func(in, out []fv) fstatus {
		st := fsOK
		b := k * rows
		for c := 0; c < cols; c++ {
			for r := 0; r < rows; r++ {
				var s fstatus
				out[c*rows+r], s = dotStrided(m, in, r, rows, b+c*k, 1, k)
				st = worst(st, s)
			}
		}
		return st
	}
}

// vkTranspose is transpose(matCxR): result[r][c] = m[c][r] (exact).
func vkTranspose(cols, rows int) vk {
	return func(in, out []fv) fstatus {
		for c := 0; c < cols; c++ {
			for r := 0; r < rows; r++ {
				out[r*cols+c] = in[c*rows+r]
			}
		}
		return fsOK
	}
}

// leibniz lists, for n = 2, 3, 4, every permutation p of 0..n-1 with its
// sign: det(m) = Σ_p sign(p) Π_c m[c][p[c]].
var leibniz = func() map[int][]struct {
	p    []int
	sign float64
} {
	out := map[int][]struct {
		p    []int
		sign float64
	}{}
	var perm func(pre []int, rest []int, n int)
	perm = func(pre, rest []int, n int) {
		if len(rest) == 0 {
			inv := 0
			for i := range pre {
				for j := i + 1; j < len(pre); j++ {
					if pre[i] > pre[j] {
						inv++
					}
				}
			}
			sign := 1.0
			if inv%2 == 1 {
				sign = -1
			}
			out[n] = append(out[n], struct {
				p    []int
				sign float64
			}{append([]int(nil), pre...), sign})
			return
		}
		for i, r := range rest {
			next := append(append([]int(nil), rest[:i]...), rest[i+1:]...)
			perm(append(append([]int(nil), pre...), r), next, n)
		}
	}
	for n := 2; n <= 4; n++ {
		ids := make([]int, n)
		for i := range ids {
			ids[i] = i
		}
		perm(nil, ids, n)
	}
	return out
}()

// vkDeterminant is determinant(matNxN) by the Leibniz expansion: exact
// or indeterminate (fsDomain), see the file comment.
func vkDeterminant(m *ffmt, n int) vk {
	perms := leibniz[n]
	return func(in, out []fv) fstatus {
		var terms [24]fv
		for i, p := range perms {
			t := fv{p.sign, 0}
			for c := 0; c < n; c++ {
				t = m.mul(t, in[c*n+p.p[c]])
			}
			terms[i] = t
		}
		r, st := m.sum(terms[:len(perms)])
		out[0] = fv{r.v, 0}
		if st != fsOK {
			return st
		}
		if r.e != 0 || math.IsNaN(r.v) {
			return fsDomain
		}
		return fsOK
	}
}

// matrixBuiltin compiles transpose and determinant.
func (c *compiler) matrixBuiltin(e *ir.BuiltinCall, dst int32) cexpr {
	ops := c.operands(e.Args...)
	mt := e.Args[0].Type()
	m := fmtOf(mt.Elem.Elem.Kind)
	n := size(e.T)
	var k vk
	acc := "exact"
	if e.Fn == ir.BTranspose {
		k = vkTranspose(mt.Len, mt.Rows())
	} else {
		k = vkDeterminant(m, mt.Len)
		acc = "infinite ULP (WGSL #concrete-float-accuracy): exact for an exact Leibniz expansion, else indeterminate"
	}
	site := c.site(e.Pos, e, acc)
	d := c.pickDst(dst, n, false, ops...)
	fn := vecKernel(m, site, k, ops, n, d)
	return cexpr{code: c.emitI(instr{op: opFn, d: d, fn: fn}, ops...), loc: d, n: n, stops: anyStops(ops...)}
}
