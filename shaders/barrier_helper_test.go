package shaders

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// TestComputeBarrierHelperInlined: the reference inlines the calls that
// reach a barrier (ir.InlineBarriers, issue 24 item 6): a return inside a
// switch inside a loop of the helper leaves the helper (not just the
// switch), a && whose right side reaches a barrier runs it only when the
// left holds, and a race inside the helper is reported at the helper's
// lines.
func TestComputeBarrierHelperInlined(t *testing.T) {
	const src = `@group(0) @binding(0) var<storage, read_write> out: array<u32, 4>;
var<workgroup> w: array<u32, 4>;
var<private> hits: u32;

fn pick(li: u32, n: u32) -> u32 {
  for (var k = 0u; k < 4u; k++) {
    workgroupBarrier();
    switch (k) {
      case 2u: {
        if (n == 2u) {
          return k * 10u + li;
        }
      }
      default: {}
    }
  }
  return 99u;
}

fn check(li: u32) -> bool {
  hits += 1u;
  return workgroupUniformLoad(&w[0]) == 0u;
}

fn racy(li: u32) {
  workgroupBarrier();
  w[0] = li;
}

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let a = pick(li, 2u);
  let b = (wid.x == 7u) && check(li);
  let c = (wid.x == 0u) && check(li);
  out[li] = a + select(0u, 1000u, b) + select(0u, 2000u, c) + hits * 100u;
  racy(li);
}
`
	m, err := wgsl.Parse("h.wgsl", []byte(src))
	require.NoError(t, err)
	d, err := interp.CompileEntry(m, "main")
	require.NoError(t, err)
	res, err := d.Run(map[string]ir.Value{}, [3]uint32{1, 1, 1}, interp.Options{})
	require.NoError(t, err)
	out := res.Buffers["out"]
	for i := 0; i < 4; i++ {
		assert.Equal(t, uint32(2120+i), out.Value.Elems[i].Bits, "out[%d]", i)
	}
	require.NotEmpty(t, res.Races)
	assert.Contains(t, res.Races[0].A, "h.wgsl:27:", res.Races[0].String())
}
