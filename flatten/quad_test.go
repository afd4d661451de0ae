package flatten_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/flatten"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// quadSrc samples and takes derivatives under a switch on a uniform
// (webgpu-samples' normalMap.wgsl: fragmentMain's `switch (mapInfo.mode)`),
// in a helper called under it, and in a loop bounded by a uniform
// (vk-gl-cts cov-loop-dfdx-constant-divide: a kept loop, no syntactic
// bound).
const quadSrc = `struct U { mode: u32, n: i32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var t: texture_2d<f32>;
@group(0) @binding(2) var s: sampler;

fn scaled(uv: vec2f) -> f32 {
  return textureSample(t, s, uv).x * 10.0;
}

@fragment
fn fs(@location(0) uv: vec2f) -> @location(0) vec4f {
  switch (u.mode) {
    case 0u: { return textureSample(t, s, uv); }
    case 1u: { return vec4f(dpdx(uv.x), dpdy(uv.y), scaled(uv), 1.0); }
    default: {
      var acc = 0.0;
      for (var i = 0; i < u.n; i++) {
        acc += dpdx(uv.x) + textureSample(t, s, uv).x;
      }
      return vec4f(acc, 0.0, 0.0, 1.0);
    }
  }
}
`

// mipTexture is a 4×4 r32float texture whose level 0 holds 1 in every
// texel and level 1 (2×2) holds 2: a sample's value says which level its
// implicit level of detail chose.
func mipTexture() *interp.Texture {
	level := func(n int, v float32) []byte {
		b := make([]byte, 4*n)
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		return b
	}
	return &interp.Texture{Format: "r32float", Width: 4, Height: 4, DepthOrLayers: 1, MipLevels: 2,
		Data: [][]byte{level(16, 1), level(4, 2)}}
}

// TestUniformPredicateKeepsImplicitDerivatives: derivatives and
// textureSample under a predicate that is uniform (a switch on a uniform,
// a callee under it, a loop whose exit reads a uniform) stay in the twin,
// evaluated unconditionally (they used to be refused: "textureSample
// under a predicate …", "dpdx in non-uniform control flow"), and the twin
// draws what the original does. By hand, for a quad whose lane at pixel
// (x, y) has uv = (x·d, y·d): dpdx(uv.x) = dpdy(uv.y) = d; a 4×4
// texture's coordinates move 4d texels per pixel, so the level of
// detail is log2(4d) (WGSL #texturesample, WebGPU "texel LOD"): level 1
// (value 2) for d = 1/2, level 0 (value 1) for d = 1/4, nearest mip
// filter. mode 0: (sample, 0, 0, 1); mode 1: (d, d, 10·sample, 1);
// mode 2: n·(d + sample) in x.
func TestUniformPredicateKeepsImplicitDerivatives(t *testing.T) {
	m, twin := fragmentTwin(t, quadSrc)
	ir.Inspect(twin.Body, func(n ir.Node) bool {
		if b, ok := n.(*ir.BuiltinCall); ok {
			assert.NotEqual(t, ir.BWorkgroupBarrier, b.Fn, "no probe is left in the twin:\n%s", ir.PrintFunc(twin))
		}
		return true
	})
	loops := 0
	ir.Inspect(twin.Body, func(n ir.Node) bool {
		if _, ok := n.(*ir.Loop); ok {
			loops++
		}
		return true
	})
	assert.Equal(t, 1, loops, "the loop bounded by u.n is kept:\n%s", ir.PrintFunc(twin))

	ut := m.SharedVar("u").T
	opts := interp.Options{
		Textures: map[string]*interp.Texture{"t": mipTexture()},
		Samplers: map[string]*interp.Sampler{"s": {MagFilter: "nearest", MinFilter: "nearest", MipmapFilter: "nearest", LodMaxClamp: 32}},
	}
	type tc struct {
		mode   uint32
		n      int32
		d      float32
		sample float32
	}
	for _, c := range []tc{{0, 0, 0.5, 2}, {0, 0, 0.25, 1}, {1, 0, 0.5, 2}, {1, 0, 0.25, 1}, {2, 3, 0.5, 2}, {2, 3, 0.25, 1}, {2, 0, 0.5, 2}} {
		var want [4]float32
		switch c.mode {
		case 0:
			want = [4]float32{c.sample, 0, 0, 1}
		case 1:
			want = [4]float32{c.d, c.d, 10 * c.sample, 1}
		default:
			want = [4]float32{float32(c.n) * (c.d + c.sample), 0, 0, 1}
		}
		uval := ir.CompositeVal(ut, ir.U32Val(c.mode), ir.I32Val(c.n))
		var q interp.Quad
		for l := range q {
			x, y := float32(l&1), float32(l>>1)
			q[l].Args = []ir.Value{ir.CompositeVal(ir.Vec(2, ir.F32), ir.F32Val(x*c.d), ir.F32Val(y*c.d))}
		}
		for _, name := range []string{"fs", twin.Name} {
			p, err := interp.CompileBindings(m, name, map[string]ir.Value{"u": uval})
			require.NoError(t, err)
			res, err := p.RunQuadList([]interp.Quad{q}, opts)
			require.NoError(t, err)
			for l, r := range res[0] {
				require.NoError(t, r.Err, "%s mode %d lane %d", name, c.mode, l)
				out := r.Outputs[0]
				for k := 0; k < 4; k++ {
					tol := 1e-6
					if out.Tolerance != nil {
						tol += out.Tolerance[k]
					}
					if out.Indeterminate != nil {
						require.False(t, out.Indeterminate[k], "%s %+v lane %d component %d: %s", name, c, l, k, out.Why)
					}
					assert.InDelta(t, want[k], out.Value.Elems[k].F32(), tol, "%s %+v lane %d component %d", name, c, l, k)
				}
			}
		}
	}
}

// TestNonUniformPredicateRefusesImplicitDerivatives: where the predicate
// may differ between the invocations of a quad (a fragment input, with
// derivative_uniformity off so that the original parses; a loop whose
// break reads one, unrolled or kept as a masked loop), evaluating the
// derivative unconditionally would take differences across invocations
// the source keeps apart: refused, positioned at the derivative. The
// same loop breaking on a uniform is kept.
func TestNonUniformPredicateRefusesImplicitDerivatives(t *testing.T) {
	cases := []struct {
		name, src, loops, at string
	}{
		{"if", `diagnostic(off, derivative_uniformity);
@fragment fn fs(@location(0) v: f32) -> @location(0) vec4f {
  var d = 0.0;
  if (v > 0.5) { d = dpdx(v); }
  return vec4f(d);
}
`, "auto", "test.wgsl:4:22: flatten: dpdx under a predicate that may differ between the invocations of a quad"},
		{"sample", `diagnostic(off, derivative_uniformity);
@group(0) @binding(1) var t: texture_2d<f32>;
@group(0) @binding(2) var s: sampler;
@fragment fn fs(@location(0) v: vec2f) -> @location(0) vec4f {
  var c = vec4f(0.0);
  if (v.x > 0.5) { c = textureSample(t, s, v); }
  return c;
}
`, "auto", "test.wgsl:6:24: flatten: textureSample under a predicate that may differ"},
		{"unrolled", `diagnostic(off, derivative_uniformity);
@fragment fn fs(@location(0) v: f32) -> @location(0) vec4f {
  var acc = 0.0;
  for (var i = 0; i < 4; i++) {
    if (v > f32(i)) { break; }
    acc += dpdx(v);
  }
  return vec4f(acc);
}
`, "auto", "test.wgsl:6:12: flatten: dpdx under a predicate that may differ"},
		{"masked", `diagnostic(off, derivative_uniformity);
@fragment fn fs(@location(0) v: f32) -> @location(0) vec4f {
  var acc = 0.0;
  for (var i = 0; i < 4; i++) {
    if (v > f32(i)) { break; }
    acc += dpdx(v);
  }
  return vec4f(acc);
}
`, "mask", "test.wgsl:6:12: flatten: dpdx under a predicate that may differ"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := parse(t, c.src)
			_, err := flatten.Function(m, "fs", flatten.Options{Loops: c.loops})
			require.Error(t, err)
			assert.True(t, flatten.IsRefusal(err), "%v", err)
			assert.Contains(t, err.Error(), c.at)
		})
	}
	uniform := `struct U { n: f32 }
@group(0) @binding(0) var<uniform> u: U;
@fragment fn fs(@location(0) v: f32) -> @location(0) vec4f {
  var acc = 0.0;
  for (var i = 0; i < 4; i++) {
    if (u.n > f32(i)) { break; }
    acc += dpdx(v);
  }
  return vec4f(acc);
}
`
	for _, loops := range []string{"auto", "mask"} {
		m := parse(t, uniform)
		_, err := flatten.Function(m, "fs", flatten.Options{Loops: loops, VerifyPasses: true, Strict: true})
		require.NoError(t, err, "a break on a uniform keeps the derivative (loops %s)", loops)
	}
}
