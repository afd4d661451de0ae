package check

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/devices"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
)

// out[li] = subgroupAdd(li) * 1000 + subgroup_invocation_id: under the
// reference's default linear partition of size 32, invocation 5 reads
// 496005 (0 + … + 31 = 496); on SwiftShader (size 4, linear: invocation
// 5 is id 1 of {4, 5, 6, 7}, 22) the same invocation writes 22001, on
// lavapipe (size 8: id 5 of {0, …, 7}, 28) 28005.
const subgroupSumSrc = `enable subgroups;
@group(0) @binding(0) var<storage, read_write> out: array<u32, 64>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) li: u32, @builtin(subgroup_invocation_id) sid: u32) {
  out[li] = subgroupAdd(li) * 1000u + sid;
}
`

func subgroupCaseOf(t *testing.T, src string) *testcase.Case {
	t.Helper()
	m, err := wgsl.Parse("sum.wgsl", []byte(src))
	require.NoError(t, err)
	return (&testcase.ComputeCase{Module: m, Entry: "main", Workgroups: [3]uint32{1, 1, 1}}).Case()
}

// openDawn opens Dawn adapters (closed when the test ends).
func openDawn(t *testing.T, names ...string) []Device {
	t.Helper()
	set, err := devices.Open(names, devices.Options{})
	require.NoError(t, err, "the Dawn adapters come with `make deps` (npm webgpu, Mesa 25)")
	t.Cleanup(set.Close)
	var devs []Device
	for _, d := range set {
		devs = append(devs, d)
	}
	return devs
}

// Each device's run is judged against the reference of the partition its
// probe recorded, not the reference's default: both stacks pass although
// neither runs at size 32, each run names its partition, and the
// reference shown is still the default one's (496005 at invocation 5).
func TestSubgroupRunsJudgedUnderTheirPartition(t *testing.T) {
	devs := openDawn(t, "dawn-vulkan:swiftshader", "dawn-vulkan:llvmpipe-mesa25")
	res, err := Execute(context.Background(), subgroupCaseOf(t, subgroupSumSrc), Options{Devices: devs, Flat: true})
	require.NoError(t, err)
	assert.Equal(t, oracle.Pass, res.Verdict, "%v", res)
	ref, err := res.Reference[0][0].Buffer.Value()
	require.NoError(t, err)
	assert.Equal(t, uint32(496005), ref.Elems[5].Bits)
	n := 0
	for _, r := range res.Runs {
		if r.Adapter == "interp" {
			assert.Empty(t, r.Subgroups)
			continue
		}
		n++
		assert.NotEmpty(t, r.Subgroups, "%s %s: no observed partition", r.Adapter, r.Function)
		got := binary.LittleEndian.Uint32(r.Outputs[0][0].Buffer.Bytes[5*4:])
		want := map[string]uint32{"dawn-vulkan:swiftshader": 22001, "dawn-vulkan:llvmpipe-mesa25": 28005}[r.Adapter]
		assert.Equal(t, want, got, "%s %s: invocation 5", r.Adapter, r.Function)
	}
	assert.Equal(t, 4, n, "original and twin on each device")
}

// corrupting runs a real device and then rewrites what it read back:
// out[5] += 1 (a wrong subgroupAdd) or the probe's recorded size.
type corrupting struct {
	Device
	leaf bool
	size uint32
}

func (c corrupting) Run(ctx context.Context, k harness.Kernel, job harness.Dispatch) ([]byte, error) {
	out, err := c.Device.Run(ctx, k, job)
	if err != nil {
		return out, err
	}
	out = append([]byte(nil), out...)
	if c.leaf {
		binary.LittleEndian.PutUint32(out[5*4:], binary.LittleEndian.Uint32(out[5*4:])+1)
	}
	if c.size != 0 { // the probe follows out's 256 bytes: size is each element's third word
		for i := 0; i < 64; i++ {
			binary.LittleEndian.PutUint32(out[256+i*ir.SubgroupProbeStride+8:], c.size)
		}
	}
	return out, nil
}

// The other side: a wrong result under the observed partition is a
// mismatch, and a partition no WGSL implementation may have (a subgroup
// size of 6, not a power of two) is the run's own difference.
func TestSubgroupWrongResultsAndImpossiblePartitions(t *testing.T) {
	devs := openDawn(t, "dawn-vulkan:swiftshader")
	for _, c := range []struct {
		name string
		dev  corrupting
		diff string
	}{
		{"wrong sum", corrupting{Device: devs[0], leaf: true}, "out[5]"},
		{"size 6", corrupting{Device: devs[0], size: 6}, "impossible subgroup partition"},
	} {
		res, err := Execute(context.Background(), subgroupCaseOf(t, subgroupSumSrc), Options{Devices: []Device{c.dev}})
		require.NoError(t, err, c.name)
		assert.Equal(t, oracle.Mismatch, res.Verdict, c.name)
		var diffs []string
		for _, r := range res.Runs {
			for _, ds := range r.Diffs {
				for _, d := range ds {
					diffs = append(diffs, d.Path+" "+d.Got)
				}
			}
		}
		assert.True(t, strings.Contains(strings.Join(diffs, "\n"), c.diff), "%s: diffs %q lack %q", c.name, diffs, c.diff)
	}
}
