package shaders

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// quadWGSL takes derivatives of non-linear functions of the position,
// fine and coarse, so that fine and coarse differ.
const quadWGSL = `
@fragment fn main(@builtin(position) p: vec4f) -> @location(0) vec4f {
  let v = p.x * p.x * 0.25 + p.y * p.x;
  let w = p.y * p.y - p.x;
  return vec4f(dpdxFine(v), dpdyFine(w), dpdxCoarse(v) + dpdyCoarse(w), fwidth(v * 0.5));
}
`

// TestQuadDerivativesAgreeWithGPUs: the reference's quad derivatives
// (interp.RunQuads) contain what lavapipe and SwiftShader compute, WGSL
// and SPIR-V, on an odd-sized target (helper invocations).
func TestQuadDerivativesAgreeWithGPUs(t *testing.T) {
	m, err := wgsl.Parse("quad.wgsl", []byte(quadWGSL))
	require.NoError(t, err)
	p, err := interp.Compile(m, "main")
	require.NoError(t, err)
	const W, H = 7, 5
	ref, err := p.RunQuads(func(x, y int) []ir.Value {
		return []ir.Value{ir.CompositeVal(ir.Vec(4, ir.F32), ir.F32Val(float32(x)+0.5), ir.F32Val(float32(y)+0.5), ir.F32Val(0), ir.F32Val(1))}
	}, W, H, interp.Options{})
	require.NoError(t, err)
	src, err := wgsl.EmitFragment(m, "main", wgsl.EmitOptions{})
	require.NoError(t, err)
	words, err := spirv.Emit(m, "main", spirv.Options{})
	if err != nil {
		t.Logf("SPIR-V: %v (WGSL only)", err)
	}
	kernels := []harness.Kernel{{WGSL: src, EntryPoint: "main", Stage: harness.FragmentStage}}
	if err == nil {
		kernels = append(kernels, harness.Kernel{SPIRV: words, EntryPoint: "main", Stage: harness.FragmentStage})
	}
	for _, adapter := range []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:swiftshader"} {
		t.Run(adapter, func(t *testing.T) {
			dev, err := harness.Open(adapter)
			require.NoError(t, err)
			defer dev.Close()
			for _, k := range kernels {
				got, err := dev.Run(context.Background(), k, harness.Dispatch{Entry: true, Target: [2]uint32{W, H}, Attachments: []harness.AttachmentFormat{harness.RGBA32Float}})
				require.NoError(t, err)
				require.Len(t, got, W*H*16)
				for i, inv := range ref {
					require.NoError(t, inv.Err)
					o := inv.Outputs[0]
					for j := 0; j < 4; j++ {
						require.False(t, o.Indeterminate != nil && o.Indeterminate[j], o.Why)
						g := float64(math.Float32frombits(binary.LittleEndian.Uint32(got[16*i+4*j:])))
						w := float64(math.Float32frombits(o.Value.Elems[j].Bits))
						assert.LessOrEqual(t, math.Abs(g-w), o.Tolerance[j], "pixel (%d, %d) leaf %d: GPU %v, reference %v ± %v", i%W, i/W, j, g, w, o.Tolerance[j])
					}
				}
			}
		})
	}
}
