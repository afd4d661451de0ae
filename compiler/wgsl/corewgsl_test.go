package wgsl

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// Issue 24 item 6: the core WGSL constructs Tint's corpus uses, front end
// and layout.

// TestMemberAlignSizeLayout checks the layout of WGSL's own example of
// @align and @size (WGSL #structure-member-layout, the second example:
// the offsets, alignments and sizes in its comments).
func TestMemberAlignSizeLayout(t *testing.T) {
	src := `struct A {
  u: f32,
  v: f32,
  w: vec2<f32>,
  @size(16) x: f32,
}
struct B {
  a: vec2<f32>,
  b: vec3<f32>,
  c: f32,
  d: f32,
  @align(16) e: A,
  f: vec3<f32>,
  g: array<A, 3>,
  h: i32,
}
@group(0) @binding(0) var<storage, read_write> buf: B;
@compute @workgroup_size(1) fn main() { buf.h = 1; }
`
	m, err := Parse("t.wgsl", []byte(src))
	require.NoError(t, err)
	var a, b *ir.Type
	for _, v := range m.Shared {
		b = v.T
	}
	require.NotNil(t, b)
	a = b.Struct.Fields[4].Type
	assert.Equal(t, []int{0, 4, 8, 16}, ir.FieldOffsets(a.Struct))
	assert.Equal(t, 8, ir.AlignOf(a))
	assert.Equal(t, 32, ir.SizeOf(a))
	assert.Equal(t, []int{0, 16, 28, 32, 48, 80, 96, 192}, ir.FieldOffsets(b.Struct))
	assert.Equal(t, 16, ir.AlignOf(b))
	assert.Equal(t, 208, ir.SizeOf(b))
	assert.Equal(t, 32, ir.ArrayStride(b.Struct.Fields[6].Type))
	// The WGSL emitter keeps the attributes.
	assert.Contains(t, printStruct(b.Struct), "@align(16) e: A,")
	assert.Contains(t, printStruct(a.Struct), "@size(16) x: f32,")
}

// TestMemberAlignSizeErrors: the shader-creation errors of @align and
// @size, positioned (WGSL #structure-member-layout,
// #address-space-layout-constraints).
func TestMemberAlignSizeErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"size smaller than the type", "struct S { @size(8) v: vec4<f32> }\n@group(0) @binding(0) var<storage, read_write> s: S;\n@compute @workgroup_size(1) fn main() { s.v.x = 1.0; }",
			"t.wgsl:1:18: check: @size(8) is smaller than the size of vec4<f32> (16 bytes)"},
		{"size of a runtime-sized array", "struct S { @size(8) v: array<u32> }\n@group(0) @binding(0) var<storage, read_write> s: S;\n@compute @workgroup_size(1) fn main() { s.v[0] = 1u; }",
			"t.wgsl:1:12: check: @size cannot be applied to a member of runtime-sized type array<u32>"},
		{"align below the type's in storage", "struct S { a: u32, @align(4) v: vec4<f32> }\n@group(0) @binding(0) var<storage, read_write> s: S;\n@compute @workgroup_size(1) fn main() { s.a = 1u; }",
			"t.wgsl:2:51: check: struct S member v: @align(4) is not a multiple of 16"},
		{"uniform struct member align below 16", "struct T { x: f32 }\nstruct S { a: u32, @align(8) t: T }\n@group(0) @binding(0) var<uniform> s: S;\n@group(0) @binding(1) var<storage, read_write> o: u32;\n@compute @workgroup_size(1) fn main() { o = s.a; }",
			"t.wgsl:3:39: check: struct S member t: @align(8) is not a multiple of 16"},
		{"align not a power of two", "struct S { @align(12) a: u32 }\n@compute @workgroup_size(1) fn main() { var s: S; _ = s; }",
			"t.wgsl:1:19: check: @align needs a positive power of two, got 12"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("t.wgsl", []byte(c.src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// TestAbstractIntBitcastAndPhony: bitcast<u32> of a negative AbstractInt
// converts it to i32 first (WGSL #overload-resolution-section ranks
// AbstractInt -> i32 before u32), so bitcast<u32>(-1) = 0xffffffff; a
// phony assignment of an AbstractInt beyond i32 and of a pointer to a
// runtime-sized array is valid WGSL and leaves nothing to evaluate.
func TestAbstractIntBitcastAndPhony(t *testing.T) {
	src := `@group(0) @binding(0) var<storage, read_write> a: array<i32>;
@group(0) @binding(1) var<storage, read_write> o: array<u32, 3>;
@compute @workgroup_size(1)
fn main() {
  _ = 5000000000;
  _ = &a;
  o[0] = bitcast<u32>(-1);
  o[1] = bitcast<u32>(0xffffffff);
  o[2] = bitcast<vec2<u32>>(vec2(-2, 3)).x;
}
`
	m, err := Parse("t.wgsl", []byte(src))
	require.NoError(t, err)
	body := ir.PrintFunc(m.Func("main"))
	assert.Contains(t, body, "o[0i] = 4294967295u;")
	assert.Contains(t, body, "o[1i] = 4294967295u;")
	assert.Contains(t, body, "o[2i] = 4294967294u;")
	assert.NotContains(t, body, "_ =", "the phony assignments leave nothing to evaluate (a runtime-sized array has no value to load)")
	require.NoError(t, ir.Verify(m))
}

// TestOverrideIndexConcretizesItsBase: an index that depends on an
// override makes the access an override-expression, so its abstract base
// is concretized first (WGSL #override-expr): 1e-50 becomes 0.0f and the
// outer index is 0. With a const index the access stays a
// const-expression in AbstractFloat and the outer index, 10000, is out of
// bounds, a shader-creation error.
func TestOverrideIndexConcretizesItsBase(t *testing.T) {
	body := "@group(0) @binding(0) var<storage, read_write> o: i32;\n@compute @workgroup_size(1)\nfn f() {\n  const s = 1e-50;\n  o = vec2(0, 7)[i32(vec2(s)[O]*1e27*1e27)];\n}\n"
	m, err := Parse("t.wgsl", []byte("override O = 0;\n"+body))
	require.NoError(t, err)
	assert.Contains(t, ir.PrintFunc(m.Func("f")), "o = 0i;")
	_, err = Parse("t.wgsl", []byte("const O = 0;\n"+body))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "index 10000 is out of bounds")
}

// TestArrayOfMatricesInferred: array(m0, m1) of matrices infers
// array<mat2x2<f32>, 2> (WGSL #array-builtin), abstract matrices included.
func TestArrayOfMatricesInferred(t *testing.T) {
	m, err := Parse("t.wgsl", []byte("var<private> a = array(mat2x2(1.0, 2.0, 3.0, 4.0), mat2x2<f32>(5f, 6f, 7f, 8f));\nfn k() -> f32 {\n  return a[1][1][0];\n}\n"))
	require.NoError(t, err)
	require.Len(t, m.Globals, 1)
	assert.Equal(t, "array<mat2x2<f32>, 2>", m.Globals[0].T.String())
}

// TestDegreesRadians: degrees and radians (WGSL #degrees-builtin,
// #radians-builtin) fold as x * 180/pi and x * pi/180.
func TestDegreesRadians(t *testing.T) {
	m, err := Parse("t.wgsl", []byte("fn k(x: f32) -> vec3<f32> {\n  return vec3(degrees(x), radians(180.0), degrees(0.5f));\n}\n"))
	require.NoError(t, err)
	body := ir.PrintFunc(m.Func("k"))
	assert.Contains(t, body, "degrees(x)")
	assert.Contains(t, body, "3.1415927f", "radians(180.0) = pi, rounded to f32")
	assert.Contains(t, body, "28.64789f", "degrees(0.5f) = 0.5f * 57.29578f")
}
