package wgsl

import (
	"context"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

// fragKernelSrc has a bool parameter and result leaf, a vector result and
// a private global output, so the fragment wrapper crosses every kind of
// ABI record member.
const fragKernelSrc = `
var<private> seen: u32;

struct R {
  v: vec2<u32>,
  odd: bool,
}

fn k(a: u32, flip: bool) -> R {
  seen = a ^ 0xffu;
  var r: R;
  r.v = vec2<u32>(a * 3u + 1u, a >> 1u);
  r.odd = ((a & 1u) == 1u) != flip;
  return r;
}
`

// TestEmitFragmentWrapper: with Fragment the wrapper is a @fragment entry
// point computing its invocation from @builtin(position) with the row
// pitch, returning the marker, and no @compute entry point.
func TestEmitFragmentWrapper(t *testing.T) {
	m, err := Parse("frag.wgsl", []byte(fragKernelSrc))
	require.NoError(t, err)
	src, entry, err := Emit(m, "k", EmitOptions{Fragment: true})
	require.NoError(t, err)
	for _, want := range []string{"@fragment\nfn " + entry + "(@builtin(position) ", ") -> @location(0) u32 {", ".y) * 256u + u32(", "return 0u;", "return 1u;"} {
		assert.Contains(t, src, want)
	}
	assert.NotContains(t, src, "@compute")
	assert.NotContains(t, src, "global_invocation_id")
}

// TestEmitFragmentWrapperRuns draws the emitted fragment wrapper on every
// CPU adapter for 300 invocations (a full row of 256, a partial second
// row) with outputs worked out from the kernel's source: for a = i, flip =
// (i % 3 == 0): v = (3i + 1, i >> 1), odd = (i odd) != flip, seen = i ^
// 0xff; the marker is 1 at each invocation's pixel, 0 past them.
func TestEmitFragmentWrapperRuns(t *testing.T) {
	m, err := Parse("frag.wgsl", []byte(fragKernelSrc))
	require.NoError(t, err)
	src, entry, err := Emit(m, "k", EmitOptions{Fragment: true})
	require.NoError(t, err)
	abi, err := ir.NewKernelABI(m, "k")
	require.NoError(t, err)
	const n = 300
	args := make([][]ir.Value, n)
	for i := range args {
		args[i] = []ir.Value{ir.U32Val(uint32(i)), ir.BoolVal(i%3 == 0)}
	}
	in, err := abi.EncodeInputs(args)
	require.NoError(t, err)
	tg := harness.FragmentTarget(n)
	for _, name := range []string{"wgpu-vulkan:llvmpipe", "wgpu-vulkan:swiftshader", "wgpu-gl:llvmpipe"} {
		t.Run(name, func(t *testing.T) {
			d, err := harness.Open(name)
			require.NoError(t, err, "install the CPU adapters (make deps)")
			defer d.Close()
			out, err := d.Run(context.Background(), harness.Kernel{WGSL: src, EntryPoint: entry, Stage: harness.FragmentStage},
				harness.Dispatch{Input: in, OutputSize: n * abi.OutputStride, Invocations: n, Target: tg, Attachments: []harness.AttachmentFormat{harness.R32Uint}})
			require.NoError(t, err, "emitted WGSL:\n%s", src)
			require.Len(t, out, n*abi.OutputStride+4*int(tg[0]*tg[1]))
			vals, err := abi.DecodeOutputs(out[:n*abi.OutputStride], n)
			require.NoError(t, err)
			for i, v := range vals {
				u := uint32(i)
				r, seen := v[0], v[1]
				got := []uint32{r.Elems[0].Elems[0].U32(), r.Elems[0].Elems[1].U32(), r.Elems[1].Bits, seen.U32()}
				odd := uint32(0)
				if (i%2 == 1) != (i%3 == 0) {
					odd = 1
				}
				require.Equal(t, []uint32{3*u + 1, u >> 1, odd, u ^ 0xff}, got, "invocation %d", i)
			}
			marks := out[n*abi.OutputStride:]
			for p := 0; p < len(marks)/4; p++ {
				want := uint32(0)
				if p < n {
					want = 1
				}
				require.Equal(t, want, binary.LittleEndian.Uint32(marks[4*p:]), "marker at pixel %d", p)
			}
		})
	}
}
