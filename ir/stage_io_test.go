package ir

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// renderModule builds by hand (no front end) the pair
//
//	struct VOut { @builtin(position) pos: vec4<f32>, @location(0) @interpolate(flat, either) id: u32, @location(1) uv: vec2<f32> }
//	@vertex fn vs(@builtin(vertex_index) vi: u32, @location(3) p: vec2<f32>) -> VOut { … }
//	@fragment fn fs(@builtin(front_facing) ff: bool, in: VOut) -> @location(0) vec4<f32> { if (!ff) { discard; } … }
func renderModule() *Module {
	vout := &StructDecl{Name: "VOut", Fields: []Field{
		{Name: "pos", Type: Vec(4, F32), Builtin: "position"},
		{Name: "id", Type: U32, HasLocation: true, Location: 0, Interp: Interpolation{InterpFlat, SamplingEither}},
		{Name: "uv", Type: Vec(2, F32), HasLocation: true, Location: 1},
	}}
	vt := StructType(vout)
	vs := &Func{Name: "vs", Stage: StageVertex, Result: vt,
		Params: []*Param{
			{Name: "vi", T: U32, Builtin: "vertex_index"},
			{Name: "p", T: Vec(2, F32), HasLocation: true, Location: 3},
		},
		Body: NewBlock(Pos{}, &Return{Value: &Construct{T: vt, Args: []Expr{
			&Construct{T: Vec(4, F32), Args: []Expr{&Ident{Name: "p", T: Vec(2, F32), Ref: RefParam}, &Lit{Val: F32Val(0)}, &Lit{Val: F32Val(1)}}},
			&Ident{Name: "vi", T: U32, Ref: RefParam},
			&Ident{Name: "p", T: Vec(2, F32), Ref: RefParam},
		}}})}
	ff := &Ident{Name: "ff", T: Bool, Ref: RefParam}
	fs := &Func{Name: "fs", Stage: StageFragment, Result: Vec(4, F32), ResultLocation: 0,
		Params: []*Param{{Name: "ff", T: Bool, Builtin: "front_facing"}, {Name: "in", T: vt}},
		Body: NewBlock(Pos{},
			&If{Cond: &Unary{Op: OpNot, X: ff, T: Bool}, Then: NewBlock(Pos{}, &Discard{}), Else: NewBlock(Pos{})},
			&Return{Value: &Member{X: &Ident{Name: "in", T: vt, Ref: RefParam}, Field: 0, T: Vec(4, F32)}})}
	return &Module{Structs: []*StructDecl{vout}, Funcs: []*Func{vs, fs}}
}

// TestRenderEntryPointsVerifyAndPrint: a vertex entry point with a
// builtin, an attribute and a struct result, and a fragment entry point
// taking front_facing and the same struct (its position member is the
// fragment's @builtin(position)) with a discard verify and print with
// their IO attributes as WGSL spells them (#entry-point-decl,
// #interpolation, #discard-statement).
func TestRenderEntryPointsVerifyAndPrint(t *testing.T) {
	m := renderModule()
	require.NoError(t, Verify(m))
	out := Print(m)
	for _, want := range []string{
		"  @builtin(position) pos: vec4<f32>,\n",
		"  @location(0) @interpolate(flat, either) id: u32,\n",
		"  @location(1) uv: vec2<f32>,\n",
		"@vertex\nfn vs(@builtin(vertex_index) vi: u32, @location(3) p: vec2<f32>) -> VOut {",
		"@fragment\nfn fs(@builtin(front_facing) ff: bool, in: VOut) -> @location(0) vec4<f32> {",
		"    discard;\n",
	} {
		assert.Contains(t, out, want)
	}
	c := CloneModule(m)
	assert.Equal(t, out, Print(c), "a clone prints the same")
	d := c.Func("fs").Body.Stmts[0].(*If).Then.Stmts[0]
	assert.IsType(t, &Discard{}, d)
	assert.NotSame(t, m.Func("fs").Body.Stmts[0].(*If).Then.Stmts[0], d, "clone copies the discard")
}

// TestBareVertexResultPrints: @builtin(position) on a bare result.
func TestBareVertexResultPrints(t *testing.T) {
	v4 := Vec(4, F32)
	vs := &Func{Name: "vs", Stage: StageVertex, Result: v4, ResultBuiltin: "position",
		Body: NewBlock(Pos{}, &Return{Value: &Construct{T: v4, Args: []Expr{&Lit{Val: F32Val(0)}, &Lit{Val: F32Val(0)}, &Lit{Val: F32Val(0)}, &Lit{Val: F32Val(1)}}}})}
	m := &Module{Funcs: []*Func{vs}}
	require.NoError(t, Verify(m))
	assert.Contains(t, Print(m), "@vertex\nfn vs() -> @builtin(position) vec4<f32> {")
}

// TestVerifyRejectsRenderIO: each case breaks one rule of render IO.
func TestVerifyRejectsRenderIO(t *testing.T) {
	for _, tc := range []struct {
		name   string
		break_ func(m *Module)
		want   string
	}{
		{"discard reached from the vertex stage", func(m *Module) {
			vs := m.Func("vs")
			vs.Body.Stmts = append([]Stmt{&Discard{Pos: Pos{Line: 7, Col: 3}}}, vs.Body.Stmts...)
		}, "discard in a function the vertex entry point vs reaches"},
		{"an integer varying not flat", func(m *Module) {
			m.Structs[0].Fields[1].Interp = Interpolation{}
		}, "integer parameter in member id needs @interpolate(flat)"},
		{"either on a perspective varying", func(m *Module) {
			m.Structs[0].Fields[2].Interp = Interpolation{InterpPerspective, SamplingEither}
		}, "sampling either is for flat"},
		{"two positions", func(m *Module) {
			m.Structs[0].Fields[2] = Field{Name: "uv", Type: Vec(4, F32), Builtin: "position"}
			m.Func("vs").Body.Stmts[0].(*Return).Value.(*Construct).Args[2] = &Construct{T: Vec(4, F32), Args: []Expr{&Lit{Val: F32Val(0)}, &Lit{Val: F32Val(0)}, &Lit{Val: F32Val(0)}, &Lit{Val: F32Val(0)}}}
		}, "result has 2 @builtin(position) members, want 1"},
		{"a vertex builtin in the fragment stage", func(m *Module) {
			m.Func("fs").Params[0].Builtin = "vertex_index"
		}, "parameter ff is not a fragment builtin value of its type"},
		{"a shared location", func(m *Module) {
			m.Func("vs").Params[0] = &Param{Name: "vi", T: U32, HasLocation: true, Location: 3}
		}, "parameter p needs a @location of its own"},
		{"no position", func(m *Module) {
			f := m.Func("vs")
			f.Result, f.Body = Void, NewBlock(Pos{})
		}, "returns no position"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := renderModule()
			tc.break_(m)
			err := Verify(m)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestInterpolationDefaults: WGSL #interpolation's defaults — a float
// varying with none written is perspective, center; flat alone is
// flat, first; linear alone is linear, center.
func TestInterpolationDefaults(t *testing.T) {
	assert.Equal(t, Interpolation{InterpPerspective, SamplingCenter}, Interpolation{}.Resolved(F32))
	assert.Equal(t, Interpolation{InterpFlat, SamplingFirst}, Interpolation{Type: InterpFlat}.Resolved(F32))
	assert.Equal(t, Interpolation{InterpFlat, SamplingEither}, Interpolation{InterpFlat, SamplingEither}.Resolved(U32))
	assert.Equal(t, Interpolation{InterpLinear, SamplingCenter}, Interpolation{Type: InterpLinear}.Resolved(Vec(3, F32)))
	assert.Equal(t, "", Interpolation{}.Attr())
	assert.Equal(t, "@interpolate(linear)", Interpolation{Type: InterpLinear}.Attr())
	assert.True(t, strings.HasPrefix(Interpolation{InterpFlat, SamplingEither}.Attr(), "@interpolate(flat, either"))
	ty, ok := LookupInterpType("flat")
	assert.True(t, ok)
	assert.Equal(t, InterpFlat, ty)
	_, ok = LookupSampling("centroid")
	assert.False(t, ok, "centroid is outside the subset")
}

// TestDiscardHasBehaviorNext: discard is {Next} (WGSL #behaviors), so code
// after it is live and a function may end after it.
func TestDiscardHasBehaviorNext(t *testing.T) {
	b, ok := BehaviorOf(&Discard{}, nil)
	assert.True(t, ok)
	assert.Equal(t, BehNext, b)
}
