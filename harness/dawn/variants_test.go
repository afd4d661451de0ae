package dawn

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/harness"
)

// ballotWGSL writes, for every invocation, the subgroup size three ways:
// countOneBits of subgroupBallot(true) over the four words (the WebGPU
// CTS's measure), subgroupAdd(1u), and the subgroup_size builtin, packed
// as ballot*1000000 + add*1000 + size. Each invocation of a full workgroup
// is active, so all three are the size (WGSL #subgroupBallot-builtin).
const ballotWGSL = `enable subgroups;
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3u, @builtin(subgroup_size) size: u32) {
	let b = countOneBits(subgroupBallot(true));
	let n = subgroupAdd(1u);
	if (id.x >= arrayLength(&outp)) { return; }
	outp[id.x] = (b.x + b.y + b.z + b.w) * 1000000u + n * 1000u + size;
}
`

// TestLavapipeVariants: Dawn's Mesa 25 lavapipe is also listed under
// LP_NATIVE_VECTOR_WIDTH=128 and 512, as the variants lp128 and lp512
// of subgroup sizes 128/32 = 4 and 512/32 = 16 (lavapipe's subgroupSize
// is its vector width over 32-bit lanes); each opens a worker whose
// environment has the width, and measures its size in the shader. "all"
// leaves them out (harness.Select), Variants adds them back.
func TestLavapipeVariants(t *testing.T) {
	byName := allAdapters(t)
	base := byName[mesa25Lavapipe]
	require.NotEmpty(t, base.Name, adapterHint)
	sizes := map[string]uint32{mesa25Lavapipe: lavapipeSubgroupSize(t, base.Device)}
	for _, bits := range []int{128, 512} {
		if bits == lavapipeWidth(base.Device) {
			continue // the host's own width is the base adapter
		}
		name := mesa25Lavapipe + "-" + harness.LavapipeVariant(bits)
		v, ok := byName[name]
		require.True(t, ok, "%s listed", name)
		assert.Equal(t, harness.LavapipeVariant(bits), v.Variant)
		assert.Equal(t, "mesa25", v.DriverSet)
		assert.Equal(t, "dawn", v.Implementation)
		assert.Contains(t, v.Device, "bits)")
		assert.Equal(t, uint32(bits/32), v.SubgroupMinSize)
		assert.Equal(t, uint32(bits/32), v.SubgroupMaxSize)
		assert.True(t, v.HasFeature(harness.FeatureShaderF16), "the same lavapipe")
		sizes[name] = uint32(bits / 32)
	}
	require.Len(t, sizes, 3, "the base and two variants")

	for name, size := range sizes {
		t.Run(name, func(t *testing.T) {
			d := openDevice(t, name)
			assert.Equal(t, name, d.Info().Name)
			const n = 64
			out, err := d.Run(t.Context(), harness.Kernel{WGSL: ballotWGSL, EntryPoint: "main"}, harness.Dispatch{Input: make([]byte, 4*n), OutputSize: 4 * n, Invocations: n})
			require.NoError(t, err)
			for i, w := range words(out) {
				assert.Equal(t, size*1000000+size*1000+size, w, "invocation %d", i)
			}
			env, err := os.ReadFile("/proc/" + strconv.Itoa(d.w.pid()) + "/environ")
			require.NoError(t, err)
			v, _ := harness.VariantOfName(name)
			has := strings.Contains("\x00"+string(env), "\x00"+LavapipeWidthEnv+"=")
			assert.Equal(t, v != "", has, "only a variant's worker sets %s", LavapipeWidthEnv)
		})
	}

	var all []harness.AdapterInfo
	for _, a := range byName {
		all = append(all, a)
	}
	chosen, err := harness.Select(all, []string{"all"})
	require.NoError(t, err)
	for _, a := range chosen {
		assert.Empty(t, a.Variant, "all leaves %s out", a.Name)
	}
	assert.Len(t, harness.Variants(all, chosen), 2)
}
