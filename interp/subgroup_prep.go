package interp

import (
	"github.com/gpudiff/gpudiff/ir"
)

// prepareSubgroups rewrites the compute entry point entry of m (whose
// subgroup calls ir.InlineCollectives has moved into its own body) for
// keyed subgroup execution (subgroup.go): every loop that holds a
// subgroup call gets an iteration counter — `var c: u32 = 0u;` right
// before it, `c += 1u;` first in its body — and every subgroup call site
// its counters and whether WGSL's uniformity analysis puts it in uniform
// control flow; the body starts with the declaration of the trace
// (sgInfo.trace). m is not changed: the result is a copy whose entry point
// is replaced.
func prepareSubgroups(m *ir.Module, entry string) (*ir.Module, *sgInfo) {
	f := m.Func(entry)
	g := *f
	g.Body = ir.CloneBlock(f.Body)
	names := ir.NewNamer(m, m.Funcs...)
	lift := &shortLifter{names: names, opaque: map[*ir.BuiltinCall]bool{}}
	lift.block(g.Body) // subgroup_lift.go
	counters := map[*ir.Loop]string{}
	var addCounters func(b *ir.Block)
	addCounters = func(b *ir.Block) {
		if b == nil {
			return
		}
		var out []ir.Stmt
		for _, s := range b.Stmts {
			ir.Inspect(s, func(n ir.Node) bool {
				if blk, ok := n.(*ir.Block); ok && blk != nil {
					addCounters(blk)
					return false
				}
				return true
			})
			if lp, ok := s.(*ir.Loop); ok && hasSubgroupCall(lp) {
				name := names.Fresh("sg_iter")
				counters[lp] = name
				id := &ir.Ident{Pos: lp.Pos, Name: name, T: ir.U32, Ref: ir.RefVar}
				out = append(out, &ir.Decl{Pos: lp.Pos, Name: name, T: ir.U32, Init: &ir.Lit{Pos: lp.Pos, Val: ir.U32Val(0)}, Mutable: true})
				inc := &ir.Assign{Pos: lp.Pos, LHS: id, Op: ir.OpAdd, RHS: &ir.Lit{Pos: lp.Pos, Val: ir.U32Val(1)}}
				lp.Body.Stmts = append([]ir.Stmt{inc}, lp.Body.Stmts...)
			}
			out = append(out, s)
		}
		b.Stmts = out
	}
	addCounters(g.Body)
	// The trace: a hash of the keys and operands logged so far, part of
	// the state fork.go prunes by (subgroup_run.go: sgSeen).
	trace := names.Fresh("sg_trace")
	g.Body.Stmts = append([]ir.Stmt{&ir.Decl{Pos: f.Pos, Name: trace, T: ir.Vec(2, ir.U32), Mutable: true}}, g.Body.Stmts...)

	info := &sgInfo{sites: map[*ir.BuiltinCall]*sgSite{}, trace: trace}
	var walk func(n ir.Node, loops []string)
	walk = func(n ir.Node, loops []string) {
		switch x := n.(type) {
		case *ir.Loop:
			if name, ok := counters[x]; ok {
				loops = append(loops[:len(loops):len(loops)], name)
			}
		case *ir.BuiltinCall:
			if x.Fn.Info().Class == ir.ClassSubgroup {
				s := &sgSite{call: x, loops: loops, opaque: lift.opaque[x]}
				info.sites[x] = s
				info.order = append(info.order, s)
			}
		}
		ir.DoChildren(n, func(c ir.Node) bool { walk(c, loops); return false })
	}
	walk(g.Body, nil)

	out := *m
	out.Funcs = make([]*ir.Func, len(m.Funcs))
	for i, h := range m.Funcs {
		if h == f {
			h = &g
		}
		out.Funcs[i] = h
	}
	markUniformSites(&out, &g, info)
	return &out, info
}

// hasSubgroupCall reports whether n holds a subgroup builtin call.
func hasSubgroupCall(n ir.Node) bool {
	return ir.Any(n, func(x ir.Node) bool {
		b, ok := x.(*ir.BuiltinCall)
		return ok && b.Fn.Info().Class == ir.ClassSubgroup
	})
}

// markUniformSites sets sgSite.uniform for each site of info, calls of
// f's body in m, by WGSL's uniformity analysis (ir.Uniformity, workgroup
// scope): a module where every subgroup call requires uniform control
// flow and nothing fails has them all uniform; otherwise each site is
// asked alone — a copy of the body where every other subgroup call is a
// derivative call (a builtin whose result is non-uniform and which, at
// the derivative rule's lowered severity, requires nothing) — and is
// uniform when that copy passes. When the module fails even with no
// subgroup call requiring anything (a barrier in non-uniform control
// flow), no site is uniform.
func markUniformSites(m *ir.Module, f *ir.Func, info *sgInfo) {
	if len(info.order) == 0 {
		return
	}
	// The entry point's call graph alone: another entry point's failures
	// say nothing of these sites.
	only := *m
	only.Funcs = nil
	inGraph := map[*ir.Func]bool{}
	for _, h := range m.CallGraph(f.Name) {
		inGraph[h] = true
	}
	for _, h := range m.Funcs {
		if inGraph[h] {
			only.Funcs = append(only.Funcs, h)
		}
	}
	m = &only
	if len(ir.Uniformity(m, ir.UniformityOptions{SubgroupError: true}).Errors) == 0 {
		for _, s := range info.order {
			s.uniform = true
		}
		return
	}
	if len(ir.Uniformity(m, ir.UniformityOptions{}).Errors) != 0 {
		return
	}
	for i, s := range info.order {
		g := *f
		g.Body = ir.CloneBlock(f.Body)
		k := 0
		ir.Inspect(g.Body, func(n ir.Node) bool {
			if b, ok := n.(*ir.BuiltinCall); ok && b.Fn.Info().Class == ir.ClassSubgroup {
				if k != i {
					b.Fn = ir.BDpdx
				}
				k++
			}
			return true
		})
		probe := *m
		probe.Funcs = make([]*ir.Func, len(m.Funcs))
		for j, h := range m.Funcs {
			if h == f {
				h = &g
			}
			probe.Funcs[j] = h
		}
		s.uniform = len(ir.Uniformity(&probe, ir.UniformityOptions{SubgroupError: true}).Errors) == 0
	}
}
