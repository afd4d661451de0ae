package shrink

import (
	"math/bits"

	"github.com/gpudiff/gpudiff/ir"
)

// measure orders cases by size; every candidate is strictly smaller than
// the case it came from in this lexicographic order, so greedy shrinking
// always ends.
type measure struct {
	funcs int // functions in the module
	nodes int // weighted nodes: 2 per node, 1 per literal; plus params, globals, struct fields
	// entries sums the proven iteration bounds of the bounded loops.
	entries int
	// lits sums the bit lengths of the literal components' magnitudes.
	lits        int
	invocations int
}

func (a measure) less(b measure) bool {
	switch {
	case a.funcs != b.funcs:
		return a.funcs < b.funcs
	case a.nodes != b.nodes:
		return a.nodes < b.nodes
	case a.entries != b.entries:
		return a.entries < b.entries
	case a.lits != b.lits:
		return a.lits < b.lits
	}
	return a.invocations < b.invocations
}

func litBits(v ir.Value) int {
	if !v.Type.IsScalar() {
		n := 0
		for _, e := range v.Elems {
			n += litBits(e)
		}
		return n
	}
	switch v.Type.Kind {
	case ir.KindI32:
		x := int64(v.I32())
		if x < 0 {
			x = -x
		}
		return bits.Len64(uint64(x))
	case ir.KindF32:
		f := float64(v.F32())
		if f < 0 {
			f = -f
		}
		if f >= 1<<62 || f != f {
			return 64
		}
		return bits.Len64(uint64(f))
	}
	return bits.Len32(v.Bits)
}

func measureOf(c Case) measure {
	m := c.Module
	ms := measure{funcs: len(m.Funcs), invocations: len(c.Args) + workgroupInvocations(m, c.Kernel)}
	ms.nodes += len(m.Globals)
	for _, v := range m.Shared {
		if v.Space == ir.SpaceWorkgroup {
			ms.nodes += 2 // more than the var<private> it may become
		}
	}
	for _, s := range m.Structs {
		ms.nodes += len(s.Fields)
	}
	for _, f := range m.Funcs {
		ms.nodes += len(f.Params)
		ir.Inspect(f.Body, func(n ir.Node) bool {
			if l, ok := n.(*ir.Lit); ok {
				ms.nodes++
				ms.lits += litBits(l.Val)
			} else {
				ms.nodes += 2
			}
			return true
		})
	}
	for _, li := range loops(m.Funcs) {
		if li.bound != nil {
			ms.entries += li.bound.MaxEntries
		}
	}
	return ms
}

// unbounded counts the loops of the roots' call graph (the kernel's, a
// draw's vertex entry point's) ir.BoundLoop cannot bound.
func unbounded(m *ir.Module, roots ...string) int {
	n := 0
	for _, li := range loops(callGraph(m, roots)) {
		if li.bound == nil {
			n++
		}
	}
	return n
}

func isConstExpr(e ir.Expr) bool {
	switch e.(type) {
	case *ir.Lit:
		return true
	case *ir.Ident, *ir.Call:
		return false
	}
	all := true
	ir.DoChildren(e, func(n ir.Node) bool {
		all = isConstExpr(n.(ir.Expr))
		return !all
	})
	return all
}

func scalarsOf(v ir.Value) []ir.Value {
	if v.Type.IsScalar() {
		return []ir.Value{v}
	}
	var out []ir.Value
	for _, e := range v.Elems {
		out = append(out, scalarsOf(e)...)
	}
	return out
}

// hazards counts the constructs of the roots' call graph (the kernel's, a
// draw's vertex entry point's: each function once) that can make
// a GPU refuse the module or return an indeterminate value, beyond what
// ir.Verify rejects: an operator, builtin or conversion of const-
// expressions only (WGSL {#const-expr}: const overflow is a
// shader-creation error), clamp with run-time or inverted bounds
// (WGSL {#clamp}), extractBits/insertBits with a run-time or too long bit
// range, and a run-time index not reduced into range by `% N` or
// `min(…, N-1)` (WGSL {#array-access-expr}). A candidate may not have more
// than its original: shrinking must not trade the failure for a different
// one.
func hazards(m *ir.Module, roots ...string) int {
	n := 0
	for _, f := range callGraph(m, roots) {
		lets := map[string]ir.Expr{}
		ir.Inspect(f.Body, func(x ir.Node) bool {
			if d, ok := x.(*ir.Decl); ok && !d.Mutable {
				lets[d.Name] = d.Init
			}
			return true
		})
		ir.Inspect(f.Body, func(x ir.Node) bool {
			e, ok := x.(ir.Expr)
			if !ok {
				return true
			}
			switch e.(type) {
			case *ir.Unary, *ir.Binary, *ir.BuiltinCall, *ir.Convert, *ir.Bitcast:
				if isConstExpr(e) {
					n++
				}
			}
			switch x := e.(type) {
			case *ir.BuiltinCall:
				switch x.Fn {
				case ir.BClamp:
					lo, okL := x.Args[1].(*ir.Lit)
					hi, okH := x.Args[2].(*ir.Lit)
					if !okL || !okH {
						n++
						break
					}
					ls, hs := scalarsOf(lo.Val), scalarsOf(hi.Val)
					for i := range ls {
						switch ls[i].Type.Kind {
						case ir.KindI32:
							if hs[i].I32() < ls[i].I32() {
								n++
							}
						case ir.KindU32:
							if hs[i].U32() < ls[i].U32() {
								n++
							}
						case ir.KindF32:
							if hs[i].F32() < ls[i].F32() {
								n++
							}
						}
					}
				case ir.BExtractBits, ir.BInsertBits:
					k := len(x.Args)
					o, okO := x.Args[k-2].(*ir.Lit)
					c, okC := x.Args[k-1].(*ir.Lit)
					if !okO || !okC || uint64(o.Val.U32())+uint64(c.Val.U32()) > 32 {
						n++
					}
				}
			case *ir.Index:
				if !reducedIndex(x.Index, uint32(x.X.Type().Len), lets) {
					n++
				}
			}
			return true
		})
	}
	return n
}

// reducedIndex reports whether index e of a vector or array of n
// elements is provably in range: a literal (ir.Verify checks its range), a
// u32 e % N or min(e, N-1) with literal N ≤ n, or a let bound to one of
// those (ir.Normalize binds effectful indices to lets).
func reducedIndex(e ir.Expr, n uint32, lets map[string]ir.Expr) bool {
	switch ix := e.(type) {
	case *ir.Lit:
		return true
	case *ir.Binary:
		l, ok := ix.Y.(*ir.Lit)
		return ok && ix.Op == ir.OpRem && l.Val.Type.Kind == ir.KindU32 && l.Val.Bits <= n && l.Val.Bits > 0
	case *ir.BuiltinCall:
		if ix.Fn != ir.BMin {
			return false
		}
		l, ok := ix.Args[1].(*ir.Lit)
		return ok && l.Val.Type.Kind == ir.KindU32 && l.Val.Bits < n
	case *ir.Ident:
		init, ok := lets[ix.Name]
		return ok && ix.Ref == ir.RefLet && reducedIndex(init, n, nil)
	}
	return false
}
