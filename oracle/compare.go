package oracle

import (
	"bytes"
	"math"

	"github.com/gpudiff/gpudiff/ir"
)

// Expected is the reference for one output of one invocation: its value
// and, per leaf scalar in ir.Type.ComponentTypes order, whether WGSL
// leaves it indeterminate and the absolute error WGSL grants an f32 leaf.
// Nil slices mean every leaf is determinate and exact.
//
// Allowed, when not nil, has one entry per leaf too: for an indeterminate
// leaf, the set of values WGSL allows there (an empty ir.ValueSet: any
// value); the comparator checks membership, so a value outside the set is
// a difference. Entries of determinate leaves are ignored.
//
// Buffer, when its Type is set, is the output's value instead of Value
// (which is then the zero ir.Value): a binding's contents as its buffer's
// bytes (ir.Buffer), how an entry point's bindings travel (issue 26). Its
// leaves are numbered as Value's would be.
//
// Reconvergence, when not nil, has one entry per leaf too: the leaf's
// value depends on which invocations executed a subgroup operation
// together where WGSL does not fix the active set (divergent control
// flow; WGSL #subgroup-builtin-functions: "may contain a different set of
// active invocations than the shader author expects"); Value is the
// answer under maximal reconvergence. A device that differs there is not
// a mismatch but a Reconvergence verdict; the interpreter's twin run is
// held to Value exactly (flatten's guards must give the maximal
// reconvergence answer).
type Expected struct {
	Value         ir.Value
	Buffer        ir.Buffer
	Indeterminate []bool
	Tolerance     []float64
	Why           string
	Allowed       []ir.ValueSet
	Reconvergence []bool
}

// Val returns the output's value as an ir.Value tree: Value, or Buffer
// decoded (a tree of 40 bytes per leaf: for small outputs and for
// consumers that walk values).
func (e Expected) Val() ir.Value {
	if e.Buffer.Type == nil {
		return e.Value
	}
	v, err := e.Buffer.Value()
	if err != nil {
		return ir.Value{Type: e.Buffer.Type}
	}
	return v
}

// Set returns the allowed set of leaf i (meaningful when it is
// indeterminate; empty: any value).
func (e Expected) Set(i int) ir.ValueSet {
	if i < len(e.Allowed) {
		return e.Allowed[i]
	}
	return ir.ValueSet{}
}

func (e Expected) indet(i int) bool {
	return e.Indeterminate != nil && i < len(e.Indeterminate) && e.Indeterminate[i]
}

func (e Expected) reconv(i int) bool {
	return e.Reconvergence != nil && i < len(e.Reconvergence) && e.Reconvergence[i]
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
	// Reconverged: no determinate leaf differs but for leaves whose
	// value depends on the active set of a subgroup operation in
	// divergent control flow (Expected.Reconvergence): the device chose
	// another active set than maximal reconvergence, which WGSL allows.
	Reconverged
)

func (o Outcome) String() string {
	switch o {
	case Agree:
		return "agree"
	case Differ:
		return "differ"
	case Reconverged:
		return "reconvergence"
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
// indeterminate in got is not compared (the interpreter's precision is
// not a program's behaviour); tolerances add. It
// returns the outcome and the differing leaves.
//
// Each output may be in either form (Expected.Value or Expected.Buffer,
// on either side): leaves are compared in ComponentTypes order (a matrix
// as its C×R scalars) through Expected.Cursor, and a leaf's path is
// built only when it differs.
func CompareInvocation(ref []Expected, got []Expected, names []string) (Outcome, []LeafDiff) {
	return compareInvocation(ref, got, names, false)
}

// CompareInvocationStrict is CompareInvocation with the reference's
// Reconvergence marks ignored: every such leaf is held to the maximal
// reconvergence value (how the twin's interpreter run is judged: flatten's
// guards must compute exactly that).
func CompareInvocationStrict(ref []Expected, got []Expected, names []string) (Outcome, []LeafDiff) {
	return compareInvocation(ref, got, names, true)
}

func compareInvocation(ref []Expected, got []Expected, names []string, strict bool) (Outcome, []LeafDiff) {
	out := Agree
	reconv := false // a differing leaf was excused by Reconvergence
	var diffs []LeafDiff
	for o := range ref {
		if o >= len(got) {
			return Differ, append(diffs, LeafDiff{Output: o, Path: names[o], Want: ref[o].Val().String(), Got: "<missing>"})
		}
		r, g := &ref[o], &got[o]
		if r.Buffer.Type != nil && g.Buffer.Type != nil && ir.Identical(r.Buffer.Type, g.Buffer.Type) &&
			bytes.Equal(r.Buffer.Bytes, g.Buffer.Bytes) && !anyTrue(r.Indeterminate) && !anyTrue(g.Indeterminate) {
			continue // the same bytes: every leaf bit-identical, all determinate
		}
		rc, gc := r.Cursor(), g.Cursor()
		for i := 0; ; i++ {
			rv, ok := rc.Next()
			if !ok {
				break
			}
			gv, gok := gc.Next()
			tol := 0.0
			if i < len(r.Tolerance) {
				tol = r.Tolerance[i]
			}
			gotTol := 0.0
			if i < len(g.Tolerance) {
				gotTol = g.Tolerance[i]
			}
			if r.indet(i) {
				set := r.Set(i)
				if set.IsAny() {
					if out == Agree {
						out = Indeterminate
					}
					continue
				}
				// An allowed set: the observed value must lie within it.
				// An indeterminate one (the interpreter's run of a
				// twin) is not checked: both sets over-approximate
				// (forks take both ways of every indeterminate branch,
				// also where the ways are correlated), so a twin's set
				// reaching past the original's proves nothing.
				if gok && g.indet(i) {
					if out == Agree {
						out = Indeterminate
					}
					continue
				}
				if !gok || !Contains(set, gv, gotTol) {
					gs := "<missing>"
					if gok {
						gs = gv.String()
					}
					out = Differ
					diffs = append(diffs, LeafDiff{Output: o, Leaf: i, Path: rc.Path(names[o]), Want: "one of " + set.Format(rv.Type), Got: gs})
				}
				continue
			}
			tol += gotTol
			if gok && g.indet(i) {
				// The interpreter cannot fix the twin's leaf where it can
				// fix the original's: its rules are not equally precise
				// on both (a branch runs both ways and joins; the select
				// a twin makes of it taints), so this proves no flatten
				// bug; the twin's GPU runs are compared exactly.
				if out == Agree {
					out = Indeterminate
				}
				continue
			}
			if !gok || !LeafEqual(rv, gv, tol) {
				gs := "<missing>"
				if gok {
					gs = gv.String()
				}
				if gok && !strict && r.reconv(i) {
					reconv = true
					continue
				}
				out = Differ
				diffs = append(diffs, LeafDiff{Output: o, Leaf: i, Path: rc.Path(names[o]), Want: rv.String(), Got: gs})
			}
		}
	}
	if out != Differ && reconv {
		out = Reconverged
	}
	return out, diffs
}

// anyTrue reports whether some element of bs is true.
func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

// LeafEqual compares two scalars: integers and booleans bit-exactly; f32
// values equal when bit-identical, both zero-or-subnormal, or (finite and)
// within tol of each other. A NaN or infinity observed where the reference
// is a determinate finite value never matches.
func LeafEqual(want, got ir.Value, tol float64) bool {
	if !ir.Identical(want.Type, got.Type) {
		return false
	}
	if !want.Type.IsFloat() {
		return want.Bits == got.Bits
	}
	if want.Bits == got.Bits {
		return true
	}
	k := want.Type.Kind
	w, g := want.Float(), got.Float()
	if math.IsNaN(g) || math.IsInf(g, 0) || math.IsNaN(w) || math.IsInf(w, 0) {
		return false
	}
	if flushable(k, w) && flushable(k, g) {
		return true
	}
	// A subnormal on either side may have been flushed: compare as zero.
	if flushable(k, w) {
		w = 0
	}
	if flushable(k, g) {
		g = 0
	}
	return math.Abs(w-g) <= tol
}

// Contains reports whether the scalar got (observed within gotTol: the
// interpreter's own bound, 0 for a GPU) is a value set allows: equal to a
// member under LeafEqual with the member's tolerance, or within the
// interval (an f32 interval widened by the tolerance, a subnormal also
// tried as zero).
func Contains(set ir.ValueSet, got ir.Value, gotTol float64) bool {
	for i, v := range set.Values {
		tol := gotTol
		if set.Tol != nil {
			tol += set.Tol[i]
		}
		if LeafEqual(ir.Value{Type: got.Type, Bits: v}, got, tol) {
			return true
		}
	}
	if !set.HasRange {
		return false
	}
	if !got.Type.IsFloat() {
		return set.InRange(got.Type.Kind, got.Bits)
	}
	g := got.Float()
	if math.IsNaN(g) || math.IsInf(g, 0) {
		return false
	}
	lo := ir.Value{Type: got.Type, Bits: set.Lo}.Float() - gotTol
	hi := ir.Value{Type: got.Type, Bits: set.Hi}.Float() + gotTol
	if flushable(got.Type.Kind, g) && lo <= 0 && 0 <= hi {
		return true
	}
	return lo <= g && g <= hi
}

// flushable reports whether f is zero or subnormal in the float type of
// kind k (f32: below 2^-126; f16: below 2^-14), a value WGSL lets an
// implementation flush to zero (#floating-point-evaluation).
func flushable(k ir.Kind, f float64) bool {
	if k == ir.KindF16 {
		return math.Abs(f) < 0x1p-14
	}
	return math.Abs(f) < 0x1p-126
}
