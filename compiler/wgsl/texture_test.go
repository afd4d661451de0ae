package wgsl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// A compute shader in the shape of webgpu-samples' imageBlur and
// particles/probabilityMap (written here, not copied): a sampled texture,
// a sampler, a storage texture, and the compute-stage builtins.
const texComputeSrc = `
@group(0) @binding(0) var samp: sampler;
@group(0) @binding(1) var src: texture_2d<f32>;
@group(0) @binding(2) var dst: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(3) var arr: texture_2d_array<u32>;
@group(0) @binding(4) var vol: texture_3d<i32>;
@group(0) @binding(5) var depth: texture_depth_2d;
@group(0) @binding(6) var ms: texture_multisampled_2d<f32>;
@group(0) @binding(7) var rw: texture_storage_2d_array<r32float, read_write>;
@group(0) @binding(8) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let dims = textureDimensions(src, 0);
  if (any(id.xy >= dims)) { return; }
  let t = textureLoad(src, vec2i(id.xy), 0);
  let s = textureSampleLevel(src, samp, (vec2f(id.xy) + 0.5) / vec2f(dims), 0.0, vec2(1, -1));
  let a: vec4u = textureLoad(arr, id.xy, 1u, 0);
  let v: vec4i = textureLoad(vol, vec3i(id), 0u);
  let d: f32 = textureLoad(depth, id.xy, 0);
  let m: vec4f = textureLoad(ms, id.xy, 0);
  let n = textureNumLayers(arr) + textureNumLevels(vol) + textureNumSamples(ms) + textureDimensions(vol).z;
  let r = textureLoad(rw, id.xy, 2);
  textureStore(rw, id.xy, 2, r + 1.0);
  textureStore(dst, vec2i(id.xy), vec4(t.rgb * s.a, 1.0));
  out[id.x] = t.x + s.y + f32(a.x) + f32(v.y) + d + m.z + f32(n);
}
`

func TestTextureTypesAndBuiltins(t *testing.T) {
	m := ptParse(t, texComputeSrc)
	require.NoError(t, ir.Verify(m))
	require.Len(t, m.Textures, 8)
	want := map[string]string{
		"samp": "sampler", "src": "texture_2d<f32>", "dst": "texture_storage_2d<rgba8unorm, write>",
		"arr": "texture_2d_array<u32>", "vol": "texture_3d<i32>", "depth": "texture_depth_2d",
		"ms": "texture_multisampled_2d<f32>", "rw": "texture_storage_2d_array<r32float, read_write>",
	}
	for _, v := range m.Textures {
		assert.Equal(t, want[v.Name], v.T.String(), v.Name)
		assert.Equal(t, 0, v.Group)
	}
	f := m.Func("main")
	require.NotNil(t, f)
	// Result types and forms, as WGSL's overload tables give them.
	got := map[string]string{}
	ir.Inspect(f.Body, func(n ir.Node) bool {
		if c, ok := n.(*ir.TextureCall); ok {
			got[ir.PrintExpr(c)] = c.Form + " -> " + c.T.String()
		}
		return true
	})
	for call, form := range map[string]string{
		"textureDimensions(src, 0i)":                                        "L -> vec2<u32>",
		"textureLoad(src, vec2<i32>(id.xy), 0i)":                            "iL -> vec4<f32>",
		"textureLoad(arr, id.xy, 1u, 0i)":                                   "iaL -> vec4<u32>",
		"textureLoad(vol, vec3<i32>(id), 0u)":                               "iL -> vec4<i32>",
		"textureLoad(depth, id.xy, 0i)":                                     "iL -> f32",
		"textureLoad(ms, id.xy, 0i)":                                        "in -> vec4<f32>",
		"textureNumSamples(ms)":                                             " -> u32",
		"textureDimensions(vol)":                                            " -> vec3<u32>",
		"textureLoad(rw, id.xy, 2i)":                                        "ia -> vec4<f32>",
		"textureStore(rw, id.xy, 2i, r + 1.0f)":                             "iav -> void",
		"textureStore(dst, vec2<i32>(id.xy), vec4<f32>(t.xyz * s.w, 1.0f))": "iv -> void",
	} {
		assert.Equal(t, form, got[call], call)
	}
	var sl *ir.TextureCall
	ir.Inspect(f.Body, func(n ir.Node) bool {
		if c, ok := n.(*ir.TextureCall); ok && c.Op == ir.TexSampleLevel {
			sl = c
		}
		return true
	})
	require.NotNil(t, sl)
	assert.Equal(t, "ScFo", sl.Form)
	p := sl.Parts()
	assert.Equal(t, "vec2<i32>(1i, -1i)", ir.PrintExpr(p.Offset))
	assert.Equal(t, "0.0f", ir.PrintExpr(p.Level))
	assert.Equal(t, "samp", ir.PrintExpr(p.Sampler))

	// The emitted entry point declares every binding and parses back to
	// the same module.
	src, err := EmitEntry(m, "main", EmitOptions{Mode: Raw})
	require.NoError(t, err)
	for _, v := range m.Textures {
		assert.Contains(t, src, v.Decl())
	}
	m2, err := Parse("emitted.wgsl", []byte(src))
	require.NoError(t, err, src)
	assert.Len(t, m2.Textures, 8)
}

func TestTextureErrorsAndRefusals(t *testing.T) {
	head := "@group(0) @binding(0) var t: texture_2d<f32>;\n@group(0) @binding(1) var s: sampler;\n@group(0) @binding(2) var ti: texture_2d<i32>;\n@group(0) @binding(3) var st: texture_storage_2d<rgba8unorm, write>;\n@group(0) @binding(4) var sc: sampler_comparison;\n@group(0) @binding(5) var dt: texture_depth_2d;\n"
	body := func(stmt string) string {
		return head + "@compute @workgroup_size(1) fn main() {\n  " + stmt + "\n}\n"
	}
	for _, tc := range []struct{ name, src, want string }{
		{"level must be integer", body("_ = textureLoad(t, vec2i(0), 0.5);"), "8:32: check: argument 3 of textureLoad: expected i32 or u32, got f32"},
		{"coords width", body("_ = textureLoad(t, 1, 0);"), "8:22: check: argument 2 of textureLoad: expected vec2<i32> or vec2<u32>, got i32"},
		{"arity", body("_ = textureLoad(t, vec2i(0));"), "8:7: check: textureLoad of texture_2d<f32> takes 3 argument(s), got 2"},
		{"sample needs f32", body("_ = textureSampleLevel(ti, s, vec2f(0), 0.0);"), "8:7: check: textureSampleLevel needs a texture of f32"},
		{"store to a sampled texture", body("textureStore(t, vec2i(0), vec4f(0));"), "8:3: check: textureStore has no overload for texture_2d<f32>"},
		{"load from a write-only storage texture", body("_ = textureLoad(st, vec2i(0));"), "8:7: check: textureLoad is not allowed on texture_storage_2d<rgba8unorm, write>: its access mode is write"},
		{"store value type", body("textureStore(st, vec2i(0), vec4i(0));"), "8:30: check: argument 3 of textureStore: expected vec4<f32>, got vec4<i32>"},
		{"comparison sampler where a sampler is needed", body("_ = textureSampleLevel(t, sc, vec2f(0), 0.0);"), "8:29: check: argument 2 of textureSampleLevel: expected sampler, got sampler_comparison"},
		{"offset must be const", body("let o = vec2i(1);\n  _ = textureSampleLevel(t, s, vec2f(0), 0.0, o);"), "9:47: check: the offset of textureSampleLevel must be a const-expression"},
		{"gather component range", body("_ = textureGather(4, t, s, vec2f(0));"), "8:21: check: the component of textureGather must be 0, 1, 2 or 3, got 4"},
		{"depth sample level takes an integer level", body("_ = textureSampleLevel(dt, s, vec2f(0), 0.5);"), "8:43: check: argument 4 of textureSampleLevel: expected i32 or u32, got f32"},
		{"store result used", body("let x = textureStore(st, vec2i(0), vec4f(0));"), "8:11: check: builtin 'textureStore' does not return a value"},
		{"sampled type", "@group(0) @binding(0) var t: texture_2d<bool>;\n", "1:41: check: texture_2d<bool>: the sampled type must be f32, i32 or u32"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("x.wgsl", []byte(tc.src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "x.wgsl:"+tc.want)
		})
	}
	// Outside the subset, positioned (the module parses; the declaration
	// is opaque with its reason).
	for _, tc := range []struct{ name, src, decl, reason string }{
		{"texture_external", "@group(0) @binding(0) var t: texture_external;\n", "t", "texture type texture_external"},
		{"depth multisampled", "@group(0) @binding(0) var t: texture_depth_multisampled_2d;\n", "t", "texture type texture_depth_multisampled_2d"},
		{"non-core storage format", "@group(0) @binding(0) var t: texture_storage_2d<r8unorm, write>;\n", "t", "storage texel format r8unorm"},
		{"bgra8unorm read", "@group(0) @binding(0) var t: texture_storage_2d<bgra8unorm, read>;\n", "t", "storage texel format bgra8unorm with access read (WebGPU allows it write-only"},
		{"bgra8unorm read_write", "@group(0) @binding(0) var t: texture_storage_1d<bgra8unorm, read_write>;\n", "t", "storage texel format bgra8unorm with access read_write"},
		{"texture let", head + "fn f() { let x = t; }\n", "f", "let 'x' of type texture_2d<f32>"},
		{"base clamp to edge", head + "fn f() -> vec4f { return textureSampleBaseClampToEdge(t, s, vec2f(0)); }\n", "f", "builtin textureSampleBaseClampToEdge"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Parse("x.wgsl", []byte(tc.src))
			require.NoError(t, err)
			o := m.OpaqueDecl(tc.decl)
			require.NotNil(t, o, "%s should be outside the subset", tc.decl)
			assert.True(t, strings.HasPrefix(o.Reason, tc.reason), "reason %q", o.Reason)
			assert.NotZero(t, o.ReasonPos.Line)
		})
	}
}

func TestTextureSampleUniformity(t *testing.T) {
	src := "@group(0) @binding(0) var t: texture_2d<f32>;\n@group(0) @binding(1) var s: sampler;\n" +
		"@fragment fn main(@builtin(position) p: vec4f) -> @location(0) vec4f {\n  if (p.x > 1.0) {\n    return textureSample(t, s, p.xy);\n  }\n  return vec4f(0);\n}\n"
	_, err := Parse("x.wgsl", []byte(src))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "x.wgsl:5:12: check: textureSample must only be called from uniform control flow")
	// Uniform control flow: accepted.
	ok := strings.Replace(src, "if (p.x > 1.0)", "if (true)", 1)
	_, err = Parse("x.wgsl", []byte(ok))
	require.NoError(t, err)
}

func TestTextureSampleOnlyInFragments(t *testing.T) {
	src := "@group(0) @binding(0) var t: texture_2d<f32>;\n@group(0) @binding(1) var s: sampler;\nfn f() -> vec4f { return textureSample(t, s, vec2f(0.5)); }\n@compute @workgroup_size(1) fn main() { _ = f(); }\n"
	_, err := Parse("x.wgsl", []byte(src))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "x.wgsl:3:26: check: textureSample must only be used in the fragment stage, but compute entry point main calls it")
}

// The verifier checks a texture call's form, argument types and result
// type against ir's overload table, and a handle used as a value.
func TestTextureVerifier(t *testing.T) {
	src := "@group(0) @binding(0) var t: texture_2d<f32>;\n@group(0) @binding(1) var<storage, read_write> o: vec4f;\n@compute @workgroup_size(1) fn main() {\n  o = textureLoad(t, vec2i(0), 0);\n}\n"
	m := ptParse(t, src)
	require.NoError(t, ir.Verify(m))
	var call *ir.TextureCall
	ir.Inspect(m.Func("main").Body, func(n ir.Node) bool {
		if c, ok := n.(*ir.TextureCall); ok {
			call = c
		}
		return true
	})
	require.NotNil(t, call)
	call.Form = "i"
	assert.ErrorContains(t, ir.Verify(m), `textureLoad: form "i", but its arguments have form "iL"`)
	call.Form = "iL"
	call.Args[2] = &ir.Lit{Val: ir.F32Val(0)}
	assert.ErrorContains(t, ir.Verify(m), "argument 3 of textureLoad: expected i32 or u32, got f32")
	call.Args[2] = &ir.Lit{Val: ir.I32Val(0)}
	call.T = ir.Vec(4, ir.U32)
	assert.Error(t, ir.Verify(m))
	call.T = ir.Vec(4, ir.F32)
	require.NoError(t, ir.Verify(m))
	m.Func("main").Body.Stmts = append(m.Func("main").Body.Stmts, &ir.Decl{Name: "h", T: m.Textures[0].T, Init: &ir.Ident{Name: "t", T: m.Textures[0].T, Ref: ir.RefHandle}})
	assert.ErrorContains(t, ir.Verify(m), "texture or sampler t used outside a texture builtin's arguments")
}

// A write-only bgra8unorm storage texture is WebGPU's (with the
// bgra8unorm-storage feature): inside the subset, unlike read access.
func TestBgra8unormStorageWriteOnly(t *testing.T) {
	m, err := Parse("x.wgsl", []byte("@group(0) @binding(0) var t: texture_storage_2d<bgra8unorm, write>;\n"))
	require.NoError(t, err)
	assert.Nil(t, m.OpaqueDecl("t"))
}
