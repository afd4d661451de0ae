package flatten

// Derivatives and implicit-LOD sampling in a fragment twin (doc.go
// "Render stages"; WGSL #derivatives, #uniformity).
//
// dpdx & co and the implicit-derivative samplers (textureSample,
// textureSampleBias, textureSampleCompare) read their operand in the
// other invocations of a 2×2 quad, so their value depends on which of
// them evaluate it. The twin is branchless: a statement the source runs
// under a predicate P runs unconditionally, its value selected by P. A
// derivative under P is therefore evaluated in every invocation of the
// quad — exact wherever P is the same in all four: where it holds in
// all, they are the invocations the source's derivative ran in, with the
// source's operands; where it fails in all, the value is never selected.
// So flatten keeps such an operation, unconditionally, where P is
// uniform by WGSL's own analysis (ir.Uniformity over the lowered twin:
// reads of uniform and read-only storage buffers, literals and what is
// computed from them are uniform; fragment inputs, private globals,
// derivatives, and the mask of a masked kept loop are not), and refuses
// it, positioned, where P is not. Valid WGSL already keeps derivatives
// in uniform control flow (the front end's analysis, at error severity),
// so the refusal is left for what predication makes of it: a kept loop
// whose mask the analysis cannot prove uniform, or a condition whose
// uniformity only the diagnostic `derivative_uniformity` being off
// allowed.
//
// The check: quadUniform emits a probe `if (P) { workgroupBarrier(); }`
// where the operation is, which checkBarriers' one run of the analysis
// tests as it tests an entry point's barrier guards (a barrier requires
// uniform control flow whatever the diagnostics say); stripProbes then
// removes the probes before the cleanup passes. (The analysis works at
// workgroup scope, the stricter one: a value uniform across the draw is
// uniform across a quad.)

import "github.com/gpudiff/gpudiff/ir"

// quadUniform records the uniformity-dependent operation op at pos of a
// fragment twin, which the twin evaluates unconditionally: nothing to
// check where the effective predicate is statically true (or false: the
// value is never selected), else a probe on it (checkBarriers,
// stripProbes).
func (l *lowerer) quadUniform(pos ir.Pos, op string) {
	p := l.pred()
	if p == nil || isFalse(p) {
		return
	}
	probe := &ir.If{Pos: pos, Cond: ir.CloneExpr(p),
		Then: ir.NewBlock(pos, &ir.ExprStmt{Pos: pos, X: &ir.BuiltinCall{Pos: pos, Fn: ir.BWorkgroupBarrier, T: ir.Void}}),
		Else: ir.NewBlock(pos)}
	l.emit(probe)
	if l.probes == nil {
		l.probes = map[ir.Stmt]bool{}
	}
	l.probes[probe] = true
	l.pending = append(l.pending, pendingBarrier{pos: pos, quad: op})
}

// stripProbes removes quadUniform's probes from b and the kept loops in
// it.
func stripProbes(b *ir.Block, probes map[ir.Stmt]bool) {
	if len(probes) == 0 {
		return
	}
	out := b.Stmts[:0]
	for _, s := range b.Stmts {
		if probes[s] {
			continue
		}
		if lp, ok := s.(*ir.Loop); ok {
			stripProbes(lp.Body, probes)
		}
		out = append(out, s)
	}
	clear(b.Stmts[len(out):])
	b.Stmts = out
}
