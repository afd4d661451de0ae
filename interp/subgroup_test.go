package interp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// sgParse parses a WGSL module with subgroup builtins, skipping the test
// while the front end does not lower them.
func sgParse(t *testing.T, src string) *ir.Module {
	t.Helper()
	m, err := wgsl.Parse("sg.wgsl", []byte(src))
	if err != nil && strings.Contains(err.Error(), "subgroup") && !strings.Contains(err.Error(), "uniform") {
		t.Skipf("the WGSL front end does not lower subgroup builtins yet: %v", err)
	}
	require.NoError(t, err)
	return m
}

// sgRun dispatches main of src over workgroups with opts and returns its
// bindings.
func sgRun(t *testing.T, src string, workgroups [3]uint32, opts Options) map[string]Output {
	t.Helper()
	m := sgParse(t, src)
	d, err := CompileEntry(m, "main")
	require.NoError(t, err)
	res, err := d.Run(nil, workgroups, opts)
	require.NoError(t, err)
	return res.Buffers
}

func sgU32s(o Output) []uint32 {
	out := make([]uint32, len(o.Value.Elems))
	for i, e := range o.Value.Elems {
		out[i] = e.Bits
	}
	return out
}

const sgBasic = `
enable subgroups;
@group(0) @binding(0) var<storage, read_write> sum: array<u32, 64>;
@group(0) @binding(1) var<storage, read_write> excl: array<u32, 64>;
@group(0) @binding(2) var<storage, read_write> ballot: array<vec4<u32>, 64>;
@group(0) @binding(3) var<storage, read_write> ids: array<vec2<u32>, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lidx: u32, @builtin(subgroup_invocation_id) sid: u32, @builtin(subgroup_size) ssize: u32) {
  sum[lidx] = subgroupAdd(lidx);
  excl[lidx] = subgroupExclusiveAdd(1u);
  ballot[lidx] = subgroupBallot(lidx % 2u == 0u);
  ids[lidx] = vec2(sid, ssize);
}
`

// TestSubgroupLinear: 64 invocations in linear subgroups of 8 (subgroup
// k holds local indices 8k..8k+7, ids 0..7). By hand: subgroupAdd(lidx)
// = 8k+0 + … + 8k+7 = 64k + 28; subgroupExclusiveAdd(1u) is the number
// of active invocations of lower id = id = lidx % 8; the ballot of
// lidx % 2 == 0 sets the bits of ids 0, 2, 4, 6 = 0x55 in x.
func TestSubgroupLinear(t *testing.T) {
	b := sgRun(t, sgBasic, [3]uint32{1, 1, 1}, Options{SubgroupSize: 8})
	for i := 0; i < 64; i++ {
		k := uint32(i / 8)
		assert.Equal(t, 64*k+28, sgU32s(b["sum"])[i], "sum[%d]", i)
		assert.Equal(t, uint32(i%8), sgU32s(b["excl"])[i], "excl[%d]", i)
		bal := b["ballot"].Value.Elems[i]
		assert.Equal(t, []uint32{0x55, 0, 0, 0}, []uint32{bal.Elems[0].Bits, bal.Elems[1].Bits, bal.Elems[2].Bits, bal.Elems[3].Bits}, "ballot[%d]", i)
		id := b["ids"].Value.Elems[i]
		assert.Equal(t, []uint32{uint32(i % 8), 8}, []uint32{id.Elems[0].Bits, id.Elems[1].Bits})
	}
	for _, name := range []string{"sum", "excl", "ballot", "ids"} {
		assert.Nil(t, b[name].Indeterminate, "%s: %s", name, b[name].Why)
		assert.Nil(t, b[name].Reconvergence, name)
	}
}
