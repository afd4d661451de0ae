package shrink

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// Draws (Case): a candidate keeps the pair's IO. The vertex entry points'
// inputs are what the draw's vertex buffers and builtins feed, their
// outputs what the fragment's inputs read (WebGPU
// #abstract-opdef-validating-inter-stage-interfaces) and the fragment's
// outputs the colour attachments; none of them is the shrinker's to
// change. The one IO edit left is dropping a fragment input the body does
// not read (Stream's edit 7): a vertex output no fragment input reads is
// allowed, so the pair still fits. wgsl.CheckInterface is not called
// (compiler/wgsl ranks beside shrink); keeping the IO as written is
// stronger.

// drawSig is a draw's IO as drawIO reads it.
type drawSig struct {
	vertex  []string // each vertex root's IO (ioKey), "" when it is gone or no vertex entry point
	fragOut string   // the fragment's outputs
	fragIn  []string // the fragment's inputs, one per parameter
}

// drawIO returns the IO of the draw whose roots are roots (Case.roots:
// the fragment entry point, then the vertex entry points), or nil when
// roots is no draw (a single root).
func drawIO(m *ir.Module, roots []string) *drawSig {
	if len(roots) < 2 {
		return nil
	}
	sig := &drawSig{}
	for _, v := range roots[1:] {
		f := m.Func(v)
		if f == nil || f.Stage != ir.StageVertex {
			sig.vertex = append(sig.vertex, "")
			continue
		}
		sig.vertex = append(sig.vertex, paramsKey(f.Params)+" -> "+resultKey(f))
	}
	if f := m.Func(roots[0]); f != nil && f.Stage == ir.StageFragment {
		sig.fragOut = resultKey(f)
		for _, p := range f.Params {
			sig.fragIn = append(sig.fragIn, paramKey(p))
		}
	}
	return sig
}

// sameDrawIO reports whether a candidate's draw IO cand keeps base's:
// the same vertex entry points with the same IO, the same fragment
// outputs, and fragment inputs that are base's less some.
func sameDrawIO(cand, base *drawSig) bool {
	if cand == nil || base == nil {
		return cand == nil && base == nil
	}
	if !slices.Equal(cand.vertex, base.vertex) || slices.Contains(cand.vertex, "") || cand.fragOut != base.fragOut || cand.fragOut == "" {
		return false
	}
	j := 0
	for _, in := range cand.fragIn {
		for j < len(base.fragIn) && base.fragIn[j] != in {
			j++
		}
		if j == len(base.fragIn) {
			return false
		}
		j++
	}
	return true
}

// paramsKey is the IO of a parameter list: each parameter's paramKey.
func paramsKey(ps []*ir.Param) string {
	var keys []string
	for _, p := range ps {
		keys = append(keys, paramKey(p))
	}
	return "(" + strings.Join(keys, ", ") + ")"
}

// paramKey is a parameter's IO: its attributes and its type, a struct's
// members with theirs.
func paramKey(p *ir.Param) string {
	return attrKey(p.Builtin, p.HasLocation, p.Location, p.Interp) + typeKey(p.T)
}

// resultKey is a function's result IO: its attributes and type.
func resultKey(f *ir.Func) string {
	if f.Result.IsVoid() {
		return "void"
	}
	if f.Result.Kind == ir.KindStruct {
		return typeKey(f.Result) // its members carry the attributes
	}
	return attrKey(f.ResultBuiltin, f.ResultBuiltin == "", f.ResultLocation, f.ResultInterp) + typeKey(f.Result)
}

func attrKey(builtin string, hasLoc bool, loc int, interp ir.Interpolation) string {
	var b strings.Builder
	if builtin != "" {
		fmt.Fprintf(&b, "@builtin(%s) ", builtin)
	}
	if hasLoc {
		fmt.Fprintf(&b, "@location(%d) ", loc)
	}
	if a := interp.Attr(); a != "" {
		b.WriteString(a + " ")
	}
	return b.String()
}

// typeKey is t, a struct with its members' names, attributes and types.
func typeKey(t *ir.Type) string {
	if t == nil || t.Kind != ir.KindStruct {
		return fmt.Sprint(t)
	}
	var fields []string
	for _, fl := range t.Struct.Fields {
		fields = append(fields, fl.Name+": "+attrKey(fl.Builtin, fl.HasLocation, fl.Location, fl.Interp)+typeKey(fl.Type))
	}
	return t.Struct.Name + "{" + strings.Join(fields, "; ") + "}"
}
