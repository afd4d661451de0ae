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
// of the previous pass; absent marks the lanes that run no invocation (a
// derivative that needs one is any value).
type quadCtx struct {
	lane       int
	logs, prev *[4][][]slot
	k          int
	absent     [4]bool
	helper     [4]bool // QuadLane.Helper (subgroup_quad.go)
}

// QuadLane is one lane of a quad that RunQuadList runs (lane l is pixel
// (x + l&1, y + l>>1) of the quad at (x, y)).
type QuadLane struct {
	// Args are the fragment's arguments, one per parameter of the
	// program, as Run takes them; nil for an unpopulated lane, which runs
	// no invocation (a derivative in the quad that needs its operand is
	// any value).
	Args []ir.Value
	// Tol is nil, or one entry per parameter: nil, or one absolute bound
	// per leaf of that argument (ir.Type.ComponentTypes order) — an
	// interpolated varying's allowed interval around Args (f32 leaves;
	// +Inf: any value). The reference carries it through the program as
	// it carries its own error bounds.
	Tol [][]float64
	// Helper marks a helper invocation (WGSL #helper-invocation): it runs
	// and its values feed the quad's derivatives; its outputs are to be
	// dropped by the caller (RunQuadList reports them all the same).
	Helper bool
}

// Quad is a 2×2 quad's four lanes.
type Quad [4]QuadLane

// LaneResult is the outcome of one lane of a quad. The embedded
// Invocation is the lane's outcome (its Outputs are nil and Err is nil
// when the lane did not run); its Discarded and MayDiscard say whether
// discard demoted the lane (WGSL #discard-statement: it ran on as a
// helper, its Outputs are what it computed and are to be dropped).
type LaneResult struct {
	Invocation
	// Ran reports that the lane was populated (QuadLane.Args not nil);
	// Helper is QuadLane.Helper.
	Ran, Helper bool
}

// RunQuadList runs the program (a fragment entry point's body compiled by
// Compile) over a list of quads — one primitive's quads from
// interp/raster, helpers included — with the derivative machinery of
// RunQuads, and returns each quad's four lanes. Options.MaxPaths is
// ignored (a fork point makes the rest of an invocation any value). It
// fails when a populated lane's arguments do not match the program's
// parameters.
func (p *Program) RunQuadList(quads []Quad, opts Options) ([][4]LaneResult, error) {
	for i := range quads {
		for l := range quads[i] {
			ln := &quads[i][l]
			if ln.Args == nil {
				continue
			}
			if len(ln.Args) != len(p.params) {
				return nil, fmt.Errorf("interp: quad %d lane %d: %d arguments for %d parameters", i, l, len(ln.Args), len(p.params))
			}
			if ln.Tol != nil && len(ln.Tol) != len(p.params) {
				return nil, fmt.Errorf("interp: quad %d lane %d: %d argument tolerances for %d parameters", i, l, len(ln.Tol), len(p.params))
			}
			for j, t := range ln.Tol {
				if t != nil && len(t) != int(p.params[j].n) {
					return nil, fmt.Errorf("interp: quad %d lane %d: argument %d has %d leaf tolerances for %d leaves", i, l, j, len(t), p.params[j].n)
				}
			}
		}
	}
	fr, release, err := p.quadFrame(opts)
	if err != nil {
		return nil, err
	}
	defer release()
	out := make([][4]LaneResult, len(quads))
	for i := range quads {
		res := p.runQuad(fr, &quads[i], opts, fmt.Sprintf("quad %d", i))
		for l := range res {
			out[i][l] = LaneResult{Invocation: res[l], Ran: quads[i][l].Args != nil, Helper: quads[i][l].Helper}
		}
	}
	return out, nil
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
	fr, release, err := p.quadFrame(opts)
	if err != nil {
		return nil, err
	}
	defer release()
	out := make([]Invocation, width*height)
	for qy := 0; qy < height; qy += 2 {
		for qx := 0; qx < width; qx += 2 {
			var q Quad
			for lane := 0; lane < 4; lane++ {
				x, y := qx+lane&1, qy+lane>>1
				a := args(x, y)
				if len(a) != len(p.params) {
					return nil, fmt.Errorf("interp: pixel (%d, %d): %d arguments for %d parameters", x, y, len(a), len(p.params))
				}
				q[lane] = QuadLane{Args: a, Helper: x >= width || y >= height}
			}
			res := p.runQuad(fr, &q, opts, fmt.Sprintf("the quad at (%d, %d)", qx, qy))
			for lane := 0; lane < 4; lane++ {
				x, y := qx+lane&1, qy+lane>>1
				if x >= width || y >= height {
					continue // a helper invocation: its outputs are discarded
				}
				out[y*width+x] = res[lane]
			}
		}
	}
	return out, nil
}

// quadFrame takes a frame for a quad run with its textures; release
// returns it.
func (p *Program) quadFrame(opts Options) (*frame, func(), error) {
	fr := p.getFrame()
	release := func() {
		fr.quad, fr.tex = nil, nil
		p.frames.Put(fr)
	}
	tex, err := p.textures(opts)
	if err != nil {
		release()
		return nil, nil, err
	}
	fr.tex = tex
	return fr, release, nil
}

// runQuad runs one quad's populated lanes until their derivative operands
// settle (quad.go's fixed point); past maxQuadPasses every output of a
// lane that ran without an error is any value. where names the quad in
// that reason.
func (p *Program) runQuad(fr *frame, q *Quad, opts Options, where string) [4]Invocation {
	limit := opts.MaxSteps
	if limit <= 0 {
		limit = DefaultMaxSteps
	}
	var absent, helper [4]bool
	for l := range q {
		absent[l] = q[l].Args == nil
		helper[l] = q[l].Helper
	}
	var logs, prev [4][][]slot
	var res [4]Invocation
	converged := false
	for pass := 0; pass < maxQuadPasses; pass++ {
		logs = [4][][]slot{}
		for lane := 0; lane < 4; lane++ {
			if absent[lane] {
				continue
			}
			fr.quad = &quadCtx{lane: lane, logs: &logs, prev: &prev, absent: absent, helper: helper}
			p.invokeLane(fr, &q[lane], limit)
			res[lane] = p.collect(fr)
			if q[lane].Tol != nil {
				p.argBoundWhy(&res[lane], &q[lane])
			}
		}
		if pass > 0 && sameLogs(&logs, &prev) {
			converged = true
			break
		}
		prev = logs
	}
	if !converged {
		for lane := range res {
			inv := &res[lane]
			if absent[lane] || inv.Err != nil {
				continue
			}
			for i := range inv.Outputs {
				o := &inv.Outputs[i]
				n := len(o.Value.Type.ComponentTypes())
				o.Indeterminate = make([]bool, n)
				o.Tolerance = make([]float64, n)
				for j := range o.Indeterminate {
					o.Indeterminate[j] = true
				}
				o.Allowed = nil
				o.Why = fmt.Sprintf("the derivatives of %s did not settle within %d runs", where, maxQuadPasses)
			}
		}
	}
	return res
}

// invokeLane runs one lane: invoke (interp.go), with the lane's argument
// tolerances written into its parameters' slots before the body runs —
// a finite bound as an inexact leaf (the reason: the parameter's), +Inf
// as any value. It keeps in step with invoke's per-invocation reset.
func (p *Program) invokeLane(fr *frame, ln *QuadLane, limit int64) {
	if ln.Tol == nil {
		p.invoke(fr, ln.Args, limit)
		return
	}
	copy(fr.s[p.globLo:p.globHi], p.image[p.globLo:p.globHi])
	k := p.kernel
	clear(fr.s[k.ret : k.ret+k.retN])
	fr.start(limit)
	fr.stop, fr.err, fr.poison, fr.cause = false, nil, 0, 0
	for j, v := range ln.Args {
		base := p.params[j].base
		p.store(fr.s, base, v, p.argWhy[j])
		for i, t := range ln.Tol[j] {
			s := &fr.s[base+int32(i)]
			switch {
			case t == 0 || s.why < 0:
			case math.IsInf(t, 1) || math.IsNaN(t):
				s.taint(-p.argWhy[j])
			default:
				s.why, s.err = p.argWhy[j], t
			}
		}
	}
	k.body.exec(fr)
}

// argBoundWhy rewrites an output's reason where it is a parameter's
// reason that the lane's tolerances gave (the parameter's reason in
// compile.go speaks of a non-finite argument): it names the interpolated
// argument instead.
func (p *Program) argBoundWhy(inv *Invocation, ln *QuadLane) {
	for j, t := range ln.Tol {
		if t == nil {
			continue
		}
		old := p.reasonText(p.argWhy[j])
		name := p.reasons[p.argWhy[j]-1].what
		for i := range inv.Outputs {
			o := &inv.Outputs[i]
			if o.Why == old {
				o.Why = fmt.Sprintf("argument %s is an interpolated value, known within a bound (interp/raster: no spec fixes interpolation's accuracy)", name)
			}
		}
	}
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
		row, col := q.lane>>1, q.lane&1
		// The lanes the result reads: a fine derivative reads its own row
		// (column), the rest all four.
		var need [4]bool
		switch e.Fn {
		case ir.BDpdxFine:
			need[2*row], need[2*row+1] = true, true
		case ir.BDpdyFine:
			need[col], need[col+2] = true, true
		case ir.BFwidthFine:
			need[2*row], need[2*row+1], need[col], need[col+2] = true, true, true, true
		default:
			need = [4]bool{true, true, true, true}
		}
		var P [4][]slot
		for l := 0; l < 4; l++ {
			if !need[l] {
				continue
			}
			if q.absent[l] {
				for j := int32(0); j < n; j++ {
					fr.s[d+j] = slot{why: -anyWhy}
				}
				return
			}
			if k >= len(q.prev[l]) {
				for j := int32(0); j < n; j++ {
					fr.s[d+j] = slot{why: -pending}
				}
				return
			}
			P[l] = q.prev[l][k]
		}
		P[q.lane] = v // this lane's own operand is this pass's
		for j := int32(0); j < n; j++ {
			var vals [4]float64
			errs := 0.0
			bad := false
			for l := 0; l < 4; l++ {
				if !need[l] {
					continue
				}
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
