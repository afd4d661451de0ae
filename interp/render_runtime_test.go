package interp

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// pullSrc pulls vertices from runtime-sized storage, as webgpu-samples'
// wireframe does (vertex pulling: an index buffer and a flat array of
// floats, 3 per vertex), and reads a struct whose last member is a
// runtime-sized array.
const pullSrc = `struct Tail {
  count: u32,
  scale: f32,
  data: array<vec2<f32>>,
}
@group(0) @binding(0) var<storage, read> positions: array<f32>;
@group(0) @binding(1) var<storage, read> indices: array<u32>;
@group(0) @binding(2) var<storage, read> tail: Tail;

@vertex
fn vs(@builtin(vertex_index) v: u32) -> @builtin(position) vec4<f32> {
  let i = indices[v];
  return vec4(positions[3u * i], positions[3u * i + 1u], positions[3u * i + 2u], 1.0);
}

fn direct(i: u32) -> vec4<f32> {
  return vec4(positions[3u * i], positions[3u * i + 1u], positions[3u * i + 2u], 1.0);
}

fn signed(i: i32) -> f32 {
  return positions[i];
}

fn lengths() -> vec3<u32> {
  return vec3(arrayLength(&positions), arrayLength(&tail.data), tail.count);
}

fn tailAt(i: u32) -> vec2<f32> {
  return tail.data[i] * tail.scale;
}
`

// pullPositions are three vertices, (0.5, -0.5, 0.25), (-1, 1, 0) and
// (0.125, 0.75, 1), laid out flat.
var pullPositions = []float32{0.5, -0.5, 0.25, -1, 1, 0, 0.125, 0.75, 1}

func runtimeVal(t *ir.Type, es ...ir.Value) ir.Value { return ir.Value{Type: t, Elems: es} }

func f32s(xs ...float32) []ir.Value {
	var out []ir.Value
	for _, x := range xs {
		out = append(out, ir.F32Val(x))
	}
	return out
}

func u32s(xs ...uint32) []ir.Value {
	var out []ir.Value
	for _, x := range xs {
		out = append(out, ir.U32Val(x))
	}
	return out
}

// pullBindings are the bindings of pullSrc: positions, indices (2, 0, 1,
// then 7, past the three vertices), and tail with count 3, scale 2 and
// the given data.
func pullBindings(m *ir.Module, data ...ir.Value) map[string]ir.Value {
	tt := m.SharedVar("tail").T
	return map[string]ir.Value{
		"positions": runtimeVal(m.SharedVar("positions").T, f32s(pullPositions...)...),
		"indices":   runtimeVal(m.SharedVar("indices").T, u32s(2, 0, 1, 7)...),
		"tail":      ir.CompositeVal(tt, ir.U32Val(3), ir.F32Val(2), runtimeVal(tt.Struct.Fields[2].Type, data...)),
	}
}

func compilePull(t *testing.T, fn string, data ...ir.Value) (*ir.Module, *Program) {
	t.Helper()
	m, err := wgsl.Parse("pull.wgsl", []byte(pullSrc))
	require.NoError(t, err)
	p, err := CompileBindings(m, fn, pullBindings(m, data...))
	require.NoError(t, err)
	return m, p
}

func run1(t *testing.T, p *Program, args ...ir.Value) Output {
	t.Helper()
	invs, err := p.Run([][]ir.Value{args}, Options{})
	require.NoError(t, err)
	require.NoError(t, invs[0].Err)
	return invs[0].Outputs[0]
}

// anywhere is the allowed set of an invalid load from positions (WGSL
// #out-of-bounds-access-sec "Invalid Load": any of its values, or zero):
// by hand, {0, 0.5, -0.5, 0.25, -1, 1, 0.125, 0.75} (0 and 1 appear
// twice in the buffer).
func anywhere() []uint32 {
	var out []uint32
	for _, x := range []float32{0, 0.5, -0.5, 0.25, -1, 1, 0.125, 0.75} {
		out = append(out, math.Float32bits(x))
	}
	return out
}

// TestVertexPullingReadsRuntimeSizedBindings: vertex v reads index
// indices[v] and that vertex's three floats. By hand: vertex 0 → index 2
// → (0.125, 0.75, 1, 1); vertex 1 → index 0 → (0.5, -0.5, 0.25, 1);
// vertex 2 → index 1 → (-1, 1, 0, 1). All exact.
func TestVertexPullingReadsRuntimeSizedBindings(t *testing.T) {
	_, p := compilePull(t, "vs")
	v4 := ir.Vec(4, ir.F32)
	invs, err := p.Run([][]ir.Value{{ir.U32Val(0)}, {ir.U32Val(1)}, {ir.U32Val(2)}}, Options{})
	require.NoError(t, err)
	want := [][]float32{{0.125, 0.75, 1, 1}, {0.5, -0.5, 0.25, 1}, {-1, 1, 0, 1}}
	for i, w := range want {
		require.NoError(t, invs[i].Err)
		o := invs[i].Outputs[0]
		assert.True(t, ir.Equal(vec(v4, w...), o.Value), "vertex %d: %v", i, o)
		assert.Nil(t, o.Indeterminate, "vertex %d: %v", i, o)
	}
}

// TestArrayLengthOfABinding: arrayLength(&positions) is the value's 9
// elements, arrayLength(&tail.data) the 3 elements given (a struct's last
// member), tail.count its fixed member; with no elements the length is 0.
func TestArrayLengthOfABinding(t *testing.T) {
	v2 := ir.Vec(2, ir.F32)
	data := []ir.Value{vec(v2, 1, 2), vec(v2, 3, 4), vec(v2, 5, 6)}
	_, p := compilePull(t, "lengths", data...)
	o := run1(t, p)
	assert.Equal(t, []uint32{9, 3, 3}, []uint32{o.Value.Elems[0].U32(), o.Value.Elems[1].U32(), o.Value.Elems[2].U32()})
	assert.Nil(t, o.Indeterminate)

	_, p = compilePull(t, "lengths")
	o = run1(t, p)
	assert.Equal(t, uint32(0), o.Value.Elems[1].U32())
}

// TestReadOfAStructsRuntimeSizedMember: tail.data[1] · tail.scale =
// (3, 4) · 2 = (6, 8): the runtime-sized member starts after the fixed
// members' two leaves.
func TestReadOfAStructsRuntimeSizedMember(t *testing.T) {
	v2 := ir.Vec(2, ir.F32)
	_, p := compilePull(t, "tailAt", vec(v2, 1, 2), vec(v2, 3, 4), vec(v2, 5, 6))
	o := run1(t, p, ir.U32Val(1))
	assert.True(t, ir.Equal(vec(v2, 6, 8), o.Value), "%v", o)
	assert.Nil(t, o.Indeterminate)
}

// TestOutOfBoundsReadOfARuntimeSizedBinding: direct(3) reads
// positions[9], [10] and [11] of a 9-element array, each an invalid
// load: indeterminate, with the buffer's values and zero allowed (the
// w = 1 leaf stays exact). vs(3) reads indices[3] = 7, in bounds, then
// positions[21..23]: the same. signed(-1) reads positions[-1]: the same.
func TestOutOfBoundsReadOfARuntimeSizedBinding(t *testing.T) {
	_, p := compilePull(t, "direct")
	check := func(name string, o Output, leaves int) {
		t.Helper()
		require.Len(t, o.Indeterminate, leaves, "%s: %v", name, o)
		require.NotNil(t, o.Allowed, "%s: %v", name, o)
		for k := 0; k < leaves; k++ {
			if leaves == 4 && k == 3 {
				assert.False(t, o.Indeterminate[k], "%s: w is exact", name)
				assert.Equal(t, math.Float32bits(1), o.Value.Elems[3].Bits)
				continue
			}
			assert.True(t, o.Indeterminate[k], "%s leaf %d", name, k)
			assert.ElementsMatch(t, anywhere(), o.Allowed[k].Values, "%s leaf %d", name, k)
			assert.False(t, o.Allowed[k].HasRange, "%s leaf %d", name, k)
		}
		assert.Contains(t, o.Why, "out of bounds or indeterminate", name)
	}
	check("direct(3)", run1(t, p, ir.U32Val(3)), 4)
	_, p = compilePull(t, "vs")
	check("vs(3)", run1(t, p, ir.U32Val(3)), 4)
	_, p = compilePull(t, "signed")
	check("signed(-1)", run1(t, p, ir.I32Val(-1)), 1)
	// In bounds through the same function: positions[8] = 1, exact.
	o := run1(t, p, ir.I32Val(8))
	assert.Nil(t, o.Indeterminate)
	assert.Equal(t, math.Float32bits(1), o.Value.Bits)
}

// TestIndeterminateIndexIntoABinding: vs(4) reads indices[4], out of
// bounds, so its index i is indeterminate (any of 2, 0, 1, 7 or 0), and
// positions[3i + k] through it is an invalid load however i comes out:
// positions' set, not i's.
func TestIndeterminateIndexIntoABinding(t *testing.T) {
	_, p := compilePull(t, "vs")
	o := run1(t, p, ir.U32Val(4))
	require.NotNil(t, o.Allowed, "%v", o)
	for k := 0; k < 3; k++ {
		assert.True(t, o.Indeterminate[k])
		assert.ElementsMatch(t, anywhere(), o.Allowed[k].Values, "leaf %d", k)
	}
	assert.False(t, o.Indeterminate[3])
}

// TestOutOfBoundsReadOfMixedOrEmptyBindings: tail's leaves are of two
// kinds (u32 count, f32 scale and data), so an invalid load from it is
// any value (no set, as the dispatch's loadAnywhere decides); a read of
// an empty runtime-sized array is any value.
func TestOutOfBoundsReadOfMixedOrEmptyBindings(t *testing.T) {
	v2 := ir.Vec(2, ir.F32)
	_, p := compilePull(t, "tailAt", vec(v2, 1, 2))
	o := run1(t, p, ir.U32Val(5))
	require.Len(t, o.Indeterminate, 2)
	for k := 0; k < 2; k++ {
		assert.True(t, o.Indeterminate[k])
		if o.Allowed != nil {
			assert.True(t, o.Allowed[k].IsAny())
		}
	}
	_, p = compilePull(t, "tailAt")
	o = run1(t, p, ir.U32Val(0))
	require.Len(t, o.Indeterminate, 2)
	assert.True(t, o.Indeterminate[0] && o.Indeterminate[1])
	assert.Nil(t, o.Allowed)
}

// TestFunctionModeOutOfBoundsMatchesTheDispatch: the same invalid load
// in a compute entry point (dispatch mode) gives the same value, marks
// and allowed set as in function mode.
func TestFunctionModeOutOfBoundsMatchesTheDispatch(t *testing.T) {
	src := `@group(0) @binding(0) var<storage, read> positions: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32, 2>;

fn at(i: u32) -> f32 { return positions[i]; }

@compute @workgroup_size(1)
fn main() {
  out[0] = positions[10u];
  out[1] = positions[4u];
}
`
	m, err := wgsl.Parse("cmp.wgsl", []byte(src))
	require.NoError(t, err)
	pos := runtimeVal(m.SharedVar("positions").T, f32s(pullPositions...)...)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	res, err := d.Run(map[string]ir.Value{"positions": pos}, [3]uint32{1, 1, 1}, Options{})
	require.NoError(t, err)
	dout := res.Buffers["out"]
	require.NotNil(t, dout.Allowed)
	assert.True(t, dout.Indeterminate[0])
	assert.False(t, dout.Indeterminate[1])

	p, err := CompileBindings(m, "at", map[string]ir.Value{"positions": pos})
	require.NoError(t, err)
	invs, err := p.Run([][]ir.Value{{ir.U32Val(10)}, {ir.U32Val(4)}}, Options{})
	require.NoError(t, err)
	oob, in := invs[0].Outputs[0], invs[1].Outputs[0]
	assert.True(t, oob.Indeterminate[0])
	assert.ElementsMatch(t, dout.Allowed[0].Values, oob.Allowed[0].Values)
	assert.ElementsMatch(t, anywhere(), oob.Allowed[0].Values)
	assert.Nil(t, in.Indeterminate)
	assert.Equal(t, dout.Value.Elems[1].Bits, in.Value.Bits)
	assert.Equal(t, math.Float32bits(1), in.Value.Bits) // positions[4]
}

// TestRuntimeSizedBindingRefusals: a value of the wrong element type is
// refused, positioned; a writable runtime-sized binding still is.
func TestRuntimeSizedBindingRefusals(t *testing.T) {
	m, err := wgsl.Parse("pull.wgsl", []byte(pullSrc))
	require.NoError(t, err)
	b := pullBindings(m)
	b["positions"] = runtimeVal(m.SharedVar("positions").T, u32s(1, 2)...)
	_, err = CompileBindings(m, "direct", b)
	require.Error(t, err)
	assert.Equal(t, "pull.wgsl:17:15: interp: binding positions: has type u32, want f32", err.Error(), "one error, at the first use")
	assert.Contains(t, err.Error(), "binding positions")

	w, err := wgsl.Parse("w.wgsl", []byte(`@group(0) @binding(0) var<storage, read_write> xs: array<f32>;
fn f(i: u32) -> f32 { return xs[i]; }
`))
	require.NoError(t, err)
	_, err = CompileBindings(w, "f", map[string]ir.Value{"xs": runtimeVal(w.SharedVar("xs").T, f32s(1)...)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "writable")
}

// TestPointerToARuntimeSizedBinding: a helper taking a pointer to the
// binding (WGSL #ref-ptr-types) reads through it as the binding itself:
// fetch(&positions, 4) = positions[4] = 1 plus arrayLength(p) = 9 → 10;
// fetch(&positions, 9) is an invalid load, positions' set then shifted by
// 9, so any value (an operation on an indeterminate leaf).
func TestPointerToARuntimeSizedBinding(t *testing.T) {
	src := `@group(0) @binding(0) var<storage, read> positions: array<f32>;
fn fetch(p: ptr<storage, array<f32>, read>, i: u32) -> f32 {
  return (*p)[i] + f32(arrayLength(p));
}
fn f(i: u32) -> f32 { return fetch(&positions, i); }
`
	m, err := wgsl.Parse("ptr.wgsl", []byte(src))
	require.NoError(t, err)
	p, err := CompileBindings(m, "f", map[string]ir.Value{"positions": runtimeVal(m.SharedVar("positions").T, f32s(pullPositions...)...)})
	require.NoError(t, err)
	o := run1(t, p, ir.U32Val(4))
	assert.Nil(t, o.Indeterminate, "%v", o)
	assert.Equal(t, math.Float32bits(10), o.Value.Bits, "%v", o)
	o = run1(t, p, ir.U32Val(9))
	require.Len(t, o.Indeterminate, 1)
	assert.True(t, o.Indeterminate[0])
}
