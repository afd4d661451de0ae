package oracle

import (
	"fmt"
	"math"

	"github.com/gpudiff/gpudiff/ir"
)

// Expected is the reference for one output of one invocation: its value
// and, per leaf scalar in ir.Type.ComponentTypes order, whether WGSL
// leaves it indeterminate and the absolute error WGSL grants an f32 leaf.
// Nil slices mean every leaf is determinate and exact.
type Expected struct {
	Value         ir.Value
	Indeterminate []bool
	Tolerance     []float64
	Why           string
}

// Outcome is the comparison result of one invocation of one run.
type Outcome uint8

const (
	// Agree: every determinate leaf matches.
	Agree Outcome = iota
	// Differ: some determinate leaf does not match.
	Differ
	// Indeterminate: no determinate leaf differs, but some leaf that
	// differs (or could) is indeterminate in the reference.
	Indeterminate
)

func (o Outcome) String() string {
	switch o {
	case Agree:
		return "agree"
	case Differ:
		return "differ"
	}
	return "indeterminate"
}

// LeafDiff describes one disagreeing leaf.
type LeafDiff struct {
	Output int    // index in the invocation's outputs
	Leaf   int    // leaf index in ComponentTypes order
	Path   string // e.g. "ret.pos[1]"
	Want   string // the reference leaf, or "indeterminate"
	Got    string
}

// CompareInvocation compares one invocation's observed outputs against its
// reference. names are the output names ("ret", globals) used in paths.
// got carries its own indeterminacy and tolerance when it comes from the
// interpreter (the twin's run); GPU outputs have nil slices there. A leaf
// determinate in the reference but indeterminate in got differs (a
// transform introduced an indeterminate value); tolerances add. It
// returns the outcome and the differing leaves.
func CompareInvocation(ref []Expected, got []Expected, names []string) (Outcome, []LeafDiff) {
	out := Agree
	var diffs []LeafDiff
	for o := range ref {
		if o >= len(got) {
			return Differ, append(diffs, LeafDiff{Output: o, Path: names[o], Want: ref[o].Value.String(), Got: "<missing>"})
		}
		rl := leaves(ref[o].Value, names[o])
		gl := leaves(got[o].Value, names[o])
		for i := range rl {
			indet := ref[o].Indeterminate != nil && ref[o].Indeterminate[i]
			if indet {
				if out == Agree {
					out = Indeterminate
				}
				continue
			}
			tol := 0.0
			if ref[o].Tolerance != nil {
				tol = ref[o].Tolerance[i]
			}
			if got[o].Tolerance != nil && i < len(got[o].Tolerance) {
				tol += got[o].Tolerance[i]
			}
			if got[o].Indeterminate != nil && i < len(got[o].Indeterminate) && got[o].Indeterminate[i] {
				out = Differ
				diffs = append(diffs, LeafDiff{Output: o, Leaf: i, Path: rl[i].path, Want: rl[i].v.String(), Got: "indeterminate (" + got[o].Why + ")"})
				continue
			}
			if i >= len(gl) || !LeafEqual(rl[i].v, gl[i].v, tol) {
				g := "<missing>"
				if i < len(gl) {
					g = gl[i].v.String()
				}
				out = Differ
				diffs = append(diffs, LeafDiff{Output: o, Leaf: i, Path: rl[i].path, Want: rl[i].v.String(), Got: g})
			}
		}
	}
	return out, diffs
}

// LeafEqual compares two scalars: integers and booleans bit-exactly; f32
// values equal when bit-identical, both zero-or-subnormal, or (finite and)
// within tol of each other. A NaN or infinity observed where the reference
// is a determinate finite value never matches.
func LeafEqual(want, got ir.Value, tol float64) bool {
	if !ir.Identical(want.Type, got.Type) {
		return false
	}
	if want.Type.Kind != ir.KindF32 {
		return want.Bits == got.Bits
	}
	if want.Bits == got.Bits {
		return true
	}
	w, g := float64(want.F32()), float64(got.F32())
	if math.IsNaN(g) || math.IsInf(g, 0) || math.IsNaN(w) || math.IsInf(w, 0) {
		return false
	}
	if flushable(w) && flushable(g) {
		return true
	}
	// A subnormal on either side may have been flushed: compare as zero.
	if flushable(w) {
		w = 0
	}
	if flushable(g) {
		g = 0
	}
	return math.Abs(w-g) <= tol
}

// flushable reports whether f is zero or subnormal in f32.
func flushable(f float64) bool { return math.Abs(f) < 0x1p-126 }

type leaf struct {
	path string
	v    ir.Value
}

func leaves(v ir.Value, path string) []leaf {
	var out []leaf
	var rec func(v ir.Value, path string)
	rec = func(v ir.Value, path string) {
		switch v.Type.Kind {
		case ir.KindVec, ir.KindArray, ir.KindRuntimeArray:
			for i, e := range v.Elems {
				rec(e, fmt.Sprintf("%s[%d]", path, i))
			}
		case ir.KindStruct:
			for i, e := range v.Elems {
				rec(e, path+"."+v.Type.Struct.Fields[i].Name)
			}
		default:
			out = append(out, leaf{path, v})
		}
	}
	rec(v, path)
	return out
}
