package interp

import (
	"github.com/gpudiff/gpudiff/ir"
)

// subgroupFragment compiles a subgroup or quad builtin outside a
// dispatch (subgroup.go, "Fragments"): in a quad run (RunQuads,
// RunQuadList) a quad operation in uniform control flow reads the
// fragment's quad through quad.go's fixed point (its operand logged as a
// derivative's is, with whether the invocation was a helper then: a
// helper "may participate" in subgroup operations, WGSL
// #fragment-shaders-helper-invocations, so reading one is any value);
// every other subgroup builtin is any value (the subgroup is an unknown
// set of quads), as is a quad operation in non-uniform control flow.
// Outside a quad run it stops the invocation (not executable), as before.
func (c *compiler) subgroupFragment(e *ir.BuiltinCall, dst int32) cexpr {
	ops := c.operands(e.Args...)
	info := e.Fn.Info()
	pos, name := e.Pos, info.Name
	n := size(e.T)
	d := c.alloc(max(n, 1))
	quad := false
	switch e.Fn {
	case ir.BQuadBroadcast, ir.BQuadSwapX, ir.BQuadSwapY, ir.BQuadSwapDiagonal:
		quad = true
	}
	uniform := quad && siteUniform(c.m, e)
	anyWhy := c.addReason(pos, rBitcast, e, "the subgroup of a fragment is an unknown set of quads (WGSL #subgroups): any value")
	nonUniform := c.addReason(pos, rBitcast, e, "a quad operation in non-uniform control flow: which invocations of the quad execute it together is not known (WGSL #quad-ops): any value")
	pending := c.addReason(pos, rBitcast, e, "its quad neighbours' values are not known yet (the reference runs the quad again)")
	inactive := c.addReason(pos, rBitcast, e, "reads a quad invocation that runs no fragment or is a helper, which may not participate (WGSL #quad-builtin-functions, #fragment-shaders-helper-invocations): an indeterminate value")
	any := func(fr *frame, why int32) {
		for j := int32(0); j < max(n, 1); j++ {
			fr.s[d+j] = slot{why: -why}
		}
	}
	var arg, idArg cexpr
	if len(ops) > 0 {
		arg = ops[0]
	}
	if len(ops) > 1 {
		idArg = ops[1]
	}
	signedID := len(e.Args) > 1 && e.Args[1].Type().Kind == ir.KindI32
	fn := func(fr *frame) {
		q := fr.quad
		if q == nil {
			fr.fail(pos, "%s is not executable by the reference (a subgroup builtin needs other invocations)", name)
			return
		}
		if !quad {
			any(fr, anyWhy)
			return
		}
		if !uniform {
			any(fr, nonUniform)
			return
		}
		k := q.k
		q.k++
		v := make([]slot, arg.n+1)
		copy(v, fr.s[arg.loc:arg.loc+arg.n])
		for j := range v {
			v[j].dropSet()
		}
		if fr.discarded || q.helper[q.lane] {
			v[arg.n] = slot{bits: 1}
		}
		q.logs[q.lane] = append(q.logs[q.lane], v)
		var t int
		switch e.Fn {
		case ir.BQuadSwapX:
			t = q.lane ^ 1
		case ir.BQuadSwapY:
			t = q.lane ^ 2
		case ir.BQuadSwapDiagonal:
			t = q.lane ^ 3
		default:
			x := fr.s[idArg.loc]
			id := int64(x.bits)
			if signedID {
				id = int64(int32(x.bits))
			}
			if x.why < 0 || id < 0 || id > 3 {
				any(fr, inactive)
				return
			}
			t = int(id)
		}
		if t == q.lane {
			copy(fr.s[d:d+n], v[:n])
			return
		}
		if q.absent[t] {
			any(fr, inactive)
			return
		}
		if k >= len(q.prev[t]) {
			any(fr, pending)
			return
		}
		src := q.prev[t][k]
		if len(src) != int(n)+1 || src[n].bits != 0 {
			any(fr, inactive)
			return
		}
		copy(fr.s[d:d+n], src[:n])
	}
	return cexpr{code: seq(ops, fn), loc: d, n: n, stops: true}
}

// siteUniform reports whether WGSL's uniformity analysis puts the
// subgroup call e, a node of m, in uniform control flow: a copy of m in
// which every other subgroup call is a derivative call (non-uniform
// result, no requirement at the derivative rule's lowered severity)
// passes with the subgroup rule at error severity — and the copy with
// none requiring passes too (else nothing is uniform).
func siteUniform(m *ir.Module, e *ir.BuiltinCall) bool {
	probe := func(keep *ir.BuiltinCall) bool {
		p := *m
		p.Funcs = make([]*ir.Func, len(m.Funcs))
		for i, h := range m.Funcs {
			var orig []*ir.BuiltinCall
			ir.Inspect(h.Body, func(n ir.Node) bool {
				if b, ok := n.(*ir.BuiltinCall); ok && b.Fn.Info().Class == ir.ClassSubgroup {
					orig = append(orig, b)
				}
				return true
			})
			if len(orig) == 0 {
				p.Funcs[i] = h
				continue
			}
			g := *h
			g.Body = ir.CloneBlock(h.Body)
			k := 0
			ir.Inspect(g.Body, func(n ir.Node) bool {
				if b, ok := n.(*ir.BuiltinCall); ok && b.Fn.Info().Class == ir.ClassSubgroup {
					if orig[k] != keep {
						b.Fn = ir.BDpdx
					}
					k++
				}
				return true
			})
			p.Funcs[i] = &g
		}
		return len(ir.Uniformity(&p, ir.UniformityOptions{SubgroupError: true}).Errors) == 0
	}
	return probe(nil) && probe(e)
}
