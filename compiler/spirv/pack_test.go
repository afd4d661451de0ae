package spirv

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
)

// TestPackBuiltinsValidate emits every data packing builtin in both modes
// and checks the module with spirv-val (GLSL.std.450 PackSnorm4x8 &
// co. for the float forms; bit operations for 4xI8/4xU8).
func TestPackBuiltinsValidate(t *testing.T) {
	kernel := `fn k(a: vec4<f32>, w: u32, i: vec4<i32>, u: vec4<u32>) -> u32 {
  var r = pack4x8snorm(a) ^ pack4x8unorm(a) ^ pack2x16snorm(a.xy) ^ pack2x16unorm(a.zw) ^ pack2x16float(a.yx);
  r ^= pack4xI8(i) ^ pack4xU8(u) ^ pack4xI8Clamp(i) ^ pack4xU8Clamp(u);
  let f = unpack4x8snorm(w) + unpack4x8unorm(w) + vec4f(unpack2x16snorm(w), unpack2x16unorm(w)) + vec4f(unpack2x16float(w), 0.0, 1.0);
  let j = unpack4xI8(w);
  let v = unpack4xU8(w);
  return r ^ u32(f.x + f.w) ^ u32(j.y) ^ v.z;
}`
	for _, mode := range []Mode{"portable", "raw"} {
		m, err := wgsl.Parse("k.wgsl", []byte(kernel))
		require.NoError(t, err)
		emitValid(t, m, "k", Options{Mode: mode})
	}
}
