package flatten_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// A texture shader's twin: loads are leaves, textureStore keeps a
// one-statement guard, and the twin's final buffers and storage texture
// equal the original's in the reference.
func TestTextureTwin(t *testing.T) {
	src := `
@group(0) @binding(0) var src: texture_2d<u32>;
@group(0) @binding(1) var dst: texture_storage_2d<r32uint, write>;
@group(0) @binding(2) var<storage, read_write> out: array<u32, 16>;
@compute @workgroup_size(4, 4)
fn main(@builtin(local_invocation_id) id: vec3u) {
  let v = textureLoad(src, id.xy, 0).x;
  if (v % 2u == 1u) {
    textureStore(dst, id.xy, vec4u(v * 10u));
    out[id.y * 4u + id.x] = textureDimensions(src).x + v;
  } else {
    out[id.y * 4u + id.x] = v;
  }
}
`
	m := parse(t, src)
	twin, err := flatten.Function(m, "main", flatten.Options{})
	require.NoError(t, err)
	require.NoError(t, ir.Verify(m))
	printed := ir.PrintFunc(twin)
	assert.Regexp(t, `if \([^)]*\) \{\n\s*textureStore\(dst, `, printed, "textureStore keeps a one-statement guard")
	data := make([]byte, 16*4)
	for i := 0; i < 16; i++ {
		data[4*i] = byte(i * 3)
	}
	opts := interp.Options{Textures: map[string]*interp.Texture{
		"src": {Format: "r32uint", Width: 4, Height: 4, DepthOrLayers: 1, MipLevels: 1, Data: [][]byte{data}},
		"dst": {Format: "r32uint", Width: 4, Height: 4, DepthOrLayers: 1, MipLevels: 1, Data: [][]byte{make([]byte, 64)}},
	}}
	run := func(name string) *interp.DispatchResult {
		d, err := interp.CompileEntry(m, name)
		require.NoError(t, err)
		res, err := d.Run(nil, [3]uint32{1, 1, 1}, opts)
		require.NoError(t, err)
		return res
	}
	a, b := run("main"), run(twin.Name)
	sameBuffers(t, a.Buffers, b.Buffers)
	assert.Equal(t, a.Textures, b.Textures)
	// Hand-derived: texel i holds 3i; odd ones store 30i.
	for i := 0; i < 16; i++ {
		want := uint32(0)
		if (3*i)%2 == 1 {
			want = uint32(30 * i)
		}
		assert.Equal(t, want, a.Textures["dst"].Levels[0][i], "texel %d", i)
	}
}

// TestTextureImplicitDerivativesUnderAPredicate: textureSampleLevel is a
// leaf under any predicate; textureSample stays in a fragment twin under
// a uniform one (textureNumLevels of a binding) and is refused, at the
// sample, in a function flattened on its own.
func TestTextureImplicitDerivativesUnderAPredicate(t *testing.T) {
	src := `
@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
@fragment fn main(@builtin(position) p: vec4f) -> @location(0) vec4f {
  var c = vec4f(0);
  if (p.x > 2.0) {
    c = textureSampleLevel(t, s, p.xy, 0.0);
  }
  return c;
}
@compute @workgroup_size(1) fn k() {
  var c = 0u;
  if (textureNumLevels(t) > 1u) {
    c = 1u;
  }
}
`
	m := parse(t, src)
	_, err := flatten.Function(m, "main", flatten.Options{})
	require.NoError(t, err, "textureSampleLevel is a leaf under any predicate")
	// textureSample under a uniform condition stays, unconditional
	// (quad.go); under a per-invocation one it is refused
	// (TestNonUniformPredicateRefusesImplicitDerivatives).
	uni := strings.Replace(src, "textureSampleLevel(t, s, p.xy, 0.0)", "textureSample(t, s, p.xy)", 1)
	uni = strings.Replace(uni, "if (p.x > 2.0)", "if (textureNumLevels(t) > 1u)", 1)
	m = parse(t, uni)
	twin, err := flatten.Function(m, "main", flatten.Options{VerifyPasses: true})
	require.NoError(t, err)
	assert.Contains(t, ir.PrintFunc(twin), "textureSample(t, s, p.xy)")
	// Outside a fragment twin (a function flattened on its own), under a
	// predicate: refused.
	m = parse(t, `@group(0) @binding(0) var t: texture_2d<f32>;
@group(0) @binding(1) var s: sampler;
fn helper(c: vec2f) -> vec4f {
  var r = vec4f(0);
  if (textureNumLevels(t) > 1u) {
    r = textureSample(t, s, c);
  }
  return r;
}
@fragment fn main(@builtin(position) p: vec4f) -> @location(0) vec4f { return helper(p.xy); }
`)
	_, err = flatten.Function(m, "helper", flatten.Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "test.wgsl:6:9: flatten: textureSample under a predicate")
}
