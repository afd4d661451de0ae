package interp

import (
	"fmt"
	"math"

	"github.com/gpudiff/gpudiff/ir"
)

// Fragment quads and derivatives (WGSL #derivative-builtin-functions;
// issue 24). A fragment runs in a 2×2 quad of neighbouring pixels
// (helper invocations stand in for pixels outside the target); dpdx(e)
// is the difference of e between the quad's two columns, dpdy between
// its two rows:
//
//	dpdxFine  e(right) − e(left) in the invocation's own row
//	dpdyFine  e(bottom) − e(top) in its own column
//	dpdxCoarse / dpdyCoarse: WGSL lets the implementation take either row
//	  (column) of the quad: the allowed set of both differences
//	dpdx / dpdy: fine or coarse, the implementation's choice: the union
//	fwidth(e) = |dpdx(e)| + |dpdy(e)| (fine and coarse likewise)
//
// The set of values is carried as midpoint ± tolerance (plus one ULP for
// the f32 difference and the operands' own bounds), so that arithmetic on
// a derivative keeps a bound. WGSL makes derivatives valid only in
// uniform control flow (the front end checks it), so the four
// invocations of a quad reach the same derivative calls in the same
// order. The reference runs a quad's invocations one after another and
// needs each call's operand in the other three: it runs the quad again
// until the operands it logged at every derivative call are those of the
// previous run (a fixed point: the k-th call's operand depends only on
// the results of the calls before it, so each run fixes at least one more
// call), at most maxQuadPasses times; before the fixed point, and past
// it, a derivative is any value. RunQuads runs a program that way.

const maxQuadPasses = 8

// quadCtx is a frame's quad: its lane (x&1 + 2*(y&1)), the operands
// logged at each derivative call of this pass for every lane, and those
// of the previous pass.
type quadCtx struct {
	lane       int
	logs, prev *[4][][]slot
	k          int
}

// RunQuads runs the program (a fragment entry point's body compiled by
// Compile) on a width × height target in 2×2 quads: args(x, y) are the
// arguments of the fragment at pixel (x, y), also asked for the helper
// invocations past the target's edge. The result is one Invocation per
// pixel, row by row. Derivatives are computed from the quad (quad.go);
// Options.MaxPaths is ignored (a fork point makes the rest of an
// invocation any value).
func (p *Program) RunQuads(args func(x, y int) []ir.Value, width, height int, opts Options) ([]Invocation, error) {
	if width <= 0 || height <= 0 {
		return nil, fmt.Errorf("interp: target %dx%d", width, height)
	}
	limit := opts.MaxSteps
	if limit <= 0 {
		limit = DefaultMaxSteps
	}
	fr := p.getFrame()
	defer func() {
		fr.quad, fr.tex = nil, nil
		p.frames.Put(fr)
	}()
	tex, err := p.textures(opts)
	if err != nil {
		return nil, err
	}
	fr.tex = tex
	out := make([]Invocation, width*height)
	for qy := 0; qy < height; qy += 2 {
		for qx := 0; qx < width; qx += 2 {
			var logs, prev [4][][]slot
			var res [4]Invocation
			converged := false
			for pass := 0; pass < maxQuadPasses; pass++ {
				logs = [4][][]slot{}
				for lane := 0; lane < 4; lane++ {
					x, y := qx+lane&1, qy+lane>>1
					a := args(x, y)
					if len(a) != len(p.params) {
						return nil, fmt.Errorf("interp: pixel (%d, %d): %d arguments for %d parameters", x, y, len(a), len(p.params))
					}
					fr.quad = &quadCtx{lane: lane, logs: &logs, prev: &prev}
					p.invoke(fr, a, limit)
					res[lane] = p.collect(fr)
				}
				if pass > 0 && sameLogs(&logs, &prev) {
					converged = true
					break
				}
				prev = logs
			}
			for lane := 0; lane < 4; lane++ {
				x, y := qx+lane&1, qy+lane>>1
				if x >= width || y >= height {
					continue // a helper invocation: its outputs are discarded
				}
				inv := res[lane]
				if !converged && inv.Err == nil {
					for i := range inv.Outputs {
						o := &inv.Outputs[i]
						n := len(o.Value.Type.ComponentTypes())
						o.Indeterminate = make([]bool, n)
						o.Tolerance = make([]float64, n)
						for j := range o.Indeterminate {
							o.Indeterminate[j] = true
						}
						o.Allowed = nil
						o.Why = fmt.Sprintf("the derivatives of the quad at (%d, %d) did not settle within %d runs", qx, qy, maxQuadPasses)
					}
				}
				out[y*width+x] = inv
			}
		}
	}
	return out, nil
}

// textures returns the texture state of a function-mode run of p: nil
// when its module has no textures.
func (p *Program) textures(opts Options) (*texState, error) {
	if p.mod == nil || len(p.mod.Textures) == 0 {
		return nil, nil
	}
	st, err := newTexState(p.mod, p.name, opts.Textures, opts.Samplers)
	if err != nil {
		return nil, &ir.Error{File: p.file, Pass: "interp", Msg: err.Error()}
	}
	return st, nil
}

func sameLogs(a, b *[4][][]slot) bool {
	for l := range a {
		if len(a[l]) != len(b[l]) {
			return false
		}
		for k := range a[l] {
			if len(a[l][k]) != len(b[l][k]) {
				return false
			}
			for i := range a[l][k] {
				x, y := a[l][k][i], b[l][k][i]
				if x.bits != y.bits || (x.why < 0) != (y.why < 0) || x.tol() != y.tol() {
					return false
				}
			}
		}
	}
	return true
}

// derivative compiles a derivative builtin: outside RunQuads it stops the
// invocation as before (unexecutable); in a quad it logs its operand and
// computes the result from the previous pass's operands of the quad.
func (c *compiler) derivative(e *ir.BuiltinCall, dst int32) cexpr {
	ops := c.operands(e.Args...)
	info := e.Fn.Info()
	pos, name := e.Pos, info.Name
	n := size(e.T)
	d := c.alloc(n)
	arg := ops[0]
	pending := c.addReason(pos, rBitcast, e, "its quad neighbours' values are not known yet (the reference runs the quad again)")
	anyWhy := c.addReason(pos, rBitcast, e, "an operand in the quad is indeterminate")
	inexact := c.addReason(pos, rInexact, e, "")
	fn := func(fr *frame) {
		q := fr.quad
		if q == nil {
			fr.fail(pos, "%s is not executable by the reference (a derivative builtin needs other invocations)", name) // outside RunQuads
			return
		}
		k := q.k
		q.k++
		v := append([]slot(nil), fr.s[arg.loc:arg.loc+arg.n]...)
		q.logs[q.lane] = append(q.logs[q.lane], v)
		var P [4][]slot
		for l := 0; l < 4; l++ {
			if k >= len(q.prev[l]) {
				for j := int32(0); j < n; j++ {
					fr.s[d+j] = slot{why: -pending}
				}
				return
			}
			P[l] = q.prev[l][k]
		}
		if q.lane < 4 {
			P[q.lane] = v // this lane's own operand is this pass's
		}
		row, col := q.lane>>1, q.lane&1
		for j := int32(0); j < n; j++ {
			var vals [4]float64
			errs := 0.0
			bad := false
			for l := 0; l < 4; l++ {
				s := P[l][j]
				if s.why < 0 {
					bad = true
				}
				vals[l] = float64(math.Float32frombits(s.bits))
				errs = math.Max(errs, s.tol())
			}
			if bad {
				fr.s[d+j] = slot{why: -anyWhy}
				continue
			}
			sub := func(a, b int) float64 { return float64(float32(vals[a] - vals[b])) }
			fineX, fineY := sub(2*row+1, 2*row), sub(col+2, col)
			coarseX := []float64{sub(1, 0), sub(3, 2)}
			coarseY := []float64{sub(2, 0), sub(3, 1)}
			var cands []float64
			switch e.Fn {
			case ir.BDpdxFine:
				cands = []float64{fineX}
			case ir.BDpdyFine:
				cands = []float64{fineY}
			case ir.BDpdx, ir.BDpdxCoarse:
				cands = coarseX // fine's own row is one of them
			case ir.BDpdy, ir.BDpdyCoarse:
				cands = coarseY
			case ir.BFwidthFine:
				cands = []float64{math.Abs(fineX) + math.Abs(fineY)}
			default: // fwidth, fwidthCoarse: any row with any column
				for _, x := range coarseX {
					for _, y := range coarseY {
						cands = append(cands, math.Abs(x)+math.Abs(y))
					}
				}
			}
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, x := range cands {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
			mid := float32((lo + hi) / 2)
			tol := math.Max(hi-float64(mid), float64(mid)-lo) + 4*errs
			if lo != 0 || hi != 0 || errs > 0 {
				// WGSL does not specify a derivative's accuracy: one ULP
				// for the f32 difference.
				tol += ulp(math.Max(math.Abs(lo), math.Abs(hi)))
			}
			s := slot{bits: math.Float32bits(mid)}
			if tol > 0 {
				s.why, s.err = inexact, tol
			}
			fr.s[d+j] = s
		}
	}
	return cexpr{code: seq(ops, fn), loc: d, n: n, stops: true}
}
