package dawn

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

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

// probeWGSL is a subgroup module with the observation binding the WebGPU
// CTS adds (issue 40, item 5): beside its result (binding 1) each
// invocation writes, at binding 2, its subgroup_invocation_id and a
// subgroup identity, subgroupBroadcastFirst(local_invocation_index).
const probeWGSL = `enable subgroups;
@group(0) @binding(0) var<storage, read> inp: array<u32>;
@group(0) @binding(1) var<storage, read_write> outp: array<u32>;
@group(0) @binding(2) var<storage, read_write> probe: array<vec2u>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) sid: u32) {
	outp[lid] = subgroupAdd(inp[lid]);
	probe[lid] = vec2u(sid, subgroupBroadcastFirst(lid));
}
`

// TestSubgroupProbeBinding: the observed partition comes back through a
// Buffers dispatch with one storage binding more than the module's own
// (every subgroup adapter here allows 12 or more per stage). What WGSL
// fixes is checked, not a layout: invocations with one identity form one
// subgroup of the adapter's size whose ids are 0..size-1
// (#subgroup-invocation-id), the identity is the local index of the
// member with id 0 (subgroupBroadcastFirst takes the lowest active id),
// and each member's subgroupAdd is the sum of its subgroup's inputs.
//
// The module is new to every run of the test (a constant of this run in
// it) and runs on lavapipe's base adapter before its variants, so a
// variant that shared the base's Mesa shader cache would load the base's
// binary (shaderCacheEnv): it did, and ran subgroups of 8 on lp128 and
// lp512.
func TestSubgroupProbeBinding(t *testing.T) {
	byName := allAdapters(t)
	src := strings.Replace(probeWGSL, "\tprobe[lid] =", fmt.Sprintf("\tif (inp[lid] == %du) { outp[lid] = 7u; }\n\tprobe[lid] =", 100000+time.Now().UnixNano()%1000000007), 1)
	for _, name := range []string{swiftshader, mesa25Lavapipe, mesa25Lavapipe + "-lp128", mesa25Lavapipe + "-lp512"} {
		t.Run(name, func(t *testing.T) {
			size := byName[name].SubgroupMinSize
			require.NotZero(t, size, "%s has subgroups", name)
			in := make([]uint32, 64)
			for i := range in {
				in[i] = uint32(i*i + 1)
			}
			d := openDevice(t, name)
			out, err := d.Run(t.Context(), harness.Kernel{WGSL: src, EntryPoint: "main"}, harness.Dispatch{
				Workgroups: [3]uint32{1, 1, 1},
				Buffers: []harness.BufferBinding{
					{Group: 0, Binding: 0, Kind: harness.BindingReadOnly, Data: le(in...)},
					{Group: 0, Binding: 1, Kind: harness.BindingStorage, Data: make([]byte, 4*64)},
					{Group: 0, Binding: 2, Kind: harness.BindingStorage, Data: make([]byte, 8*64)},
				},
			})
			require.NoError(t, err)
			w := words(out)
			require.Len(t, w, 64+2*64)
			sums, probe := w[:64], w[64:]
			members := map[uint32][]uint32{} // identity → local indices
			for lid := range uint32(64) {
				members[probe[2*lid+1]] = append(members[probe[2*lid+1]], lid)
			}
			assert.Len(t, members, int(64/size), "64 invocations in subgroups of %d", size)
			for id, lids := range members {
				require.Len(t, lids, int(size), "subgroup %d", id)
				seen := map[uint32]uint32{}
				var sum uint32
				for _, l := range lids {
					seen[probe[2*l]] = l
					sum += in[l]
				}
				assert.Len(t, seen, int(size), "ids distinct in subgroup %d", id)
				for s := range size {
					assert.Contains(t, seen, s, "id %d in subgroup %d", s, id)
				}
				assert.Equal(t, id, seen[0], "the identity is the local index of id 0")
				for _, l := range lids {
					assert.Equal(t, sum, sums[l], "subgroupAdd of invocation %d", l)
				}
			}
		})
	}
}
