package dawn

import (
	"context"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// tripleFragmentWGSL is the tripler in the fragment stage under the kernel
// ABI (harness.FragmentRowPitch): out[i] = in[i]*3 + 1 for invocation i =
// 256*y + x below arrayLength(out), and @location(0) = x + 1000*y.
const tripleFragmentWGSL = `
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;

@fragment
fn main(@builtin(position) pos: vec4<f32>) -> @location(0) u32 {
	let x = u32(pos.x);
	let y = u32(pos.y);
	let i = y * 256u + x;
	if (i < arrayLength(&outp)) {
		outp[i] = inp[i] * 3u + 1u;
	}
	return x + 1000u * y;
}
`

// TestRunFragmentTriple draws the tripler on Dawn's Vulkan adapter
// (SwiftShader) over two rows, 300 invocations, and checks every output
// word (3i + 1 for input i) and every attachment texel (x + 1000*y: the
// readback's rows from the top, padding removed), as harness.Device.Run
// returns them. (Dawn's GL adapters are left out: their fragment-stage
// storage writes are not reliably visible to the copy that follows the
// render pass — the report of the branch that added this test.)
func TestRunFragmentTriple(t *testing.T) {
	d := openDevice(t, swiftshader)
	const n = 300
	in := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(in[4*i:], uint32(i))
	}
	tg := harness.FragmentTarget(n)
	k := harness.Kernel{WGSL: tripleFragmentWGSL, EntryPoint: "main", Stage: harness.FragmentStage}
	out, err := d.Run(context.Background(), k, harness.Dispatch{Input: in, OutputSize: 4 * n, Invocations: n, Target: tg,
		Attachments: []harness.AttachmentFormat{harness.R32Uint}})
	require.NoError(t, err)
	require.Len(t, out, 4*n+4*int(tg[0]*tg[1]))
	for i := range n {
		require.Equal(t, uint32(3*i+1), binary.LittleEndian.Uint32(out[4*i:]), "out[%d]", i)
	}
	for p := range int(tg[0] * tg[1]) {
		x, y := p%int(tg[0]), p/int(tg[0])
		require.Equal(t, uint32(x+1000*y), binary.LittleEndian.Uint32(out[4*n+4*p:]), "pixel (%d, %d)", x, y)
	}

	_, err = d.Run(context.Background(), k, harness.Dispatch{Input: in, OutputSize: 4 * n, Invocations: n, Target: tg})
	assert.ErrorContains(t, err, "at least one colour attachment")
	_, err = d.Run(context.Background(), harness.Kernel{WGSL: tripleWGSL, EntryPoint: "main"},
		harness.Dispatch{Input: in, OutputSize: 4 * n, Invocations: n, Target: tg})
	assert.ErrorContains(t, err, "compute dispatch has no Target")
}
