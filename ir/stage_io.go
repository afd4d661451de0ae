package ir

import "fmt"

// Render-pipeline entry points (issue 39): the vertex stage, the
// user-defined IO between stages (@location, @interpolate) and discard.
//
// A @vertex entry point (StageVertex) takes VertexBuiltins values and
// @location vertex attributes (Param.HasLocation, or struct members with
// Field.HasLocation), and returns its clip-space position
// (@builtin(position) vec4<f32>) and its varyings (@location members,
// each with an Interpolation), as a bare value (Func.ResultBuiltin,
// Func.ResultLocation, Func.ResultInterp) or a struct. A @fragment entry
// point takes FragmentBuiltins values and @location varyings. A
// Discard statement may run only in the fragment stage.

// VertexBuiltins are the builtin values a vertex entry point may take as
// parameters or struct members (WGSL #builtin-values), with their types:
// the index of the vertex within the draw (firstVertex, or baseVertex plus
// the index buffer's entry, counted from 0 upward) and of the instance.
var VertexBuiltins = map[string]*Type{
	"vertex_index":   U32,
	"instance_index": U32,
}

// VertexOutputBuiltins are the builtin values a vertex entry point may
// return (a bare result or struct members), with their types: the
// clip-space position (WGSL #builtin-values position, an output of the
// vertex stage). clip_distances is outside the subset.
var VertexOutputBuiltins = map[string]*Type{
	"position": Vec(4, F32),
}

// InterpType is an @interpolate type (WGSL #interpolation).
type InterpType uint8

const (
	InterpDefault     InterpType = iota // none written: perspective for a float varying, flat for an integer one
	InterpPerspective                   // perspective: perspective-correct
	InterpLinear                        // linear: linear in screen space
	InterpFlat                          // flat: the provoking vertex's value
)

// InterpSampling is an @interpolate sampling (WGSL #interpolation).
// centroid and sample are outside the subset (the front end refuses them).
type InterpSampling uint8

const (
	SamplingDefault InterpSampling = iota // none written: center, or first for flat
	SamplingCenter                        // center: at the pixel centre
	SamplingFirst                         // first (flat only): the first vertex of the primitive
	SamplingEither                        // either (flat only): the first or the last vertex
)

// Interpolation is a user-defined IO's @interpolate(Type[, Sampling])
// (WGSL #interpolation); the zero value is "none written".
type Interpolation struct {
	Type     InterpType
	Sampling InterpSampling
}

var interpTypeNames = [...]string{InterpPerspective: "perspective", InterpLinear: "linear", InterpFlat: "flat"}
var samplingNames = [...]string{SamplingCenter: "center", SamplingFirst: "first", SamplingEither: "either"}

func (t InterpType) String() string {
	if int(t) < len(interpTypeNames) && interpTypeNames[t] != "" {
		return interpTypeNames[t]
	}
	return ""
}

func (s InterpSampling) String() string {
	if int(s) < len(samplingNames) && samplingNames[s] != "" {
		return samplingNames[s]
	}
	return ""
}

// LookupInterpType returns the interpolation type named name
// ("perspective", "linear", "flat").
func LookupInterpType(name string) (InterpType, bool) {
	for i, n := range interpTypeNames {
		if n != "" && n == name {
			return InterpType(i), true
		}
	}
	return 0, false
}

// LookupSampling returns the interpolation sampling named name ("center",
// "first", "either"; centroid and sample are not in the subset).
func LookupSampling(name string) (InterpSampling, bool) {
	for i, n := range samplingNames {
		if n != "" && n == name {
			return InterpSampling(i), true
		}
	}
	return 0, false
}

// IsZero reports whether no @interpolate is written.
func (i Interpolation) IsZero() bool { return i == Interpolation{} }

// Attr returns the attribute's WGSL spelling ("@interpolate(flat, either)"),
// "" for the zero value.
func (i Interpolation) Attr() string {
	switch {
	case i.Type == InterpDefault:
		return ""
	case i.Sampling == SamplingDefault:
		return fmt.Sprintf("@interpolate(%s)", i.Type)
	}
	return fmt.Sprintf("@interpolate(%s, %s)", i.Type, i.Sampling)
}

// Resolved returns the interpolation a varying of type t gets, the
// defaults filled in (WGSL #interpolation): a float one without an
// @interpolate is perspective; perspective and linear sample at the
// center unless written, flat at the first vertex. (An integer varying
// must be written flat; Resolved makes it flat regardless.)
func (i Interpolation) Resolved(t *Type) Interpolation {
	if t != nil && t.Scalar().IsInteger() && i.Type == InterpDefault {
		i.Type = InterpFlat
	}
	if i.Type == InterpDefault {
		i.Type = InterpPerspective
	}
	if i.Sampling == SamplingDefault {
		i.Sampling = SamplingCenter
		if i.Type == InterpFlat {
			i.Sampling = SamplingFirst
		}
	}
	return i
}

// Discard is the discard statement (WGSL #discard-statement): it demotes
// the invocation to a helper invocation — its later stores to memory and
// its outputs are dropped, it keeps running (so derivatives still see its
// values). Its behavior is {Next} and it does not change uniformity (WGSL
// #behaviors, #uniformity: since the demote-to-helper semantics, discard
// affects neither). It may run only in the fragment stage.
type Discard struct{ Pos Pos }

func (s *Discard) Position() Pos { return s.Pos }
func (*Discard) stmtNode()       {}

// IsRenderStage reports whether s is a render-pipeline stage (vertex or
// fragment).
func (s Stage) IsRenderStage() bool { return s == StageVertex || s == StageFragment }

// VertexFormatOf is the GPUVertexFormat that carries a vertex input of
// type t unconverted (WebGPU #vertex-formats): float32, uint32 or sint32
// for f32, u32 and i32, with "xN" for a vecN; "" for any other type. The
// draw loader's default format and the render generator's both are it.
func VertexFormatOf(t *Type) string {
	var base string
	switch t.Scalar().Kind {
	case KindF32:
		base = "float32"
	case KindU32:
		base = "uint32"
	case KindI32:
		base = "sint32"
	default:
		return ""
	}
	if t.Kind == KindVec {
		return fmt.Sprintf("%sx%d", base, t.Len)
	}
	return base
}

// IOType reports whether t may cross a stage boundary as user-defined IO
// (WGSL #stage-inputs-outputs): an i32, u32, f32 or f16 scalar or vector
// (f16 behind `enable f16;`).
func IOType(t *Type) bool {
	if t == nil {
		return false
	}
	if t.Kind == KindVec {
		t = t.Elem
	}
	return t.Kind == KindI32 || t.Kind == KindU32 || t.Kind == KindF32 || t.Kind == KindF16
}
